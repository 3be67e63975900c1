/**
 * Lets the ledger timeline webview show any source with a timeline. The
 * webview knows "folders" by an opaque URI string; a source's timeline is
 * offered as `<folder uri>#source=<kind>` next to the AutoDev folders, and
 * its pages, details and "open line" go to the worker's source requests.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type {
  FolderChoice,
  IntegritySummary,
  TimelineEntryDetail,
  TimelinePage,
  WebviewMessageOf,
} from "../../protocol";
import { LedgerWorkerClient } from "../ledgerWorkerClient";
import type { SourceFolderState } from "./sourceFolderState";
import type { SourceWorkspaces } from "./sourceWorkspaces";

const MARK = "#source=";

/** The timeline "folder" key of a source. */
export function timelineKeyOf(state: SourceFolderState): string {
  return `${state.folder.uri.toString()}${MARK}${state.kind}`;
}

/** Integrity at a glance for a source: its first error (or read failure). */
export function sourceIntegrityOf(s: SourceFolderState): IntegritySummary {
  const first = s.problems?.find((p) => p.severity === "error");
  return {
    ok: !first && !s.error,
    brokenLine: null,
    message:
      s.error ?? (first ? `${first.file}${first.line !== null ? `:${first.line}` : ""}: ${first.message}` : null),
  };
}

/** Routes timeline requests for source keys. */
export class SourceTimelineBridge {
  constructor(
    private readonly sources: SourceWorkspaces | undefined,
    private readonly worker: LedgerWorkerClient,
  ) {}

  /** True when `key` names a source timeline (not an AutoDev folder). */
  isSourceKey(key: string): boolean {
    return key.includes(MARK);
  }

  /** The source a key names; throws when it is gone. */
  state(key: string): SourceFolderState {
    const i = key.lastIndexOf(MARK);
    const s = i < 0 ? undefined : this.sources?.byKey(`${key.slice(0, i)}|${key.slice(i + MARK.length)}`);
    if (!s || !s.source.hasTimeline) {
      throw new Error(vscode.l10n.t("that state source has no timeline in this workspace (any more)"));
    }
    return s;
  }

  /** Timeline choices for every source with a timeline. */
  choices(multiFolder: boolean): FolderChoice[] {
    return (this.sources?.all ?? [])
      .filter((s) => s.source.hasTimeline)
      .map((s) => ({
        uri: timelineKeyOf(s),
        name: multiFolder ? `${s.folder.name} · ${s.displayName}` : s.displayName,
      }));
  }

  /** A page of a source's rows. */
  page(m: WebviewMessageOf<"query">): Promise<TimelinePage> {
    const s = this.state(m.folderUri);
    return this.worker.request({
      type: "sourceTimelinePage",
      cwd: s.cwd,
      kind: s.kind,
      options: s.options,
      query: m.query,
      offset: m.offset,
      limit: m.limit,
      anchorSeq: m.anchorSeq,
      locateSeq: m.locateSeq,
      facets: m.facets,
    });
  }

  /** The details of one row. */
  detail(key: string, seq: number): Promise<TimelineEntryDetail | null> {
    const s = this.state(key);
    return this.worker.request({ type: "sourceTimelineDetail", cwd: s.cwd, kind: s.kind, options: s.options, seq });
  }

  /** Opens the file and line a row came from. */
  async openLine(key: string, seq: number): Promise<void> {
    const s = this.state(key);
    const where = await this.worker.request({
      type: "sourceTimelineWhere",
      cwd: s.cwd,
      kind: s.kind,
      options: s.options,
      seq,
    });
    if (!where) return;
    const abs = path.resolve(s.cwd, where.file);
    const rel = path.relative(s.cwd, abs);
    if (rel.startsWith("..") || path.isAbsolute(rel)) {
      throw new Error(vscode.l10n.t("{0} is outside the workspace folder", where.file));
    }
    const pos = new vscode.Position(Math.max(0, where.line - 1), 0);
    await vscode.window.showTextDocument(vscode.Uri.file(abs), {
      selection: new vscode.Range(pos, pos),
      preview: true,
    });
  }
}
