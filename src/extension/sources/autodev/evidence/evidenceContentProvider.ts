/**
 * Read-only documents on the `autodev-evidence` scheme: diff sides rebuilt
 * from patches, readable Markdown views of bundles, output texts and raw
 * evidence files. Content always comes from the state worker's confined reads
 * (`evidence*` requests: evidenceViews.ts) of the folder and task the URI names
 * after validation, never from a path the URI dictates; the host reads no file.
 * Rebuilt diffs are cached briefly so a multi-file diff editor does not ask the
 * worker for a patch per side.
 */
import * as vscode from "vscode";
import type { PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import { evidenceMarkdown, patchMarkdown } from "../../../../core/sources/autodev/evidence/evidenceSummary";
import { escapeMarkdown } from "../../../../core/text/markdownText";
import type { RebuiltDiff } from "../../../../core/sources/autodev/evidence/evidenceViews";
import type { EvidenceRequest, EvidenceResults } from "../../../../core/sources/autodev/worker/evidenceRequests";
import { reviveClone } from "../../../../core/sources/autodev/plan/planTransfer";
import { decodeUtf8Strict } from "../../../../core/text/utf8";
import { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevFolders } from "../folder/autodevFolders";
import { Disposable } from "../../../disposable";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { autodevRequest } from "../autodevRequest";
import { EVIDENCE_SCHEME, EvidenceDocRequest, parseEvidenceUri } from "./evidenceUris";
import { errorText } from "../../../../core/text/errorText";

/** A value in a heading: one line, not cut. */
const LINE = { max: Infinity, oneLine: true } as const;
/** An error message: lines kept, not cut. */
const WHOLE = { max: Infinity } as const;

/** How long a rebuilt diff is reused (ms). */
const CACHE_MS = 10_000;

/** TextDocumentContentProvider of the `autodev-evidence` scheme. */
export class EvidenceContentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private readonly cache = new Map<string, { at: number; value: Promise<RebuiltDiff | null> }>();

  constructor(
    private readonly folders: AutodevFolders,
    private readonly worker: StateWorkerClient,
  ) {
    super();
    this.register(vscode.workspace.registerTextDocumentContentProvider(EVIDENCE_SCHEME, this));
  }

  /** The folder a URI names, when it is one of ours. */
  folderOf(uriString: string): AutodevFolder | undefined {
    return this.folders.byUri(uriString);
  }

  /** The diff of `source` for a task, rebuilt against the workspace (null when the task has none). */
  rebuilt(folder: AutodevFolder, taskId: string, source: PatchSource, fresh = false): Promise<RebuiltDiff | null> {
    const key = `${folder.folder.uri.toString()}|${taskId}|${source}`;
    const hit = this.cache.get(key);
    if (hit && !fresh && Date.now() - hit.at < CACHE_MS) return hit.value;
    const value = this.ask(folder, { type: "evidenceDiff", taskId, source });
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  /** One evidence request to the worker about `folder`, its answer's PyFloats restored. */
  ask<R extends EvidenceRequest>(folder: AutodevFolder, req: R): Promise<EvidenceResults[R["type"]]> {
    return autodevRequest(this.worker, folder.cwd, req).then((r) => reviveClone(r as EvidenceResults[R["type"]]));
  }

  /** Forgets cached diffs (of one folder, or all) and tells VS Code to reload open evidence documents. */
  invalidate(folder?: AutodevFolder): void {
    const prefix = folder ? `${folder.folder.uri.toString()}|` : "";
    for (const key of [...this.cache.keys()]) if (key.startsWith(prefix)) this.cache.delete(key);
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== EVIDENCE_SCHEME) continue;
      const req = parseEvidenceUri(doc.uri);
      if (typeof req !== "string" && (!folder || req.folder === folder.folder.uri.toString())) {
        this.changed.fire(doc.uri);
      }
    }
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const req = parseEvidenceUri(uri);
    if (typeof req === "string") return vscode.l10n.t("AutoDev: this evidence document cannot be shown: {0}.", req);
    const folder = this.folderOf(req.folder);
    if (!folder) return vscode.l10n.t("AutoDev: this evidence document belongs to a folder that is no longer open.");
    try {
      return await this.content(folder, req);
    } catch (e) {
      return vscode.l10n.t("AutoDev: could not show this evidence: {0}", errorText(e));
    }
  }

  private async content(folder: AutodevFolder, req: EvidenceDocRequest): Promise<string> {
    switch (req.view) {
      case "side": {
        const diff = await this.rebuilt(folder, req.task, req.source);
        if (!diff) return vscode.l10n.t("Task {0} has no {1} diff any more.", req.task, req.source);
        if (!diff.ok) return vscode.l10n.t("{0}: {1}", diff.label, diff.error);
        const file = diff.files[req.index];
        if (!file) return vscode.l10n.t("{0} has no file #{1} any more.", diff.label, req.index + 1);
        return file[req.side];
      }
      case "bundle":
        return req.kind === "patch" ? this.patchView(folder, req.task) : this.bundleView(folder, req.task, req.kind);
      case "output": {
        const { item } = await this.ask(folder, { type: "evidenceBundle", taskId: req.task, kind: req.kind });
        if (!item) return vscode.l10n.t("Task {0} has no {1} evidence any more.", req.task, req.kind);
        if (!item.ok) return vscode.l10n.t("{0} is invalid: {1}", item.file, item.error);
        const e = item.evidence;
        return "output_text" in e ? e.output_text : vscode.l10n.t("{0} has no output text.", item.file);
      }
      case "raw":
        return this.rawView(folder, req.file);
    }
  }

  private async patchView(folder: AutodevFolder, taskId: string): Promise<string> {
    const { found, files, parseError } = await this.ask(folder, { type: "evidencePatch", taskId });
    const heading = `# ${vscode.l10n.t("Diff — task {0}", escapeMarkdown(taskId, LINE))}\n\n`;
    if (!found) return `${heading}${vscode.l10n.t("No .patch.")}\n`;
    if (!found.ok) return `${heading}⚠️ ${escapeMarkdown(`${found.file}: ${found.error}`, WHOLE)}\n`;
    return patchMarkdown(taskId, found.file, files, found.text, parseError);
  }

  private async bundleView(folder: AutodevFolder, taskId: string, kind: string): Promise<string> {
    const { item, diffFiles, tournament } = await this.ask(folder, { type: "evidenceBundle", taskId, kind });
    if (!item) {
      return `# ${vscode.l10n.t("No {0} evidence for task {1}", escapeMarkdown(kind, LINE), escapeMarkdown(taskId, LINE))}\n`;
    }
    if (!item.ok) {
      return `# ${vscode.l10n.t("Invalid evidence — {0}", escapeMarkdown(item.file, LINE))}\n\n⚠️ ${escapeMarkdown(item.error, WHOLE)}\n`;
    }
    return evidenceMarkdown(item.evidence, { file: item.file, diffFiles, tournament });
  }

  private async rawView(folder: AutodevFolder, file: string): Promise<string> {
    const read = await this.ask(folder, { type: "evidenceRaw", file });
    if (!read.ok) return vscode.l10n.t("AutoDev: {0}", read.error);
    const data = Buffer.from(read.data.buffer, read.data.byteOffset, read.data.byteLength);
    const text = decodeUtf8Strict(data);
    return (
      text ??
      `${vscode.l10n.t("AutoDev: {0} is not valid UTF-8; shown with replacement characters:", file)}\n\n${data.toString("utf8")}`
    );
  }
}
