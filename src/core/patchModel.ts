/**
 * A model of unified diffs as `git diff` writes them, built on the `diff`
 * package's parser: per file, its old and new path, what kind of change it
 * is (added, deleted, renamed, modified), line counts and the hunks.
 */
import { parsePatch, StructuredPatch } from "diff";

/** One file of a patch. */
export interface PatchFile {
  /** Path before (without `a/`), null for an added file. */
  readonly oldPath: string | null;
  /** Path after (without `b/`), null for a deleted file. */
  readonly newPath: string | null;
  readonly change: "added" | "deleted" | "renamed" | "modified" | "mode";
  readonly added: number;
  readonly removed: number;
  /** True when a side lacks a final newline ("\ No newline at end of file"). */
  readonly noNewlineAtEnd: boolean;
  /** True for a binary change (no hunks to show). */
  readonly binary: boolean;
}

/** A file of a patch with its parsed hunks. */
export interface ParsedPatchFile extends PatchFile {
  readonly patch: StructuredPatch;
  /** The raw text of this file's section of the patch. */
  readonly text: string;
}

function stripPrefix(name: string | undefined): string | null {
  if (name === undefined || name === "/dev/null") return null;
  const unq = name.startsWith('"') && name.endsWith('"') ? JSON.parse(name) as string : name;
  return unq.replace(/^[ab]\//, "");
}

/** Splits a multi-file git diff into one section per `diff --git` header (or per `---` header when there is none). */
export function splitPatchSections(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  const sections: string[] = [];
  let cur: string[] = [];
  const gitStyle = lines.some((l) => l.startsWith("diff --git "));
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const starts = gitStyle ? l.startsWith("diff --git ") : l.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ") && !inHunk(cur);
    if (starts && cur.length) {
      sections.push(cur.join(""));
      cur = [];
    }
    cur.push(l);
  }
  if (cur.join("").trim()) sections.push(cur.join(""));
  return sections;
}

function inHunk(cur: string[]): boolean {
  // A "--- " line inside a hunk is a removed line starting with "-- "; hunks are open until their counts are used up.
  let remainingOld = 0;
  let remainingNew = 0;
  for (const l of cur) {
    const m = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(l);
    if (m) {
      remainingOld = m[1] === undefined ? 1 : Number(m[1]);
      remainingNew = m[2] === undefined ? 1 : Number(m[2]);
    } else if (remainingOld > 0 || remainingNew > 0) {
      if (l.startsWith("-")) remainingOld--;
      else if (l.startsWith("+")) remainingNew--;
      else if (l.startsWith(" ")) {
        remainingOld--;
        remainingNew--;
      }
    }
  }
  return remainingOld > 0 || remainingNew > 0;
}

/** Parses a patch into files with hunks. Throws a clear error for text that is not a patch. */
export function parsePatchFiles(text: string): ParsedPatchFile[] {
  const out: ParsedPatchFile[] = [];
  for (const section of splitPatchSections(text)) {
    const header = section.split("\n", 12);
    const git = /^diff --git (?:"?a\/(.+?)"?) (?:"?b\/(.+?)"?)$/.exec(header[0] ?? "");
    const renameFrom = header.find((l) => l.startsWith("rename from "))?.slice("rename from ".length);
    const renameTo = header.find((l) => l.startsWith("rename to "))?.slice("rename to ".length);
    const isNew = header.some((l) => l.startsWith("new file mode"));
    const isDeleted = header.some((l) => l.startsWith("deleted file mode"));
    const binary = /^Binary files .* differ$/m.test(section) || /^GIT binary patch$/m.test(section);
    const parsed = parsePatch(section);
    const patch: StructuredPatch = parsed[0] ?? { oldFileName: "", newFileName: "", oldHeader: "", newHeader: "", hunks: [] };
    let oldPath = stripPrefix(patch.oldFileName || undefined) ?? (isNew ? null : renameFrom ?? git?.[1] ?? null);
    let newPath = stripPrefix(patch.newFileName || undefined) ?? (isDeleted ? null : renameTo ?? git?.[2] ?? null);
    if (isNew) oldPath = null;
    if (isDeleted) newPath = null;
    let added = 0;
    let removed = 0;
    let noNewlineAtEnd = false;
    for (const h of patch.hunks) {
      for (const l of h.lines) {
        if (l.startsWith("+")) added++;
        else if (l.startsWith("-")) removed++;
        else if (l.startsWith("\\")) noNewlineAtEnd = true;
      }
    }
    if (!git && patch.hunks.length === 0 && !binary) throw new Error("not a unified diff: no file headers or hunks found");
    const change = isNew ? "added" : isDeleted ? "deleted" : renameFrom || (oldPath && newPath && oldPath !== newPath) ? "renamed" : patch.hunks.length || binary ? "modified" : "mode";
    out.push({ oldPath, newPath, change, added, removed, noNewlineAtEnd, binary, patch, text: section });
  }
  return out;
}

/** Per-file summary of a patch (no hunks). */
export function summarizePatch(text: string): PatchFile[] {
  return parsePatchFiles(text).map(({ oldPath, newPath, change, added, removed, noNewlineAtEnd, binary }) => ({ oldPath, newPath, change, added, removed, noNewlineAtEnd, binary }));
}
