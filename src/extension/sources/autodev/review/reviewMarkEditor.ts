/**
 * Reviewed marks from the diff editor's title: when the active editor shows an evidence diff
 * (one file's side-by-side diff or the multi-file diff editor of a whole diff), its title bar
 * offers *Mark Reviewed* or, once marked, *Mark Unreviewed* (`editor/title` menus on the context
 * key `autodev.activeDiffReview`: "reviewed", "unreviewed" or "" for any other editor). The mark
 * records the hash of the diff the editor shows (the content provider's rebuilt diff).
 */
import * as vscode from "vscode";
import type { PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import type { CommandHandler } from "../../../commandManager";
import { Disposable } from "../../../disposable";
import type { AutodevFolder } from "../folder/autodevFolder";
import type { EvidenceContentProvider } from "../evidence/evidenceContentProvider";
import type { EvidenceTreeContributor } from "../evidence/evidenceTreeContributor";
import { EVIDENCE_SCHEME, parseEvidenceUri } from "../evidence/evidenceUris";
import type { ReviewMarkStore } from "./reviewMarkStore";
import { diffName } from "./reviewMarkTree";

/** The context key the editor-title menus read. */
export const ACTIVE_DIFF_REVIEW_KEY = "autodev.activeDiffReview";

/** The ids of the reviewed-mark commands of the diff editor (registered before their handlers are made). */
export const REVIEW_MARK_COMMAND_IDS = ["autodev.markDiffReviewed", "autodev.markDiffUnreviewed"] as const;

/** The diff an editor shows: folder, task and source. */
export interface ShownDiff {
  readonly folder: AutodevFolder;
  readonly taskId: string;
  readonly source: PatchSource;
}

/** The evidence-diff side URIs an active tab shows (a text diff, or the first of a multi-file diff). */
function tabSides(tab: vscode.Tab | undefined): vscode.Uri[] {
  const input: unknown = tab?.input;
  if (input instanceof vscode.TabInputTextDiff) return [input.modified];
  if (input instanceof vscode.TabInputText) return [input.uri];
  // The multi-file diff editor's input (TabInputTextMultiDiff, newer than our @types/vscode).
  const diffs = (input as { textDiffs?: unknown } | undefined)?.textDiffs;
  if (Array.isArray(diffs)) {
    return diffs.flatMap((d: unknown) => {
      const m = (d as { modified?: unknown } | null)?.modified;
      return m instanceof vscode.Uri ? [m] : [];
    });
  }
  return [];
}

/** The mark commands of the diff editor and the context key behind their menus. */
export class ReviewMarkEditor extends Disposable {
  private state: "reviewed" | "unreviewed" | "" = "";
  private generation = 0;

  constructor(
    private readonly store: ReviewMarkStore,
    private readonly content: EvidenceContentProvider,
    contributor: EvidenceTreeContributor,
  ) {
    super();
    const update = () => void this.update();
    this.register(
      vscode.window.tabGroups.onDidChangeTabs(update),
      vscode.window.tabGroups.onDidChangeTabGroups(update),
      vscode.window.onDidChangeActiveTextEditor(update),
      store.onDidChange(update),
      contributor.onDidRefresh(update),
    );
    update();
  }

  /** What the title bar offers now: "reviewed" (Mark Unreviewed), "unreviewed" (Mark Reviewed) or "" (neither). */
  get activeState(): "reviewed" | "unreviewed" | "" {
    return this.state;
  }

  /** Command id → handler. */
  handlers(): Record<(typeof REVIEW_MARK_COMMAND_IDS)[number], CommandHandler> {
    return {
      "autodev.markDiffReviewed": (arg) => this.mark(arg, true),
      "autodev.markDiffUnreviewed": (arg) => this.mark(arg, false),
    };
  }

  /** The diff a URI names (an evidence diff side), if it is one of an open folder's. */
  diffOf(uri: vscode.Uri): ShownDiff | undefined {
    if (uri.scheme !== EVIDENCE_SCHEME) return undefined;
    const req = parseEvidenceUri(uri);
    if (typeof req === "string" || req.view !== "side") return undefined;
    const folder = this.content.folderOf(req.folder);
    return folder ? { folder, taskId: req.task, source: req.source } : undefined;
  }

  /** The diff the active editor shows, if any. */
  activeDiff(): ShownDiff | undefined {
    const uris = tabSides(vscode.window.tabGroups.activeTabGroup.activeTab);
    const editor = vscode.window.activeTextEditor?.document.uri;
    for (const u of editor ? [...uris, editor] : uris) {
      const d = this.diffOf(u);
      if (d) return d;
    }
    return undefined;
  }

  /** The content hash of the diff as the editor shows it, or null when it cannot be read. */
  private async hashOf(d: ShownDiff): Promise<string | null> {
    const diff = await this.content.rebuilt(d.folder, d.taskId, d.source);
    return diff?.hash ?? null;
  }

  /** Sets or clears the mark of the diff `arg` (the editor's URI) or the active editor shows. */
  async mark(arg: unknown, reviewed: boolean): Promise<boolean> {
    const d = (arg instanceof vscode.Uri ? this.diffOf(arg) : undefined) ?? this.activeDiff();
    if (!d) {
      void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: the active editor shows no evidence diff."));
      return false;
    }
    const hash = await this.hashOf(d);
    if (!hash) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("AutoDev: {0} of task {1} cannot be read, so it cannot be marked.", diffName(d.source), d.taskId),
      );
      return false;
    }
    await this.store.set(d.folder.folder.uri.toString(), d.taskId, d.source, hash, reviewed);
    await this.update();
    return true;
  }

  /** Sets the context key from the active editor (a later call wins over an earlier one still reading). */
  async update(): Promise<void> {
    const mine = ++this.generation;
    const d = this.activeDiff();
    const hash = d ? await this.hashOf(d) : null;
    if (mine !== this.generation) return;
    const next =
      d && hash
        ? this.store.isReviewed(d.folder.folder.uri.toString(), d.taskId, d.source, hash)
          ? "reviewed"
          : "unreviewed"
        : "";
    if (next === this.state) return;
    this.state = next;
    await vscode.commands.executeCommand("setContext", ACTIVE_DIFF_REVIEW_KEY, next);
  }
}
