/**
 * The synchronous twin of `readGuarded` (fileGuard.ts), for the few call sites
 * that cannot await (CLI argument files, a git folder's small files): the same
 * checks in the same order (lstat, links resolved inside the root, a regular
 * file only, a non-blocking open re-checked with fstat, a size cap), the same
 * {@link FileRefusal}s, and {@link readRegularFileSync} throwing them in
 * safeRead.ts's words.
 */
import * as fs from "node:fs";
import {
  GUARDED_OPEN_FLAGS,
  describeKind,
  errnoCode,
  isInside,
  recheckOpened,
  type FileGuardOptions,
  type FileRefusal,
  type GuardedBytes,
} from "./fileGuard";
import { unsafeFileError, type SafeReadOptions } from "./safeRead";

const refused = (refusal: FileRefusal): GuardedBytes => ({ kind: "refused", refusal });

/** Checks and reads a whole file synchronously (links are followed only inside `opts.root`; `links: "refuse"` is not supported here). */
export function readGuardedSync(file: string, opts: FileGuardOptions): GuardedBytes {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    const code = errnoCode(e);
    return code === "ENOENT" || (code === "ENOTDIR" && opts.notDirIsMissing === true)
      ? { kind: "missing" }
      : refused({ why: "unreadable", step: "check", code });
  }
  let real: string;
  try {
    real = fs.realpathSync(file);
    if (real !== file) st = fs.lstatSync(real);
  } catch (e) {
    return refused({ why: "broken link", code: errnoCode(e) });
  }
  if (opts.root !== null) {
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(opts.root);
    } catch (e) {
      return refused({ why: "root unresolved", code: errnoCode(e) });
    }
    if (!isInside(realRoot, real)) return refused({ why: "outside", real, realRoot });
  }
  if (!st.isFile()) return refused({ why: "wrong kind", found: describeKind(st), expected: "file" });
  const max = opts.maxBytes;
  if (max !== undefined && st.size > max) return refused({ why: "too large", size: st.size, maxBytes: max });
  let fd: number;
  try {
    fd = fs.openSync(real, GUARDED_OPEN_FLAGS);
  } catch (e) {
    return errnoCode(e) === "ENOENT"
      ? { kind: "missing" }
      : refused({ why: "unreadable", step: "open", code: errnoCode(e) });
  }
  try {
    const opened = fs.fstatSync(fd);
    const changed = recheckOpened(opened, st, max);
    if (changed !== null) return refused(changed);
    const buf = Buffer.allocUnsafe(max !== undefined ? Math.min(opened.size, max) + 1 : opened.size);
    let filled = 0;
    while (filled < buf.length) {
      const bytesRead = fs.readSync(fd, buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (max !== undefined && filled > max) return refused({ why: "grew", maxBytes: max });
    return { kind: "read", bytes: filled === buf.length ? buf : buf.subarray(0, filled) };
  } catch (e) {
    return refused({ why: "unreadable", step: "read", code: errnoCode(e) });
  } finally {
    fs.closeSync(fd);
  }
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
