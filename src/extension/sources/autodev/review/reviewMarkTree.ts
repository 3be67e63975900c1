/**
 * Reviewed marks in the Plan view: every whole diff of a task (its `.patch`, the developer's diff
 * on the developer bundle's row, a tournament's final diff) has a checkbox, ticked when the diff
 * as it is now is marked reviewed; a task row says "1/2 reviewed" (its description, tooltip and
 * screen-reader label) once its evidence was read. Ticking or clearing a box sets or clears the
 * mark of the diff the row showed (its content hash); a diff that changed since its mark renders
 * unticked again and says "changed since reviewed" (row, checkbox tooltip, spoken label, task count).
 */
import * as vscode from "vscode";
import type { PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import {
  markState,
  parseReviewKey,
  reviewCount,
  type ReviewableDiff,
} from "../../../../core/sources/autodev/evidence/reviewMarks";
import type { TaskEvidence } from "../../../../core/sources/autodev/evidence/taskEvidence";
import { Disposable } from "../../../disposable";
import type { TreeHost } from "../../adapterHost";
import type { AutodevFolder } from "../folder/autodevFolder";
import { taskNodeId, taskNodeIdIn } from "../autodevNodes";
import type { AutodevTree } from "../autodevTree";
import type { EvidenceTarget } from "../evidence/evidenceTreeItems";
import type { EvidenceTreeContributor } from "../evidence/evidenceTreeContributor";
import type { ReviewMarkStore } from "./reviewMarkStore";

/** Most tasks the plan graph gets a reviewed note for (each one's evidence is read). */
const MAX_NOTED_TASKS = 1000;

/** What a diff of `source` is called in a sentence ("the patch"). */
export function diffName(source: PatchSource): string {
  return source === "patch"
    ? vscode.l10n.t("the patch")
    : source === "developer"
      ? vscode.l10n.t("the developer's diff")
      : vscode.l10n.t("the tournament's final diff");
}

/** "1/2 reviewed": how many of a task's diffs are marked reviewed ("1/2 reviewed, 1 changed since": marks that no longer hold). */
export function reviewedText(reviewed: number, total: number, changed = 0): string {
  return changed > 0
    ? vscode.l10n.t("{0}/{1} reviewed, {2} changed since", reviewed, total, changed)
    : vscode.l10n.t("{0}/{1} reviewed", reviewed, total);
}

/** The checkboxes and task counts of reviewed marks. */
export class ReviewMarkTree extends Disposable {
  /** The diffs of each task whose evidence was read, by `<folder uri>|<task id>`. */
  private readonly diffs = new Map<string, ReviewableDiff[]>();
  /** What each task row said when it was last rendered. */
  private readonly rendered = new Map<string, string | null>();

  constructor(
    private readonly store: ReviewMarkStore,
    private readonly tree: AutodevTree,
    onDidChangeCheckbox: TreeHost["onDidChangeCheckbox"],
    private readonly contributor: EvidenceTreeContributor,
  ) {
    super();
    tree.setItemDecorator((node, item) => {
      const t = contributor.targetOf(node);
      if (!t?.source || !t.diffHash) return;
      const state = markState(this.store.of(t.folder.folder.uri.toString()), t.taskId, t.source, t.diffHash);
      item.checkboxState = this.checkbox(t, state);
      if (state === "changed") {
        const flag = vscode.l10n.t("changed since reviewed");
        item.description = item.description ? `${String(item.description)} · ${flag}` : flag;
      }
    });
    tree.setTaskNote((folder, taskId) => {
      const key = `${folder.folder.uri.toString()}|${taskId}`;
      const note = this.note(folder, taskId);
      this.rendered.set(key, note);
      return note;
    });
    this.register(
      onDidChangeCheckbox((changes) => void this.setChecked(changes)),
      contributor.onDidLoad(({ folder, te }) => this.loaded(folder, te)),
      store.onDidChange((c) => tree.refresh(taskNodeIdIn(c.folderUri, c.taskId))),
    );
  }

  /** "1/2 reviewed" for a task whose evidence was read and has diffs; else null. */
  note(folder: AutodevFolder, taskId: string): string | null {
    const c = this.count(folder, taskId);
    return c && c.total > 0 ? reviewedText(c.reviewed, c.total, c.changed) : null;
  }

  /** {@link note}, reading the task's evidence first when it was not read yet (the timeline's details). */
  async noteFor(folder: AutodevFolder, taskId: string): Promise<string | null> {
    const key = `${folder.folder.uri.toString()}|${taskId}`;
    if (!this.diffs.has(key)) {
      const task = folder.live?.phases.flatMap((p) => p.tasks).find((t) => t.id === taskId);
      if (!task) return null;
      this.loaded(folder, await this.contributor.taskEvidence(folder, task));
    }
    return this.note(folder, taskId);
  }

  /**
   * "2/3 reviewed" of every task of `folder` with at least one mark (at most
   * {@link MAX_NOTED_TASKS} of them), by task id: a task nobody marked says nothing.
   */
  async notesOfMarked(folder: AutodevFolder): Promise<Record<string, string>> {
    const ids = new Set<string>();
    for (const key of Object.keys(this.store.of(folder.folder.uri.toString()))) {
      const k = parseReviewKey(key);
      if (k && ids.size < MAX_NOTED_TASKS) ids.add(k.taskId);
    }
    const out: Record<string, string> = Object.create(null) as Record<string, string>;
    const tasks = new Map((folder.live?.phases ?? []).flatMap((p) => p.tasks.map((t) => [t.id, t] as const)));
    for (const id of ids) {
      const task = tasks.get(id);
      if (!task) continue;
      // Through the contributor's cache (file events clear it), so a changed diff is read again.
      this.loaded(folder, await this.contributor.taskEvidence(folder, task));
      const note = this.note(folder, id);
      if (note !== null) out[id] = note;
    }
    return out;
  }

  /** How many of a task's diffs are reviewed, changed since their mark, of how many; null before its evidence was read. */
  count(folder: AutodevFolder, taskId: string): { reviewed: number; changed: number; total: number } | null {
    const folderUri = folder.folder.uri.toString();
    const diffs = this.diffs.get(`${folderUri}|${taskId}`);
    return diffs ? reviewCount(this.store.of(folderUri), taskId, diffs) : null;
  }

  private checkbox(t: EvidenceTarget, state: "reviewed" | "changed" | "unreviewed"): vscode.TreeItem["checkboxState"] {
    const what = diffName(t.source!);
    const reviewed = state === "reviewed";
    return {
      state: reviewed ? vscode.TreeItemCheckboxState.Checked : vscode.TreeItemCheckboxState.Unchecked,
      tooltip: reviewed
        ? vscode.l10n.t("Reviewed as it is now; clear to mark it unreviewed")
        : state === "changed"
          ? vscode.l10n.t("Changed since you marked it reviewed; tick to mark it reviewed again")
          : vscode.l10n.t("Mark {0} reviewed (a later change clears the mark)", what),
      accessibilityInformation: {
        label: reviewed
          ? vscode.l10n.t("{0} of task {1}: reviewed", what, t.taskId)
          : state === "changed"
            ? vscode.l10n.t("{0} of task {1}: changed since it was reviewed", what, t.taskId)
            : vscode.l10n.t("{0} of task {1}: not reviewed", what, t.taskId),
        role: "checkbox",
      },
    };
  }

  /** What ticking or clearing tree checkboxes does (the tree view's checkbox event runs it): sets or clears each node's mark. */
  async setChecked(changes: readonly { node: unknown; checked: boolean }[]): Promise<void> {
    for (const { node, checked } of changes) {
      const t = this.contributor.targetOf(node);
      if (!t?.source || !t.diffHash) continue;
      await this.store.set(t.folder.folder.uri.toString(), t.taskId, t.source, t.diffHash, checked);
    }
  }

  private loaded(folder: AutodevFolder, te: TaskEvidence): void {
    const key = `${folder.folder.uri.toString()}|${te.taskId}`;
    this.diffs.set(
      key,
      [...te.diffs.values()].map((d) => ({ source: d.source, hash: d.hash })),
    );
    // Re-render the row only when what it says changed (its first read, a changed diff).
    if (this.rendered.has(key) && this.rendered.get(key) !== this.note(folder, te.taskId)) {
      this.tree.refresh(taskNodeId(folder, te.taskId));
    }
  }
}
