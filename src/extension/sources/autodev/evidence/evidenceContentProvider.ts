/**
 * Read-only documents on the `autodev-evidence` scheme: diff sides rebuilt
 * from patches, readable Markdown views of bundles, output texts and raw
 * evidence files. Content always comes from our own confined reads
 * (evidenceStore, tournamentStore) of the folder and task the URI names after
 * validation, never from a path the URI dictates. Rebuilt diffs are cached
 * briefly so a multi-file diff editor does not rebuild a patch per side.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import {
  confinementRefusal,
  readEvidence,
  readInside,
  readPatchSource,
  readWorkspaceText,
} from "../../../../core/sources/autodev/evidence/evidenceStore";
import { type PatchSource, diffSourceLabel } from "../../../../core/sources/autodev/evidence/evidenceNames";
import { evidenceMarkdown, mdText, patchMarkdown } from "../../../../core/sources/autodev/evidence/evidenceSummary";
import { decodeUtf8Strict } from "../../../../core/text/utf8";
import { ParsedPatchFile, tryParsePatch } from "../../../../core/sources/autodev/evidence/patchModel";
import { ReconstructedFile, reconstructPatch } from "../../../../core/sources/autodev/evidence/patchReconstruct";
import { evidenceDir } from "../../../../core/sources/autodev/autodevPaths";
import { diffContentHash } from "../../../../core/sources/autodev/evidence/reviewMarks";
import { readTournament } from "../../../../core/sources/autodev/evidence/tournamentStore";
import { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevFolders } from "../folder/autodevFolders";
import { Disposable } from "../../../disposable";
import { EVIDENCE_SCHEME, EvidenceDocRequest, parseEvidenceUri } from "./evidenceUris";

/** A diff of one source rebuilt for display, or why it could not be. */
export type RebuiltDiff =
  | {
      readonly ok: true;
      readonly label: string;
      readonly text: string;
      /** The sha256 of `text` (what a reviewed mark records). */
      readonly hash: string;
      readonly files: readonly ReconstructedFile[];
    }
  | {
      readonly ok: false;
      readonly label: string;
      readonly error: string;
      /** The sha256 of the diff's text when it was read but does not parse; null when it could not be read. */
      readonly hash: string | null;
    };

/** How long a rebuilt diff is reused (ms). */
const CACHE_MS = 10_000;

/** TextDocumentContentProvider of the `autodev-evidence` scheme. */
export class EvidenceContentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly changed = this.register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this.changed.event;
  private readonly cache = new Map<string, { at: number; value: Promise<RebuiltDiff | null> }>();

  constructor(private readonly folders: AutodevFolders) {
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
    const value = this.rebuild(folder.cwd, taskId, source);
    this.cache.set(key, { at: Date.now(), value });
    return value;
  }

  private async rebuild(cwd: string, taskId: string, source: PatchSource): Promise<RebuiltDiff | null> {
    const found = await readPatchSource(cwd, taskId, source);
    if (found === null) return null;
    const label = diffSourceLabel({ source, file: found.file });
    if (!found.ok) return { ok: false, label, error: found.error, hash: null };
    const hash = diffContentHash(found.text);
    const parsed = tryParsePatch(found.text);
    if (!parsed.ok) return { ok: false, label, error: parsed.error, hash };
    return {
      ok: true,
      label,
      text: found.text,
      hash,
      files: await reconstructPatch(parsed.files, (rel) => readWorkspaceText(cwd, rel)),
    };
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
      return vscode.l10n.t("AutoDev: could not show this evidence: {0}", e instanceof Error ? e.message : String(e));
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
        const item = await readEvidence(folder.cwd, req.task, req.kind);
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
    const found = await readPatchSource(folder.cwd, taskId, "patch");
    const heading = `# ${vscode.l10n.t("Diff — task {0}", mdText(taskId))}\n\n`;
    if (!found) return `${heading}${vscode.l10n.t("No .patch.")}\n`;
    if (!found.ok) return `${heading}⚠️ ${mdText(`${found.file}: ${found.error}`)}\n`;
    const parsed = tryParsePatch(found.text);
    return patchMarkdown(
      taskId,
      found.file,
      parsed.ok ? parsed.files : null,
      found.text,
      parsed.ok ? null : parsed.error,
    );
  }

  private async bundleView(folder: AutodevFolder, taskId: string, kind: string): Promise<string> {
    const item = await readEvidence(folder.cwd, taskId, kind);
    if (!item) return `# ${vscode.l10n.t("No {0} evidence for task {1}", mdText(kind), mdText(taskId))}\n`;
    if (!item.ok) {
      return `# ${vscode.l10n.t("Invalid evidence — {0}", mdText(item.file))}\n\n⚠️ ${mdText(item.error)}\n`;
    }
    const e = item.evidence;
    let diffFiles: ParsedPatchFile[] | null = null;
    const diffText = e.kind === "developer" ? e.diff : e.kind === "tournament" ? e.final_diff : null;
    if (diffText) {
      const parsed = tryParsePatch(diffText);
      diffFiles = parsed.ok ? parsed.files : null;
    }
    const tournament = e.kind === "tournament" ? await readTournament(folder.cwd, e.tournament_id) : null;
    return evidenceMarkdown(e, { file: item.file, diffFiles, tournament });
  }

  private async rawView(folder: AutodevFolder, file: string): Promise<string> {
    const dir = evidenceDir(folder.cwd);
    const confined = await confinementRefusal(folder.cwd, dir);
    if (confined !== null) return vscode.l10n.t("AutoDev: {0}", confined);
    const read = await readInside(dir, path.join(dir, file));
    if (!read.ok) return vscode.l10n.t("AutoDev: {0}", read.error);
    const text = decodeUtf8Strict(read.data);
    return (
      text ??
      `${vscode.l10n.t("AutoDev: {0} is not valid UTF-8; shown with replacement characters:", file)}\n\n${read.data.toString("utf8")}`
    );
  }
}
