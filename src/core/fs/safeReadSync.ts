/**
 * The synchronous twin of `readGuarded` (fileGuard.ts), for the few call sites
 * that cannot await (CLI argument files, a git folder's small files): the same
 * checks in the same order (lstat, links resolved inside the root, a regular
 * file only, a non-blocking open re-checked with fstat, a size cap), the same
 * {@link FileRefusal}s, and {@link readRegularFileSync} throwing them in
 * safeRead.ts's words.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  GUARDED_OPEN_FLAGS,
  describeKind,
  errnoCode,
  type FileGuardOptions,
  type FileRefusal,
  type GuardedBytes,
} from "./fileGuard";
import { isInside } from "./pathInside";
import { OPEN_ATTEMPTS, recheckOpened } from "./guardedOpen";
import { checkPlace, descriptorPathSync, sameFile } from "./openedPath";
import { unsafeFileError, type SafeReadOptions } from "./safeRead";

const refused = (refusal: FileRefusal): GuardedBytes => ({ kind: "refused", refusal });

/** The checks before the open: missing, refused, or the resolved path and its lstat. */
function checkSync(
  file: string,
  opts: FileGuardOptions,
):
  | { kind: "missing" }
  | { kind: "refused"; refusal: FileRefusal }
  | { kind: "ok"; real: string; st: fs.Stats; realRoot: string | null } {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    const code = errnoCode(e);
    return code === "ENOENT" || (code === "ENOTDIR" && opts.notDirIsMissing === true)
      ? { kind: "missing" }
      : { kind: "refused", refusal: { why: "unreadable", step: "check", code } };
  }
  let real: string;
  try {
    real = fs.realpathSync(file);
    if (real !== file) st = fs.lstatSync(real);
  } catch (e) {
    return { kind: "refused", refusal: { why: "broken link", code: errnoCode(e) } };
  }
  let realRoot: string | null = null;
  if (opts.root !== null) {
    try {
      realRoot = fs.realpathSync(opts.root);
    } catch (e) {
      return { kind: "refused", refusal: { why: "root unresolved", code: errnoCode(e) } };
    }
    if (!isInside(realRoot, real)) return { kind: "refused", refusal: { why: "outside", real, realRoot } };
  }
  if (!st.isFile()) {
    return { kind: "refused", refusal: { why: "wrong kind", found: describeKind(st), expected: "file" } };
  }
  const max = opts.maxBytes;
  if (max !== undefined && st.size > max) {
    return { kind: "refused", refusal: { why: "too large", size: st.size, maxBytes: max } };
  }
  return { kind: "ok", real, st, realRoot };
}

/** Where the opened `fd` is: null when where the checks said (the kernel's path on Linux, a fresh check elsewhere). */
function placeOfSync(
  fd: number,
  opened: fs.Stats,
  file: string,
  opts: FileGuardOptions,
  realRoot: string | null,
): FileRefusal | null {
  const at = descriptorPathSync(fd);
  if (at !== null) {
    const expected =
      opts.links === "refuse" && realRoot !== null ? path.join(realRoot, path.relative(opts.root!, file)) : null;
    const place = checkPlace(at, realRoot, expected);
    return place.kind === "ok" ? null : { why: "swapped", real: place.real, inside: place.inside };
  }
  const again = checkSync(file, opts);
  return again.kind === "ok" && sameFile(again.st, opened) ? null : { why: "changed", found: null };
}

/** Reads the whole of an opened, checked descriptor (at most the cap plus one byte). */
function readAllSync(fd: number, size: number, max: number | undefined): GuardedBytes {
  const buf = Buffer.allocUnsafe(max !== undefined ? Math.min(size, max) + 1 : size);
  let filled = 0;
  while (filled < buf.length) {
    const bytesRead = fs.readSync(fd, buf, filled, buf.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  if (max !== undefined && filled > max) return refused({ why: "grew", maxBytes: max });
  return { kind: "read", bytes: filled === buf.length ? buf : buf.subarray(0, filled) };
}

/** Checks and reads a whole file synchronously (links are followed only inside `opts.root`; `links: "refuse"` is not supported here). */
export function readGuardedSync(file: string, opts: FileGuardOptions): GuardedBytes {
  let last: FileRefusal = { why: "changed", found: null };
  for (let attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
    const checked = checkSync(file, opts);
    if (checked.kind !== "ok") return checked;
    let fd: number;
    try {
      fd = fs.openSync(checked.real, GUARDED_OPEN_FLAGS);
    } catch (e) {
      const code = errnoCode(e);
      if (code === "ENOENT" || code === "ELOOP") continue; // replaced or swapped since the check: look again
      return refused({ why: "unreadable", step: "open", code });
    }
    try {
      const opened = fs.fstatSync(fd);
      const bad = recheckOpened(opened, opts.maxBytes);
      if (bad !== null) return refused(bad);
      const misplaced = placeOfSync(fd, opened, file, opts, checked.realRoot);
      if (misplaced === null) return readAllSync(fd, opened.size, opts.maxBytes);
      last = misplaced;
    } catch (e) {
      return refused({ why: "unreadable", step: "read", code: errnoCode(e) });
    } finally {
      fs.closeSync(fd);
    }
  }
  return refused(last);
}

/**
 * Synchronous `readRegularFile` (safeRead.ts): null when missing, the bytes of
 * a regular file inside the workspace, else an `UnsafeFileError`.
 */
export function readRegularFileSync(file: string, opts: SafeReadOptions): Buffer | null {
  const read = readGuardedSync(file, opts);
  if (read.kind === "refused") throw unsafeFileError(read.refusal, file, opts);
  return read.kind === "read" ? read.bytes : null;
}
