/**
 * The checks every read of a state file goes through (a cloned repository can
 * carry any `.autodev/`, `.agloop/` or `engine_state/`): check first, open second.
 *
 * 1. `lstat` the path; ENOENT means "missing";
 * 2. with `links: "inside"`, resolve links (`realpath`) and require the result
 *    inside `root`; with `links: "refuse"`, `lstat` every component below
 *    `root` instead: no link anywhere, folders above, the wanted kind last;
 * 3. only a regular file (or, for folders, a directory) passes: never a FIFO,
 *    socket or device (a FIFO would block a thread forever);
 * 4. open with `O_NOFOLLOW | O_NONBLOCK` (a file swapped for a FIFO between the
 *    checks cannot block the open), then `fstat`: still a regular file, not
 *    over the size cap;
 * 5. ask where the descriptor really is (openedPath.ts): on Linux its real
 *    path from `/proc/self/fd/N` must lie inside the root (exactly the path
 *    walked, with `links: "refuse"`), elsewhere a fresh walk must find the same
 *    device and inode. A folder above swapped for a link while the file was
 *    opened never hands out the outside file. A file replaced by rename while it
 *    was opened (every write of AutoDev and the agloop hooks) is no error: on
 *    Linux the descriptor holds a whole version of it; elsewhere the open is
 *    tried again, up to {@link OPEN_ATTEMPTS} times;
 * 6. read at most the cap plus one byte (a file growing past it is refused).
 *
 * Nothing here throws for a hostile file: each way a file can be refused is a
 * {@link FileRefusal}, and each caller words it (safeRead.ts throws
 * `UnsafeFileError`; the state sources turn it into a Problem).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isInside, relativeInside } from "./pathInside";

/** What a path turned out to be, in words for messages. */
export type FoundKind =
  | "regular file"
  | "directory"
  | "FIFO (named pipe)"
  | "socket"
  | "character device"
  | "block device"
  | "symbolic link"
  | "special file";

/** Why a file or folder was not read; `at` is the path component concerned (workspace-relative) in `links: "refuse"` mode. */
export type FileRefusal =
  /** An errno other than ENOENT while checking (`lstat`), opening or reading. */
  | {
      readonly why: "unreadable";
      readonly step: "check" | "open" | "read";
      readonly code: string;
      readonly at?: string;
    }
  /** `realpath` (or the `lstat` of its result) failed: a dangling link, a loop. */
  | { readonly why: "broken link"; readonly code: string }
  /** The root itself cannot be resolved. */
  | { readonly why: "root unresolved"; readonly code: string }
  /** The path resolves outside the root. */
  | { readonly why: "outside"; readonly real: string; readonly realRoot: string }
  /** A `..` or `.` component in a path checked with `links: "refuse"`. */
  | { readonly why: "escapes" }
  /** Something other than the wanted kind (`at` is set for a component above the last). */
  | {
      readonly why: "wrong kind";
      readonly found: FoundKind;
      readonly expected: "file" | "folder";
      readonly at?: string;
    }
  /** The opened handle is not the file checked (`found` null: a regular file, but another inode every time it was tried). */
  | { readonly why: "changed"; readonly found: FoundKind | null }
  /** The opened descriptor was found at `real`, not where the path leads (a folder above it swapped for a link while it was opened). */
  | { readonly why: "swapped"; readonly real: string; readonly inside: boolean }
  | { readonly why: "too large"; readonly size: number; readonly maxBytes: number }
  | { readonly why: "grew"; readonly maxBytes: number };

/** Where and how a file may be read. */
export interface FileGuardOptions {
  /** The folder the file must lie in (the workspace); null: anywhere (a file under the home folder, a git folder). */
  readonly root: string | null;
  /** Largest size accepted, in bytes (default: no cap). */
  readonly maxBytes?: number;
  /** "inside" (default): links are followed when they resolve inside `root`; "refuse": no component below `root` may be a link. */
  readonly links?: "inside" | "refuse";
  /** True: ENOTDIR from `lstat` (a file where a folder belongs above it) counts as missing, not refused. */
  readonly notDirIsMissing?: boolean;
}

/** The outcome of a check: missing, refused (and why), or the resolved path and its `lstat`. */
export type GuardedPath =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly refusal: FileRefusal }
  | { readonly kind: "ok"; readonly real: string; readonly stat: fs.Stats };

/** An open handle that passed every check; the caller closes it. */
export type GuardedHandle =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly refusal: FileRefusal }
  | { readonly kind: "open"; readonly handle: fs.promises.FileHandle; readonly size: number };

/** A whole file that passed every check. */
export type GuardedBytes =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly refusal: FileRefusal }
  | { readonly kind: "read"; readonly bytes: Buffer };

/** Never open through a final link (0 where the platform has no such flag). */
export const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;
/** Never block on the open (a FIFO) (0 where the platform has no such flag). */
export const NO_BLOCK = fs.constants.O_NONBLOCK ?? 0;
/** Flags of every open: read only, never through a final link, never blocking (a FIFO). */
export const GUARDED_OPEN_FLAGS = fs.constants.O_RDONLY | NO_FOLLOW | NO_BLOCK;
/** Flags of a file made new: created, never one that exists, write only, never through a final link. */
export const CREATE_NEW_FLAGS = fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | NO_FOLLOW;

/** Describes a stat result in words. */
export function describeKind(st: fs.Stats): FoundKind {
  if (st.isFile()) return "regular file";
  if (st.isDirectory()) return "directory";
  if (st.isFIFO()) return "FIFO (named pipe)";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice()) return "character device";
  if (st.isBlockDevice()) return "block device";
  if (st.isSymbolicLink()) return "symbolic link";
  return "special file";
}

/** True when `real` equals `realRoot` or lies under it. */

/** The errno code of a failed fs call (its message when it has none). */
export function errnoCode(e: unknown): string {
  return (e as NodeJS.ErrnoException)?.code ?? String(e);
}

const refused = (refusal: FileRefusal): { kind: "refused"; refusal: FileRefusal } => ({ kind: "refused", refusal });

function isMissing(code: string, opts: FileGuardOptions): boolean {
  return code === "ENOENT" || (code === "ENOTDIR" && opts.notDirIsMissing === true);
}

/** `links: "refuse"`: lstat's each component of `file` below the root; folders above, `want` last. */
async function walkWithoutLinks(
  file: string,
  root: string,
  want: "file" | "folder",
  opts: FileGuardOptions,
): Promise<GuardedPath> {
  const rel = relativeInside(root, file);
  if (rel === null || rel === "") return refused({ why: "escapes" });
  const parts = rel.split(path.sep);
  let abs = root;
  for (let i = 0; i < parts.length; i++) {
    abs = path.join(abs, parts[i]);
    const at = parts.slice(0, i + 1).join("/");
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(abs);
    } catch (e) {
      if (isMissing(errnoCode(e), opts)) return { kind: "missing" };
      return refused({ why: "unreadable", step: "check", code: errnoCode(e), at });
    }
    const last = i === parts.length - 1;
    const expected = last ? want : "folder";
    if (expected === "file" ? !st.isFile() : !st.isDirectory()) {
      return refused({ why: "wrong kind", found: describeKind(st), expected, ...(last ? {} : { at }) });
    }
    if (last) return { kind: "ok", real: abs, stat: st };
  }
  return { kind: "missing" };
}

/**
 * Checks `file` without opening it: missing, refused, or its resolved path and
 * `lstat` (a `want` inside the root, within the size cap for files).
 */
export async function guardPath(
  file: string,
  opts: FileGuardOptions,
  want: "file" | "folder" = "file",
): Promise<GuardedPath> {
  if (opts.links === "refuse" && opts.root !== null) {
    const walked = await walkWithoutLinks(file, opts.root, want, opts);
    if (walked.kind !== "ok" || want === "folder") return walked;
    return opts.maxBytes !== undefined && walked.stat.size > opts.maxBytes
      ? refused({ why: "too large", size: walked.stat.size, maxBytes: opts.maxBytes })
      : walked;
  }
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(file);
  } catch (e) {
    return isMissing(errnoCode(e), opts)
      ? { kind: "missing" }
      : refused({ why: "unreadable", step: "check", code: errnoCode(e) });
  }
  let real: string;
  try {
    real = await fs.promises.realpath(file); // resolves links in the file and in every folder above it
    if (real !== file) st = await fs.promises.lstat(real);
  } catch (e) {
    return refused({ why: "broken link", code: errnoCode(e) });
  }
  if (opts.root !== null) {
    let realRoot: string;
    try {
      realRoot = await fs.promises.realpath(opts.root);
    } catch (e) {
      return refused({ why: "root unresolved", code: errnoCode(e) });
    }
    if (!isInside(realRoot, real)) return refused({ why: "outside", real, realRoot });
  }
  if (want === "folder") {
    return st.isDirectory()
      ? { kind: "ok", real, stat: st }
      : refused({ why: "wrong kind", found: describeKind(st), expected: "folder" });
  }
  if (!st.isFile()) return refused({ why: "wrong kind", found: describeKind(st), expected: "file" });
  if (opts.maxBytes !== undefined && st.size > opts.maxBytes) {
    return refused({ why: "too large", size: st.size, maxBytes: opts.maxBytes });
  }
  return { kind: "ok", real, stat: st };
}
