/**
 * Opening and reading a state file after the checks of fileGuard.ts (steps 4
 * to 6 there): a non-blocking open without following a last link, `fstat`
 * (a regular file within the cap), then where the descriptor really is
 * (openedPath.ts), tried again while the file is being replaced.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  GUARDED_OPEN_FLAGS,
  describeKind,
  errnoCode,
  guardPath,
  type FileGuardOptions,
  type FileRefusal,
  type GuardedBytes,
  type GuardedHandle,
} from "./fileGuard";
import { checkPlace, descriptorPath, sameFile } from "./openedPath";

const refused = (refusal: FileRefusal): { kind: "refused"; refusal: FileRefusal } => ({ kind: "refused", refusal });

/** Re-checks an opened handle: a regular file within the cap (where it is, is {@link placeOf}'s question). */
export function recheckOpened(opened: fs.Stats, maxBytes: number | undefined): FileRefusal | null {
  if (!opened.isFile()) return { why: "changed", found: describeKind(opened) };
  if (maxBytes !== undefined && opened.size > maxBytes) return { why: "too large", size: opened.size, maxBytes };
  return null;
}

/** How many times an open is tried while the file keeps being replaced or a folder above it swapped. */
export const OPEN_ATTEMPTS = 6;

/** The real path a descriptor of `file` must have: its folder's (`root`) real path plus the walked components (`links: "refuse"`), else null (anywhere inside). */
async function expectedReal(
  file: string,
  opts: FileGuardOptions,
): Promise<{ realRoot: string | null; expected: string | null } | null> {
  if (opts.root === null) return { realRoot: null, expected: null };
  let realRoot: string;
  try {
    realRoot = await fs.promises.realpath(opts.root);
  } catch {
    return null;
  }
  return { realRoot, expected: opts.links === "refuse" ? path.join(realRoot, path.relative(opts.root, file)) : null };
}

/**
 * Where the descriptor `fh` (of `file`, `opened` its fstat) is: null when it is
 * where the checks said, else the refusal to retry with. On Linux the kernel's
 * path; elsewhere a fresh walk that must find the same device and inode.
 */
async function placeOf(
  fh: fs.promises.FileHandle,
  opened: fs.Stats,
  file: string,
  opts: FileGuardOptions,
): Promise<FileRefusal | null> {
  const at = await descriptorPath(fh.fd);
  if (at !== null) {
    if (opts.root === null) return null;
    const where = await expectedReal(file, opts);
    if (where === null) return { why: "root unresolved", code: "ENOENT" };
    const place = checkPlace(at, where.realRoot, where.expected);
    return place.kind === "ok" ? null : { why: "swapped", real: place.real, inside: place.inside };
  }
  const again = await guardPath(file, opts);
  return again.kind === "ok" && sameFile(again.stat, opened) ? null : { why: "changed", found: null };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Opens `file` for reading after {@link guardPath}; the handle is re-checked
 * with `fstat` and its real place (see the module comment). The caller closes it.
 */
export async function openGuarded(file: string, opts: FileGuardOptions): Promise<GuardedHandle> {
  let last: FileRefusal = { why: "changed", found: null };
  for (let attempt = 0; attempt < OPEN_ATTEMPTS; attempt++) {
    if (attempt > 0) await pause(attempt);
    const checked = await guardPath(file, opts);
    if (checked.kind !== "ok") return checked;
    let handle: fs.promises.FileHandle;
    try {
      handle = await fs.promises.open(checked.real, GUARDED_OPEN_FLAGS);
    } catch (e) {
      const code = errnoCode(e);
      if (code === "ENOENT") continue; // removed (or renamed over) since the check: look again
      // ELOOP: the last component became a link after the check (O_NOFOLLOW); a swap in progress.
      if (code === "ELOOP") {
        last = { why: "changed", found: "symbolic link" };
        continue;
      }
      return refused({ why: "unreadable", step: "open", code });
    }
    let keep = false;
    try {
      const st = await handle.stat();
      const refusal = recheckOpened(st, opts.maxBytes);
      if (refusal !== null) return refused(refusal);
      const misplaced = await placeOf(handle, st, file, opts);
      if (misplaced === null) {
        keep = true;
        return { kind: "open", handle, size: st.size };
      }
      last = misplaced;
    } catch (e) {
      return refused({ why: "unreadable", step: "read", code: errnoCode(e) });
    } finally {
      if (!keep) await handle.close();
    }
  }
  return refused(last);
}

/**
 * Reads a whole file after {@link openGuarded}. With a cap, at most the cap plus
 * one byte is read and a file that grew past the cap is refused; without one,
 * the size `fstat` gave after the open is read (a growing log is cut there).
 */
export async function readGuarded(file: string, opts: FileGuardOptions): Promise<GuardedBytes> {
  const opened = await openGuarded(file, opts);
  if (opened.kind !== "open") return opened;
  const { handle, size } = opened;
  try {
    const capped = opts.maxBytes !== undefined;
    const buf = Buffer.allocUnsafe(capped ? Math.min(size, opts.maxBytes!) + 1 : size);
    let filled = 0;
    while (filled < buf.length) {
      const { bytesRead } = await handle.read(buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (capped && filled > opts.maxBytes!) return refused({ why: "grew", maxBytes: opts.maxBytes! });
    return { kind: "read", bytes: filled === buf.length ? buf : buf.subarray(0, filled) };
  } catch (e) {
    return refused({ why: "unreadable", step: "read", code: errnoCode(e) });
  } finally {
    await handle.close();
  }
}
