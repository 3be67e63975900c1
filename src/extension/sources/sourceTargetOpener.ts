/**
 * What a click on a source's tree node does, by its {@link NodeTarget}: open
 * a file of the workspace folder at a line, reveal another node, open a diff
 * of two sides (read-only `autodev-view` documents: the source's text, or a copy of the file),
 * show a text, or run a source action after a modal confirmation that shows
 * what it will write — never in an untrusted workspace.
 */
import * as vscode from "vscode";
import type * as NodeTargets from "../../core/sources/nodeTargetSchema";
import type { DiffSide, NodeTarget } from "../../core/sources/stateSource";
import { ConfirmAsk, modalAsk } from "../confirm";
import type { ReadOnlyDocuments } from "../readOnlyDocuments";
import type { StateWorkerClient } from "../stateWorkerClient";
import { openFileAt } from "../workspaceFiles";
import type { SourceFolder } from "./sourceAdapter";

let schema: typeof NodeTargets | undefined;
/** The targets' schema, loaded on first use: zod is not loaded while the extension host starts. */
function nodeTargets(): typeof NodeTargets {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schema ??= require("../../core/sources/nodeTargetSchema") as typeof NodeTargets);
}

/** A command's target argument as a {@link NodeTarget}; throws (saying why) when it is not one. */
export function parseNodeTarget(raw: unknown): NodeTarget {
  const parsed = nodeTargets().NodeTargetSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      vscode.l10n.t("not a node target: {0}", parsed.error.issues[0]?.message ?? vscode.l10n.t("invalid")),
    );
  }
  return parsed.data as NodeTarget;
}

/** The largest workspace file shown as a side of a diff. */
const MAX_DIFF_SIDE_BYTES = 16 * 1024 * 1024;

/** Reveals a node of a source in the state tree by its source-local id. */
export type RevealSourceNode = (state: SourceFolder, nodeId: string) => Promise<boolean>;

/** Opens node targets. */
export class SourceTargetOpener {
  constructor(
    private readonly sourceByKey: (key: string) => SourceFolder | undefined,
    private readonly worker: StateWorkerClient,
    private readonly docs: ReadOnlyDocuments,
    private readonly reveal: RevealSourceNode,
    private readonly choose: (state: SourceFolder, action: string) => Promise<unknown>,
  ) {}

  /** The command handler: `(sourceKey, target)`. */
  async open(key: unknown, rawTarget: unknown): Promise<void> {
    const state = typeof key === "string" ? this.sourceByKey(key) : undefined;
    if (!state) throw new Error(vscode.l10n.t("that state source is no longer in this workspace"));
    const target = parseNodeTarget(rawTarget);
    switch (target.kind) {
      case "file":
        return this.openFile(state, target.file, target.line);
      case "reveal":
        if (!(await this.reveal(state, target.nodeId))) {
          void vscode.window.showInformationMessage(
            vscode.l10n.t(
              "AutoDev: {0} is not in the {1} tree.",
              target.nodeId.replace(/^.*\|/, ""),
              state.displayName,
            ),
          );
        }
        return;
      case "diff":
        await vscode.commands.executeCommand(
          "vscode.diff",
          await this.sideUri(state, target.left),
          await this.sideUri(state, target.right),
          target.title,
          { preview: true },
        );
        return;
      case "text": {
        const doc = await vscode.workspace.openTextDocument(this.docs.put(`${safeName(target.title)}`, target.text));
        const typed = target.language
          ? await vscode.languages.setTextDocumentLanguage(doc, target.language).then(
              (d) => d,
              () => doc,
            )
          : doc;
        await vscode.window.showTextDocument(typed, { preview: true });
        return;
      }
      case "action":
        await this.runAction(state, target.action, target.args);
        return;
      case "choose":
        await this.choose(state, target.action);
        return;
    }
  }

  /** Opens `file` (relative to the folder) at `line`; refuses paths out of the folder. */
  openFile(state: SourceFolder, file: string, line?: number): Promise<void> {
    return openFileAt(this.worker, state.cwd, file, line);
  }

  /**
   * One side of a diff as a read-only document: a source's text, or a copy of a workspace file as
   * it is now — a diff of state never lets one click rewrite the state (a revert arrow on the live file).
   */
  private async sideUri(state: SourceFolder, side: DiffSide): Promise<vscode.Uri> {
    if (side.kind === "text") return this.docs.put(safeName(side.name), side.text);
    // The worker reads it, with the state files' checks (inside the folder with links resolved, a
    // regular file, at most the cap): the host does no file I/O.
    const text = await this.worker.request({
      type: "fileText",
      cwd: state.cwd,
      file: side.file,
      maxBytes: MAX_DIFF_SIDE_BYTES,
    });
    if (text === null) {
      throw new Error(vscode.l10n.t("{0} does not exist (any more); there is nothing to compare", side.file));
    }
    return this.docs.put(safeName(side.file.slice(side.file.lastIndexOf("/") + 1)), text);
  }

  /** Previews, confirms (modal) and runs a source action; refused in an untrusted workspace. */
  async runAction(
    state: SourceFolder,
    action: string,
    args: readonly string[],
    ask: ConfirmAsk = modalAsk,
  ): Promise<string | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("AutoDev: {0} actions write to the workspace; trust the workspace first.", state.displayName),
      );
      return undefined;
    }
    const preview = await this.worker.request({
      type: "previewAction",
      cwd: state.cwd,
      kind: state.kind,
      settings: state.settings,
      action,
      args,
    });
    // The action's title, detail and report come from its source in src/core (English, as the CLI prints them).
    const writes = preview.writes.map((w) => `  ${w}`).join("\n") || `  ${vscode.l10n.t("(nothing)")}`;
    const detail = `${preview.detail}\n\n${vscode.l10n.t("Will write:")}\n${writes}`;
    if (!(await ask(preview.title, detail, vscode.l10n.t("Run")))) return undefined;
    const report = await this.worker.request({
      type: "runAction",
      cwd: state.cwd,
      kind: state.kind,
      settings: state.settings,
      action,
      args,
    });
    void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: {0}", report));
    await state.refresh();
    return report;
  }
}

function safeName(name: string): string {
  return name.replace(/[\\/\0]/g, "_").slice(0, 120) || vscode.l10n.t("untitled");
}
