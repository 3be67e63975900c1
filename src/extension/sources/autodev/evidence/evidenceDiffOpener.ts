/**
 * Opens a task's diff (its `.patch`, developer `diff` or tournament
 * `final_diff`) as real side-by-side diffs: left = before, right = after, one
 * per file. Several files open together in VS Code's multi-file diff editor
 * (`vscode.changes`) when the workbench has it, else the user picks a file.
 * Titles say "(from hunks only)" when the sides could not be rebuilt from the
 * workspace file.
 */
import * as vscode from "vscode";
import type { PatchSource } from "../../../../core/sources/autodev/evidence/evidenceNames";
import { describePaths } from "../../../../core/sources/autodev/evidence/patchModel";
import { ReconstructedFile } from "../../../../core/sources/autodev/evidence/patchReconstruct";
import { AutodevFolder } from "../folder/autodevFolder";
import { EvidenceContentProvider } from "./evidenceContentProvider";
import { DiffSide, evidenceUri } from "./evidenceUris";
import { OutputLog } from "../../../outputLog";

/** What an open call showed: the left/right URIs of each file, and how. */
export interface OpenedDiff {
  readonly mode: "diff" | "changes" | "pick" | "none";
  readonly sides: ReadonlyArray<{ readonly left: vscode.Uri; readonly right: vscode.Uri; readonly title: string }>;
}

const NONE: OpenedDiff = { mode: "none", sides: [] };
/** Most files opened together in the multi-file diff editor (more: pick one). */
const MAX_CHANGES_EDITOR_FILES = 200;
/** Said in titles (and, as a folder name, in multi-file diff rows) when sides come from the hunks alone. */
/** The mark of sides rebuilt from a diff's hunks (not whole files), in tab titles and side paths. */
function hunksOnlyMark(): string {
  return vscode.l10n.t("(from hunks only)");
}

/** Opens evidence diffs. */
export class EvidenceDiffOpener {
  private hasChangesEditor: Promise<boolean> | null = null;

  constructor(
    private readonly content: EvidenceContentProvider,
    private readonly log: OutputLog,
  ) {}

  /** Opens the diff of `source` for `taskId`: every file, or only file `index`. */
  async open(folder: AutodevFolder, taskId: string, source: PatchSource, index?: number): Promise<OpenedDiff> {
    this.content.invalidate(folder);
    const diff = await this.content.rebuilt(folder, taskId, source, true);
    if (!diff) {
      void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: task {0} has no {1} diff.", taskId, source));
      return NONE;
    }
    if (!diff.ok) {
      void vscode.window.showErrorMessage(vscode.l10n.t("AutoDev: cannot show {0}: {1}", diff.label, diff.error));
      return NONE;
    }
    const all = diff.files.map((file, i) => ({ file, i }));
    const chosen = index === undefined ? all : all.filter((x) => x.i === index);
    const showable = chosen.filter((x) => x.file.source !== "none");
    for (const x of chosen.filter((c) => c.file.source === "none")) {
      this.log.warn(`${diff.label}: ${describePaths(x.file.file)}: ${x.file.note}`);
    }
    if (showable.length === 0) {
      const why = chosen[0]?.file.note ?? vscode.l10n.t("no files");
      void vscode.window.showWarningMessage(
        chosen.length === 1
          ? vscode.l10n.t("AutoDev: nothing to compare in {0}: {1}.", diff.label, why)
          : vscode.l10n.t("AutoDev: nothing to compare in {0}.", diff.label),
      );
      return NONE;
    }
    const sides = showable.map(({ file, i }) => this.sidesOf(folder, taskId, source, i, file, diff.label));
    if (sides.length === 1) {
      await this.openOne(sides[0]);
      return { mode: "diff", sides };
    }
    const hunksOnly = showable.filter((x) => x.file.source === "hunks").length;
    // The multi-file diff editor adds " (N files)" to the title itself.
    const title = hunksOnly ? vscode.l10n.t("{0} — {1} from hunks only", diff.label, hunksOnly) : diff.label;
    if (sides.length <= MAX_CHANGES_EDITOR_FILES && (await this.changesEditorAvailable())) {
      const rows = showable.map((_, n) => [sides[n].right, sides[n].left, sides[n].right]);
      await vscode.commands.executeCommand("vscode.changes", title, rows);
      return { mode: "changes", sides };
    }
    const pick = await vscode.window.showQuickPick(
      showable.map(({ file }, n) => ({
        label: describePaths(file.file),
        description: `${file.file.change} +${file.file.added} −${file.file.removed}`,
        detail: file.note,
        n,
      })),
      { title, placeHolder: vscode.l10n.t("Which file's diff?") },
    );
    if (pick) await this.openOne(sides[pick.n]);
    return { mode: "pick", sides: pick ? [sides[pick.n]] : [] };
  }

  private sidesOf(
    folder: AutodevFolder,
    taskId: string,
    source: PatchSource,
    index: number,
    r: ReconstructedFile,
    label: string,
  ) {
    const uri = (side: DiffSide) => {
      const p = side === "before" ? (r.file.oldPath ?? r.file.newPath) : (r.file.newPath ?? r.file.oldPath);
      const marker = r.source === "hunks" ? `${hunksOnlyMark()}/` : "";
      return evidenceUri(
        { view: "side", folder: folder.folder.uri.toString(), task: taskId, source, index, side },
        `${marker}${p ?? "file"}`,
      );
    };
    return { left: uri("before"), right: uri("after"), title: diffTitle(r, label) };
  }

  private async openOne(s: { left: vscode.Uri; right: vscode.Uri; title: string }): Promise<void> {
    await vscode.commands.executeCommand("vscode.diff", s.left, s.right, s.title, { preview: true });
  }

  /** True when the workbench has the multi-file diff editor command. */
  changesEditorAvailable(): Promise<boolean> {
    this.hasChangesEditor ??= Promise.resolve(vscode.commands.getCommands(false)).then(
      (ids) => ids.includes("vscode.changes"),
      () => false,
    );
    return this.hasChangesEditor;
  }
}

/** " (added)", " (deleted)", " (renamed)" … for titles ("" for a modified file). */
function fileModeNote(r: ReconstructedFile): string {
  const c = r.file.change;
  return c === "modified" ? "" : c === "mode" ? ` ${vscode.l10n.t("(mode change only)")}` : ` (${c})`;
}

/** The diff editor title: "src/calc.py ↔ 1.1.patch", with "(from hunks only)" when the sides are not whole files. */
function diffTitle(r: ReconstructedFile, label: string): string {
  const what = `${describePaths(r.file)}${fileModeNote(r)}`;
  return r.source === "hunks" ? vscode.l10n.t("{0} — {1} (from hunks only)", what, label) : `${what} — ${label}`;
}
