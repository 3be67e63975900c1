/**
 * Rebuilds the before and after text of every file of a patch, for side-by-side
 * diffs. The workspace holds the after-state, so the preferred way is to
 * reverse-apply the file's hunks to the current workspace file with the `diff`
 * package (`reversePatch` + `applyPatch`) and check that re-applying them gives
 * the file back. When that fails (the file changed since, or is missing), both
 * sides come from the hunks alone: complete for added and deleted files,
 * partial (only the changed regions, each under its `@@` line) otherwise.
 * Line endings are kept as they are: CRLF files stay CRLF.
 */
import { applyPatch, reversePatch, StructuredPatchHunk } from "diff";
import { ParsedPatchFile } from "./patchModel";
import { pushAll } from "../../sourceProblems";

/** What the workspace has at a path. */
export type WorkspaceText =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "missing" }
  | { readonly kind: "unreadable"; readonly reason: string };

/** Where the two sides came from. */
type SidesSource = "workspace" | "hunks" | "none";

/** The two sides of one file of a patch. */
export interface ReconstructedFile {
  readonly file: ParsedPatchFile;
  /** Text before the change ("" for an added file). */
  readonly before: string;
  /** Text after the change ("" for a deleted file). */
  readonly after: string;
  /** "workspace": agrees with the workspace file; "hunks": from the patch alone; "none": nothing to show (binary, unparsable). */
  readonly source: SidesSource;
  /** True when both sides are whole files (false: only the hunks' regions). */
  readonly complete: boolean;
  /** One sentence on how the sides were obtained. */
  readonly note: string;
}

interface SideLine {
  readonly text: string;
  eol: boolean;
}

/** The old and new lines of one hunk, with "\ No newline at end of file" applied. */
function hunkSides(h: StructuredPatchHunk): { old: SideLine[]; new: SideLine[] } {
  const oldL: SideLine[] = [];
  const newL: SideLine[] = [];
  let last: "old" | "new" | "both" | null = null;
  for (const l of h.lines) {
    const op = l.length === 0 ? " " : l[0];
    const text = l.slice(1);
    if (op === "\\") {
      if (last === "old" || last === "both") oldL[oldL.length - 1].eol = false;
      if (last === "new" || last === "both") newL[newL.length - 1].eol = false;
      continue;
    }
    if (op === "-" || op === " ") oldL.push({ text, eol: true });
    if (op === "+" || op === " ") newL.push({ text, eol: true });
    last = op === "-" ? "old" : op === "+" ? "new" : "both";
  }
  return { old: oldL, new: newL };
}

function join(lines: readonly SideLine[]): string {
  return lines.map((l) => l.text + (l.eol ? "\n" : "")).join("");
}

/** True when most lines of the file's hunks end in CR (a CRLF file). */
function usesCrlf(file: ParsedPatchFile): boolean {
  let cr = 0;
  let all = 0;
  for (const h of file.patch.hunks) {
    for (const l of h.lines) {
      if (l.startsWith("\\")) continue;
      all++;
      if (l.endsWith("\r")) cr++;
    }
  }
  return all > 0 && cr * 2 > all;
}

/** The `@@ -a,b +c,d @@` line of a hunk, as git writes it. */
function hunkHeader(h: StructuredPatchHunk): string {
  const range = (start: number, count: number) =>
    count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
  return `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@`;
}

/**
 * Both sides from the hunks alone. For an added or deleted file (one hunk from
 * line 0) that is the whole file; otherwise each hunk's region, preceded on both
 * sides by its `@@` line so the regions line up and say where they are.
 */
export function sidesFromHunks(file: ParsedPatchFile): { before: string; after: string; complete: boolean } {
  const hunks = file.patch.hunks;
  const whole = file.change === "added" || file.change === "deleted";
  if (whole) {
    const old: SideLine[] = [];
    const nw: SideLine[] = [];
    for (const h of hunks) {
      const s = hunkSides(h);
      pushAll(old, s.old);
      pushAll(nw, s.new);
    }
    return { before: join(old), after: join(nw), complete: true };
  }
  const eol = usesCrlf(file) ? "\r\n" : "\n";
  let before = "";
  let after = "";
  for (const h of hunks) {
    const s = hunkSides(h);
    const head = hunkHeader(h) + eol;
    before += head + join(s.old);
    after += head + join(s.new);
    // A region that ends without a newline (end of file) still needs one before the next @@ line.
    if (!before.endsWith("\n")) before += eol;
    if (!after.endsWith("\n")) after += eol;
  }
  return { before, after, complete: false };
}

/** Reverse-applies the file's hunks to `current`; the before text when that works both ways, else null. */
export function reverseApply(file: ParsedPatchFile, current: string): string | null {
  if (file.patch.hunks.length === 0) return current;
  let before: string | false;
  try {
    before = applyPatch(current, reversePatch(file.patch));
    if (before === false) return null;
    return applyPatch(before, file.patch) === current ? before : null;
  } catch {
    return null;
  }
}

function fromHunks(file: ParsedPatchFile, why: string): ReconstructedFile {
  const s = sidesFromHunks(file);
  const what = s.complete
    ? "both sides are from the patch's hunks (the whole file)"
    : "only the changed regions are shown, from the patch's hunks";
  return { file, before: s.before, after: s.after, source: "hunks", complete: s.complete, note: `${why}; ${what}` };
}

function describeMissing(current: WorkspaceText): string {
  return current.kind === "missing"
    ? "the file is not in the workspace"
    : current.kind === "unreadable"
      ? `the workspace file was not read (${current.reason})`
      : "";
}

/** A file whose sides cannot be known: both empty, from nowhere, `note` saying why. */
function unknownSides(file: ParsedPatchFile, note: string): ReconstructedFile {
  return { file, before: "", after: "", source: "none", complete: false, note };
}

/**
 * Before/after of one file of a patch given what the workspace has at the
 * file's path (its new path; its old path for a deletion).
 */
export function reconstructFile(file: ParsedPatchFile, current: WorkspaceText): ReconstructedFile {
  if (file.error) return unknownSides(file, file.error);
  if (file.binary) return unknownSides(file, "binary file: the patch does not carry its contents");
  if (file.change === "added") {
    const s = sidesFromHunks(file);
    if (current.kind === "text" && current.text === s.after) {
      return {
        file,
        before: "",
        after: current.text,
        source: "workspace",
        complete: true,
        note: "added file; the workspace file matches the patch",
      };
    }
    return fromHunks(
      file,
      current.kind === "text" ? "the workspace file has changed since it was added" : describeMissing(current),
    );
  }
  if (file.change === "deleted") {
    const s = sidesFromHunks(file);
    if (current.kind === "missing") {
      return {
        file,
        before: s.before,
        after: "",
        source: "workspace",
        complete: true,
        note: "deleted file; it is gone from the workspace, as the patch says",
      };
    }
    return fromHunks(file, current.kind === "text" ? "the workspace has this file again" : describeMissing(current));
  }
  if (current.kind !== "text") {
    if (file.patch.hunks.length === 0) {
      return unknownSides(file, `${describeMissing(current)}, and the patch has no lines of it`);
    }
    return fromHunks(file, describeMissing(current));
  }
  const before = reverseApply(file, current.text);
  if (before === null) {
    return fromHunks(file, "the patch does not reverse-apply to the workspace file (it changed since)");
  }
  const how =
    file.patch.hunks.length === 0
      ? "no content change; both sides are the workspace file"
      : "reverse-applied to the workspace file";
  return { file, before, after: current.text, source: "workspace", complete: true, note: how };
}

/** The workspace path whose content the reconstruction of `file` needs. */
function workspacePathOf(file: ParsedPatchFile): string | null {
  return file.change === "deleted" ? file.oldPath : file.newPath;
}

/**
 * Reconstructs every file of a parsed patch, reading workspace files through
 * `read` (which must refuse paths outside the workspace).
 */
export async function reconstructPatch(
  files: readonly ParsedPatchFile[],
  read: (relPath: string) => Promise<WorkspaceText>,
): Promise<ReconstructedFile[]> {
  const out: ReconstructedFile[] = [];
  for (const file of files) {
    const rel = workspacePathOf(file);
    const current: WorkspaceText =
      file.error || file.binary ? { kind: "missing" } : rel === null ? { kind: "missing" } : await read(rel);
    out.push(reconstructFile(file, current));
  }
  return out;
}
