/**
 * A model of unified diffs as `git diff` writes them, built on the `diff`
 * package's parser: per file, its old and new path, what kind of change it
 * is (added, deleted, renamed, copied, modified, mode only), line counts and
 * the hunks. Git's own header lines (`new file mode`, `rename from`, quoted
 * and octal-escaped names) are read here because `diff` does not know them.
 * A malformed file section becomes a file with an `error`, never a throw.
 */
import { parsePatch, StructuredPatch } from "diff";
import { pushAll } from "../../sourceProblems";
import { errorText } from "../../../text/errorText";

/** How a file changed. */
type PatchChange = "added" | "deleted" | "renamed" | "copied" | "modified" | "mode";

/** One file of a patch. */
export interface PatchFile {
  /** Path before (without `a/`), null for an added file. */
  readonly oldPath: string | null;
  /** Path after (without `b/`), null for a deleted file. */
  readonly newPath: string | null;
  readonly change: PatchChange;
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
  /** Why this section could not be parsed (then `patch` has no hunks). */
  readonly error?: string;
}

/** The path a file is known by: the new path, or the old one for a deletion. */
function displayPath(f: PatchFile): string {
  return f.newPath ?? f.oldPath ?? "(unnamed)";
}

/** `old → new` for renames and copies, else the path. */
export function describePaths(f: PatchFile): string {
  return f.oldPath && f.newPath && f.oldPath !== f.newPath ? `${f.oldPath} → ${f.newPath}` : displayPath(f);
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * Reads a git C-quoted name (`"t\303\251st.py"`) starting at `s[0] === '"'`.
 * Returns the decoded name and the rest of `s` after the closing quote.
 */
function readQuotedGitName(s: string): { name: string; rest: string } | null {
  if (!s.startsWith('"')) return null;
  const bytes: number[] = [];
  for (let i = 1; i < s.length; i++) {
    const c = s[i];
    if (c === '"') return { name: new TextDecoder("utf-8").decode(Uint8Array.from(bytes)), rest: s.slice(i + 1) };
    if (c !== "\\") {
      pushAll(bytes, Buffer.from(c, "utf8"));
      continue;
    }
    const n = s[++i];
    if (n !== undefined && /[0-7]/.test(n)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i))![0];
      bytes.push(parseInt(oct, 8) & 0xff);
      i += oct.length - 1;
    } else if (n !== undefined && n in C_ESCAPES) bytes.push(C_ESCAPES[n]);
    else return null;
  }
  return null;
}

/** Unquotes a git path when quoted (else returns it unchanged, minus a trailing tab and what follows it). */
function unquoteGitPath(raw: string): string {
  const q = readQuotedGitName(raw);
  if (q) return q.name;
  const tab = raw.indexOf("\t");
  return tab >= 0 ? raw.slice(0, tab) : raw;
}

function strip(prefix: "a/" | "b/", name: string): string {
  return name.startsWith(prefix) ? name.slice(2) : name;
}

/** The two names of a `diff --git a/X b/Y` line (quoted names and names with spaces included). */
function parseGitHeaderNames(line: string): { a: string; b: string } | null {
  if (!line.startsWith("diff --git ")) return null;
  const rest = line.slice("diff --git ".length);
  let a: string;
  let tail: string;
  if (rest.startsWith('"')) {
    const q = readQuotedGitName(rest);
    if (!q) return null;
    a = q.name;
    tail = q.rest.replace(/^ /, "");
  } else {
    const quotedB = rest.indexOf(' "b/');
    if (quotedB >= 0) {
      a = rest.slice(0, quotedB);
      tail = rest.slice(quotedB + 1);
    } else {
      // Same name on both sides: "a/P b/P" has an unambiguous middle.
      const p = (rest.length - 5) / 2;
      if (Number.isInteger(p) && p > 0 && rest.startsWith("a/") && rest.slice(2 + p) === ` b/${rest.slice(2, 2 + p)}`) {
        return { a: rest.slice(2, 2 + p), b: rest.slice(2, 2 + p) };
      }
      const sep = rest.indexOf(" b/");
      if (sep < 0) return null;
      a = rest.slice(0, sep);
      tail = rest.slice(sep + 1);
    }
  }
  const b = tail.startsWith('"') ? readQuotedGitName(tail)?.name : tail;
  if (b === undefined) return null;
  return { a: strip("a/", a), b: strip("b/", b) };
}

/** Splits a multi-file git diff into one section per `diff --git` header (or per `---` header when there is none). */
function splitPatchSections(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  const sections: string[] = [];
  let cur: string[] = [];
  const gitStyle = lines.some((l) => l.startsWith("diff --git "));
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    const starts = gitStyle
      ? l.startsWith("diff --git ")
      : l.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ") && !inHunk(cur);
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

/** The extended header of a section: its lines before the first `---`/`+++`/`@@` line, without line ends. */
function headerLines(section: string): string[] {
  const out: string[] = [];
  for (const raw of section.split("\n")) {
    const l = raw.replace(/\r$/, "");
    if (/^(---|\+\+\+) /.test(l) || l.startsWith("@@")) break;
    out.push(l);
  }
  return out;
}

/** The path on a `--- `/`+++ ` line of the section, `null` for /dev/null, undefined when absent. */
function fileLineName(section: string, marker: "--- " | "+++ "): string | null | undefined {
  const lines = section.split("\n");
  const firstHunk = lines.findIndex((l) => l.startsWith("@@"));
  const line = lines.slice(0, firstHunk < 0 ? undefined : firstHunk).find((l) => l.startsWith(marker));
  if (line === undefined) return undefined;
  const name = unquoteGitPath(line.slice(4).replace(/\r$/, ""));
  return name === "/dev/null" ? null : strip(marker === "--- " ? "a/" : "b/", name);
}

const EMPTY_PATCH: StructuredPatch = { oldFileName: "", newFileName: "", oldHeader: "", newHeader: "", hunks: [] };

/** Parses one `diff --git` (or `---`) section. */
function parseSection(section: string): ParsedPatchFile {
  const header = headerLines(section);
  const value = (p: string) => {
    const l = header.find((x) => x.startsWith(p));
    return l === undefined ? undefined : unquoteGitPath(l.slice(p.length));
  };
  const git = parseGitHeaderNames(header[0] ?? "");
  const renameFrom = value("rename from ") ?? value("copy from ");
  const renameTo = value("rename to ") ?? value("copy to ");
  const copied = header.some((l) => l.startsWith("copy from "));
  const isNew = header.some((l) => l.startsWith("new file mode"));
  const isDeleted = header.some((l) => l.startsWith("deleted file mode"));
  const binary = header.some((l) => /^Binary files .* differ$/.test(l) || l === "GIT binary patch");
  let patch = EMPTY_PATCH;
  let error: string | undefined;
  try {
    patch = parsePatch(section)[0] ?? EMPTY_PATCH;
  } catch (e) {
    const msg = errorText(e);
    error = `malformed hunk: ${/invalid line $/.test(msg) ? `${msg.replace(/ contained invalid line $/, "")} ends before its @@ line counts are used up` : msg}`;
  }
  const oldLine = fileLineName(section, "--- ");
  const newLine = fileLineName(section, "+++ ");
  const oldPath = isNew ? null : (oldLine ?? renameFrom ?? git?.a ?? null);
  const newPath = isDeleted ? null : (newLine ?? renameTo ?? git?.b ?? null);
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
  if (!error && !git && patch.hunks.length === 0 && !binary) {
    error = "not a unified diff: no file headers or hunks found";
  }
  if (!error && oldPath === null && newPath === null) error = "no file name in this section";
  const change: PatchChange = isNew
    ? "added"
    : isDeleted
      ? "deleted"
      : copied
        ? "copied"
        : renameFrom || (oldPath && newPath && oldPath !== newPath)
          ? "renamed"
          : patch.hunks.length || binary
            ? "modified"
            : "mode";
  return {
    oldPath,
    newPath,
    change,
    added,
    removed,
    noNewlineAtEnd,
    binary,
    patch,
    text: section,
    ...(error ? { error } : {}),
  };
}

/**
 * Parses a patch into files with hunks. A section that does not parse is kept
 * with its `error`; text with no diff in it at all throws a clear error.
 */
export function parsePatchFiles(text: string): ParsedPatchFile[] {
  const files = splitPatchSections(text).map(parseSection);
  if (files.length === 0 || files.every((f) => f.error?.startsWith("not a unified diff"))) {
    throw new Error("not a unified diff: no file headers or hunks found");
  }
  return files;
}

/** {@link parsePatchFiles} that returns the reason instead of throwing. */
export function tryParsePatch(text: string): { ok: true; files: ParsedPatchFile[] } | { ok: false; error: string } {
  try {
    return { ok: true, files: parsePatchFiles(text) };
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
}

/** Per-file summary of a patch (no hunks). */
export function summarizePatch(text: string): PatchFile[] {
  return parsePatchFiles(text).map(({ patch: _hunks, text: _text, error: _error, ...summary }) => summary);
}

/** "4 files, +22 −7" for a whole patch. */
export function patchStats(files: readonly PatchFile[]): string {
  const add = files.reduce((n, f) => n + f.added, 0);
  const del = files.reduce((n, f) => n + f.removed, 0);
  return `${files.length} file${files.length === 1 ? "" : "s"}, +${add} −${del}`;
}
