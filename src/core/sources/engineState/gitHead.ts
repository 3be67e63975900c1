/**
 * The commit HEAD names in a workspace folder's git repository, read from the files
 * themselves (no `git` process per refresh): `.git` as a folder or as a `gitdir:` file
 * (worktrees, submodules), `commondir`, `HEAD` (symbolic or detached), the loose ref, then
 * `packed-refs`. Every file is opened only when it is a regular file, with a size cap.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readFileLines } from "../../fs/lineReader";
import { openGuarded, readGuarded } from "../../fs/guardedOpen";
import { readGuardedSync } from "../../fs/safeReadSync";

/** Where the files that decide HEAD live (absolute paths). */
export interface GitFiles {
  /** The repository's own git folder (`.git`, or `…/.git/worktrees/NAME`). */
  readonly gitDir: string;
  /** The folder shared by all worktrees (refs, packed-refs); `gitDir` outside worktrees. */
  readonly commonDir: string;
}

/** HEAD as read from disk. */
export interface GitHead {
  /** The full commit id, lowercase hex, or null when it cannot be known (see `reason`). */
  readonly sha: string | null;
  /** The ref HEAD points to (`refs/heads/main`), or null when detached or unknown. */
  readonly ref: string | null;
  /** The files read, for watching; null when the folder is not a git repository. */
  readonly files: GitFiles | null;
  /** Why `sha` is null. */
  readonly reason?: string;
}

const SMALL = 4096;
const SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Refs kept per worktree rather than in the common folder. */
const PER_WORKTREE = /^refs\/(?:worktree|bisect|rewritten)\//;

/** True when `ref` is a ref name that stays inside the git folder (no `..`, no empty segments). */
function isSafeRef(ref: string): boolean {
  if (!ref.startsWith("refs/") || ref.length > 1024) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\:?*[]/.test(ref)) return false;
  return ref.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/** Reads `<dir>/.git` (folder or `gitdir:` file) and `commondir` synchronously; null when not a repository. */
export function locateGitFiles(workspace: string): GitFiles | null {
  const dotGit = path.join(workspace, ".git");
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dotGit);
  } catch {
    return null;
  }
  let gitDir: string;
  if (stat.isDirectory()) gitDir = dotGit;
  else if (stat.isFile()) {
    const match = /^gitdir: (.+?)\r?\n?$/.exec(readSmallSync(dotGit, workspace) ?? "");
    if (match === null) return null;
    gitDir = path.resolve(workspace, match[1]);
  } else return null;
  const common = readSmallSync(path.join(gitDir, "commondir"), gitDir)?.trim();
  return { gitDir, commonDir: common ? path.resolve(gitDir, common) : gitDir };
}

/** A small regular file (at most {@link SMALL} bytes, links followed only inside `root`) as UTF-8; null when it is anything else. */
function readSmallSync(file: string, root: string): string | null {
  const read = readGuardedSync(file, { root, maxBytes: SMALL, notDirIsMissing: true });
  return read.kind === "read" ? read.bytes.toString("utf8") : null;
}

/** The ref HEAD points to, read synchronously (for watch globs); null when detached or unreadable. */
export function headRefSync(files: GitFiles): string | null {
  const match = /^ref: (\S+)\s*$/.exec(readSmallSync(path.join(files.gitDir, "HEAD"), files.gitDir) ?? "");
  return match !== null && isSafeRef(match[1]) ? match[1] : null;
}

/** The file a loose ref lives in. */
export function refFile(files: GitFiles, ref: string): string {
  return path.join(PER_WORKTREE.test(ref) ? files.gitDir : files.commonDir, ...ref.split("/"));
}

/** Reads HEAD of the repository at `workspace` (its `.git` only; parents are not searched). */
export async function readGitHead(workspace: string): Promise<GitHead> {
  const files = locateGitFiles(workspace);
  if (files === null) {
    return { sha: null, ref: null, files: null, reason: "the workspace folder is not a git repository" };
  }
  let content = await readText(path.join(files.gitDir, "HEAD"));
  if (content === null) return { sha: null, ref: null, files, reason: "HEAD cannot be read" };
  let ref: string | null = null;
  for (let hops = 0; hops < 5; hops++) {
    const symbolic = /^ref: (\S+)\s*$/.exec(content);
    if (symbolic === null) break;
    if (!isSafeRef(symbolic[1])) return { sha: null, ref: null, files, reason: "HEAD names an unusable ref" };
    ref ??= symbolic[1];
    const loose = await readText(refFile(files, symbolic[1]));
    const packed = loose === null ? await packedRef(files, symbolic[1]) : null;
    if (typeof packed === "object" && packed !== null) return { sha: null, ref, files, reason: packed.refused };
    content = loose ?? packed ?? "";
    if (content === "") {
      const reftable = fs.existsSync(path.join(files.commonDir, "reftable"));
      const reason = reftable ? "the repository stores refs in a reftable" : `${symbolic[1]} has no commit yet`;
      return { sha: null, ref, files, reason };
    }
  }
  const sha = content.trim().toLowerCase();
  if (!SHA.test(sha)) return { sha: null, ref, files, reason: "HEAD does not resolve to a commit id" };
  return { sha, ref, files };
}

async function readText(file: string): Promise<string | null> {
  const read = await readGuarded(file, { root: null, maxBytes: SMALL, notDirIsMissing: true });
  return read.kind === "read" ? read.bytes.toString("utf8") : null;
}

/** Largest packed-refs read (a repository with 100,000 refs has about 10 MB); a bigger one is not read. */
const MAX_PACKED_REFS = 64 * 1024 * 1024;

/** The commit id `ref` has in `packed-refs` (streamed, stopping at the ref; within the cap), or null. */
async function packedRef(files: GitFiles, ref: string): Promise<string | null | { refused: string }> {
  const opened = await openGuarded(path.join(files.commonDir, "packed-refs"), {
    root: null,
    notDirIsMissing: true,
    maxBytes: MAX_PACKED_REFS,
  });
  if (opened.kind === "refused") {
    return {
      refused:
        opened.refusal.why === "too large"
          ? `packed-refs is ${opened.refusal.size} bytes, over the ${MAX_PACKED_REFS}-byte limit; it was not read`
          : "packed-refs cannot be read",
    };
  }
  if (opened.kind !== "open") return null;
  let found: string | null = null;
  try {
    await readFileLines(
      opened.handle,
      (line) => {
        if (line.text === null) return;
        const space = line.text.indexOf(" ");
        if (space > 0 && line.text.slice(space + 1) === ref) {
          found = line.text.slice(0, space);
          return false; // found: the rest is not read
        }
      },
      4096,
    );
  } finally {
    await opened.handle.close();
  }
  return found;
}
