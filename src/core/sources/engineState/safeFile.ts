/**
 * Opens a state file only when it is a regular file (never a FIFO, device, socket or
 * directory: lstat and stat first, then open non-blocking and compare the inode) and,
 * where asked, only when its resolved path lies inside a given root (a link out of the
 * workspace is refused, not followed).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The outcome of {@link openRegularFile}. */
export type OpenedFile =
  | { readonly kind: "open"; readonly fh: fs.promises.FileHandle; readonly size: number }
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly reason: string };

/** Options of {@link openRegularFile}. */
export interface OpenOptions {
  /** The resolved path must be this folder or below it (pass the workspace folder). */
  readonly inside?: string;
}

/** True when `child` is `root` or lies below it (both absolute, resolved). */
export function isInside(root: string, child: string): boolean {
  const relative = path.relative(root, child);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** What a non-regular file is, in words. */
function describe(stat: fs.Stats): string {
  if (stat.isDirectory()) return "a directory";
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return "a device";
  if (stat.isSocket()) return "a socket";
  if (stat.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? String(e);
}

/**
 * Opens `file` for reading when it is a regular file (following links only to targets that
 * pass `options.inside`). A missing file is `missing`; anything else unreadable is `refused`
 * with a sentence saying what was found.
 */
export async function openRegularFile(file: string, options: OpenOptions = {}): Promise<OpenedFile> {
  let lstat: fs.Stats;
  try {
    lstat = await fs.promises.lstat(file);
  } catch (e) {
    if (errorCode(e) === "ENOENT" || errorCode(e) === "ENOTDIR") return { kind: "missing" };
    return { kind: "refused", reason: `cannot be read (${errorCode(e)})` };
  }
  let real: string;
  try {
    real = await fs.promises.realpath(file);
  } catch (e) {
    return { kind: "refused", reason: `is a link that leads nowhere (${errorCode(e)})` };
  }
  if (options.inside !== undefined) {
    let root: string;
    try {
      root = await fs.promises.realpath(options.inside);
    } catch (e) {
      return { kind: "refused", reason: `cannot be checked: its workspace folder cannot be resolved (${errorCode(e)})` };
    }
    if (!isInside(root, real)) return { kind: "refused", reason: "resolves to a path outside the workspace folder" };
  }
  const target = lstat.isSymbolicLink() ? await fs.promises.stat(real).catch(() => null) : lstat;
  if (target === null) return { kind: "refused", reason: "is a link whose target cannot be read" };
  if (!target.isFile()) return { kind: "refused", reason: `is ${describe(target)}, not a regular file` };
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(real, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch (e) {
    if (errorCode(e) === "ENOENT") return { kind: "missing" };
    return { kind: "refused", reason: `cannot be opened (${errorCode(e)})` };
  }
  const opened = await fh.stat();
  if (!opened.isFile() || opened.ino !== target.ino || opened.dev !== target.dev) {
    await fh.close();
    return { kind: "refused", reason: "was replaced by something else while it was being opened" };
  }
  return { kind: "open", fh, size: opened.size };
}

/**
 * Reads a whole small file (at most `maxBytes`) when {@link openRegularFile} allows it.
 * Returns the bytes, `missing`, or `refused` (also when the file is larger than `maxBytes`).
 */
export async function readSmallFile(
  file: string,
  maxBytes: number,
  options: OpenOptions = {},
): Promise<{ readonly kind: "read"; readonly bytes: Buffer } | Exclude<OpenedFile, { kind: "open" }>> {
  const opened = await openRegularFile(file, options);
  if (opened.kind !== "open") return opened;
  try {
    if (opened.size > maxBytes) {
      return { kind: "refused", reason: `is ${opened.size} bytes, more than the ${maxBytes} bytes expected of it` };
    }
    const bytes = Buffer.alloc(Math.min(opened.size + 1, maxBytes + 1));
    let total = 0;
    for (;;) {
      const { bytesRead } = await opened.fh.read(bytes, total, bytes.length - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > maxBytes) return { kind: "refused", reason: `grew past the ${maxBytes} bytes expected of it` };
    }
    return { kind: "read", bytes: bytes.subarray(0, total) };
  } finally {
    await opened.fh.close();
  }
}
