/**
 * The evidence commands: open a bundle's readable view, a diff, an output
 * text or the raw evidence file, open a file an explore bundle refers to, and
 * browse all evidence of a folder (plan-level bundles included). Each takes a
 * Plan-view node (context menus) or plain arguments (folder URI, task id, …,
 * as tree clicks and tests pass them), and re-validates them before asking the
 * state worker, which does every read (the host reads no evidence file).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import {
  EVIDENCE_KINDS,
  PATCH_SOURCES,
  PatchSource,
  diffSourceLabel,
} from "../../../../core/sources/autodev/evidence/evidenceNames";
import { summarizeEvidence } from "../../../../core/sources/autodev/evidence/evidenceSummary";
import { isSafeSegment } from "../../../../core/sources/autodev/autodevPaths";
import type { TaskEvidence } from "../../../../core/sources/autodev/evidence/taskEvidence";
import { reviveClone } from "../../../../core/sources/autodev/plan/planTransfer";
import { AutodevFolder } from "../folder/autodevFolder";
import { CommandHandler } from "../../../commandManager";
import { EvidenceContentProvider } from "./evidenceContentProvider";
import { EvidenceDiffOpener, OpenedDiff } from "./evidenceDiffOpener";
import { EvidenceTarget } from "./evidenceTreeItems";
import { EvidenceTreeContributor } from "./evidenceTreeContributor";
import { evidenceUri } from "./evidenceUris";
import { FolderPicker } from "../folder/folderPicker";
import { autodevRequest } from "../autodevRequest";
import type { StateWorkerClient } from "../../../stateWorkerClient";

type Pick = vscode.QuickPickItem & { run?: () => Promise<unknown> };

/** The ids of the evidence commands (registered before their handlers are made). */
export const EVIDENCE_COMMAND_IDS = [
  "autodev.openEvidence",
  "autodev.openEvidenceDiff",
  "autodev.openEvidenceOutput",
  "autodev.openEvidenceFile",
  "autodev.openReferencedFile",
  "autodev.showEvidence",
] as const;

/** Handlers of the evidence commands. */
export class EvidenceCommands {
  constructor(
    private readonly content: EvidenceContentProvider,
    private readonly opener: EvidenceDiffOpener,
    private readonly contributor: EvidenceTreeContributor,
    private readonly picker: FolderPicker,
    private readonly worker: StateWorkerClient,
  ) {}

  /** Command id → handler, for CommandManager.registerAll. */
  handlers(): Record<(typeof EVIDENCE_COMMAND_IDS)[number], CommandHandler> {
    return {
      "autodev.openEvidence": (...a) => this.openView(this.target(a, "kind")),
      "autodev.openEvidenceDiff": (...a) => this.openDiff(this.target(a, "source")),
      "autodev.openEvidenceOutput": (...a) => this.openOutput(this.target(a, "kind")),
      "autodev.openEvidenceFile": (...a) => this.openRaw(this.target(a, "file")),
      "autodev.openReferencedFile": (...a) => this.openReferenced(this.target(a, "relPath")),
      "autodev.showEvidence": (arg) => this.browse(arg),
    };
  }

  /** A node's target, or one built from (folder URI, task id, value, index) after validation. */
  private target(args: unknown[], field: "kind" | "source" | "file" | "relPath"): EvidenceTarget {
    const fromNode = this.contributor.targetOf(args[0]);
    if (fromNode) return fromNode;
    const [folderUri, taskId, value, index] = args;
    const folder = typeof folderUri === "string" ? this.content.folderOf(folderUri) : undefined;
    if (!folder) throw new Error(vscode.l10n.t("open this from the AutoDev Plan view (no AutoDev folder given)"));
    if (field === "relPath") return { folder, taskId: "", relPath: typeof taskId === "string" ? taskId : "" };
    if (typeof taskId !== "string" || !isSafeSegment(taskId)) {
      throw new Error(vscode.l10n.t("task id {0} is not a safe file name", JSON.stringify(taskId) ?? String(taskId)));
    }
    const v = typeof value === "string" ? value : undefined;
    const i = typeof index === "number" && Number.isInteger(index) && index >= 0 ? index : undefined;
    return { folder, taskId, [field]: v, index: i };
  }

  /** Opens the readable Markdown view of a bundle (or of the `.patch`); returns its URI. */
  async openView(t: EvidenceTarget): Promise<vscode.Uri> {
    const kind = t.kind ?? "";
    if (kind !== "patch" && !(EVIDENCE_KINDS as readonly string[]).includes(kind)) {
      throw new Error(vscode.l10n.t("unknown evidence kind {0}", JSON.stringify(kind)));
    }
    const uri = evidenceUri(
      { view: "bundle", folder: t.folder.folder.uri.toString(), task: t.taskId, kind: kind as "patch" },
      `${t.taskId}-${kind}.md`,
    );
    this.content.invalidate(t.folder);
    // The built-in Markdown preview renders it (escaped data, no HTML); without it, the Markdown text.
    const shown = await Promise.resolve(vscode.commands.executeCommand("markdown.showPreview", uri)).then(
      () => true,
      () => false,
    );
    if (!shown) await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  }

  /** Opens a diff (every file, or the target's file); returns what was opened. */
  openDiff(t: EvidenceTarget): Promise<OpenedDiff> {
    const source = t.source ?? "patch";
    if (!PATCH_SOURCES.includes(source)) {
      throw new Error(vscode.l10n.t("unknown diff source {0}", JSON.stringify(source)));
    }
    return this.opener.open(t.folder, t.taskId, source, t.index);
  }

  /** Opens a bundle's `output_text` as a read-only document; returns its URI. */
  async openOutput(t: EvidenceTarget): Promise<vscode.Uri> {
    const kind = t.kind ?? "";
    if (!(EVIDENCE_KINDS as readonly string[]).includes(kind)) {
      throw new Error(vscode.l10n.t("unknown evidence kind {0}", JSON.stringify(kind)));
    }
    const uri = evidenceUri(
      { view: "output", folder: t.folder.folder.uri.toString(), task: t.taskId, kind: kind as "review" },
      `${t.taskId}-${kind} output.txt`,
    );
    this.content.invalidate(t.folder);
    await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  }

  /** Opens an evidence file's text as it is (read-only, confined, size-limited); returns its URI. */
  async openRaw(t: EvidenceTarget): Promise<vscode.Uri> {
    if (!t.file) throw new Error(vscode.l10n.t("no evidence file given"));
    const uri = evidenceUri(
      { view: "raw", folder: t.folder.folder.uri.toString(), task: t.taskId, file: t.file },
      t.file,
    );
    this.content.invalidate(t.folder);
    await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  }

  /** Opens a workspace file named by an explore bundle, when it really is inside the workspace. */
  async openReferenced(t: EvidenceTarget): Promise<vscode.Uri | undefined> {
    const rel = t.relPath ?? "";
    const abs = path.join(t.folder.cwd, rel);
    const refused = await this.content.ask(t.folder, { type: "referencedFile", rel });
    if (refused !== null) {
      void vscode.window.showWarningMessage(vscode.l10n.t("AutoDev: not opened: {0}", refused));
      return undefined;
    }
    const uri = vscode.Uri.file(abs);
    await vscode.window.showTextDocument(uri, { preview: true });
    return uri;
  }

  /** Quick picks over all evidence of a folder: task ids (plan-level ones too), then what to open. */
  async browse(arg?: unknown): Promise<void> {
    const folder = await this.picker.pick(arg);
    if (!folder) return;
    const listed = await this.content.ask(folder, { type: "evidenceTasks" });
    if (!listed.ok) {
      void vscode.window.showErrorMessage(vscode.l10n.t("AutoDev: {0}", listed.error));
      return;
    }
    if (listed.tasks.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: {0} has no evidence yet.", folder.folder.name));
      return;
    }
    const tasks = new Map((folder.plan?.phases ?? []).flatMap((p) => p.tasks.map((t) => [t.id, t] as const)));
    const taskPick = await vscode.window.showQuickPick(
      [...listed.tasks].map(([id, files]) => ({
        label: id,
        description:
          tasks.get(id)?.title ??
          (id === "plan" ? vscode.l10n.t("plan-level evidence") : vscode.l10n.t("not a task of the plan")),
        detail: files.join(", "),
        id,
      })),
      {
        title: vscode.l10n.t("Evidence in {0}", folder.folder.name),
        placeHolder: vscode.l10n.t("Which task's evidence?"),
      },
    );
    if (!taskPick) return;
    const pick = await vscode.window.showQuickPick(await this.picksFor(folder, taskPick.id, tasks.get(taskPick.id)), {
      title: vscode.l10n.t("Evidence of {0}", taskPick.id),
    });
    await pick?.run?.();
  }

  private async picksFor(
    folder: AutodevFolder,
    taskId: string,
    task: { status: unknown; evidence_bundle: unknown } | undefined,
  ): Promise<Pick[]> {
    const te: TaskEvidence = await autodevRequest(this.worker, folder.cwd, {
      type: "taskEvidence",
      taskId,
      status: String(task?.status ?? ""),
      evidenceBundle: null,
    }).then(reviveClone);
    const base = { folder, taskId };
    const picks: Pick[] = [];
    for (const i of te.items) {
      if (!i.ok) {
        picks.push({
          label: `$(error) ${i.file}`,
          detail: i.error,
          run: () => this.openRaw({ ...base, file: i.file }),
        });
        continue;
      }
      picks.push({
        label: `$(book) ${summarizeEvidence(i.evidence)}`,
        description: i.file,
        run: () => this.openView({ ...base, kind: i.kind }),
      });
      const e = i.evidence;
      if ("output_text" in e && e.output_text) {
        picks.push({
          label: `$(output) ${vscode.l10n.t("output of {0}", i.file)}`,
          run: () => this.openOutput({ ...base, kind: i.kind }),
        });
      }
    }
    for (const [source, d] of te.diffs) {
      picks.push({
        label: `$(diff) ${diffSourceLabel(d)}`,
        detail: d.ok
          ? d.files.length === 1
            ? vscode.l10n.t("1 file")
            : vscode.l10n.t("{0} files", d.files.length)
          : d.error,
        run: () => this.openDiff({ ...base, source: source as PatchSource }),
      });
    }
    if (te.patch && !te.patch.ok) picks.push({ label: `$(error) ${te.patch.file}`, detail: te.patch.error });
    return picks;
  }
}
