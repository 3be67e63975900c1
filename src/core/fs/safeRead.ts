/**
 * Opening state files from a folder nobody vetted (a cloned repository can
 * carry any `.autodev/`): check first, open second. Every read of a file under
 * a state folder goes through here:
 *
 * 1. `lstat` the path; ENOENT means "missing" (null), any other error is an error;
 * 2. resolve links (`realpath`) and require the result inside the workspace;
 * 3. `lstat` the resolved path: only a regular file is opened (never a FIFO,
 *    socket, device or directory: a FIFO would block a thread forever);
 * 4. open with `O_NOFOLLOW | O_NONBLOCK` (a file swapped for a FIFO between the
 *    checks cannot block the open), then `fstat` again: still a regular file,
 *    the same inode, not over the size cap.
 *
 * Errors name the path, what was expected, what was found and what to do.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { InvalidInputError } from "../errors";

/** What a path turned out to be, in words for messages. */
export type FoundKind = "regular file" | "directory" | "FIFO (named pipe)" | "socket" | "character device" | "block device" | "symbolic link" | "special file";

/** A state file that is not safe to read (wrong type, outside the workspace, unreadable, too big). */
export class UnsafeFileError extends InvalidInputError {
  constructor(
    message: string,
    /** The path as given. */
    readonly file: string,
    /** What was found there (a kind, or an errno code such as EACCES/ELOOP). */
    readonly found: string,
  ) {
    super(message);
  }
}

/** Where and how a file may be read. */
export interface SafeReadOptions {
  /** The workspace folder: the file's resolved path must lie inside it. */
  readonly root: string;
  /** Largest size accepted, in bytes (default: no cap). */
  readonly maxBytes?: number;
  /** What the file is, for messages ("the ledger", "plan.json"); default: its path relative to root. */
  readonly what?: string;
}

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

/** `file` relative to `root` for messages (absolute when outside). */
export function displayPath(root: string, file: string): string {
  const rel = path.relative(root, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : file;
}

function errnoText(code: string | undefined): string {
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied (EACCES); give the user running AutoDev State read access to it";
    case "ELOOP":
      return "a loop of symbolic links (ELOOP); replace the link with the real file";
    case "ENOTDIR":
      return "a path component is not a folder (ENOTDIR); fix the folder layout";
    case "ENAMETOOLONG":
      return "a name too long (ENAMETOOLONG)";
    case "EIO":
      return "an I/O error (EIO); check the disk";
    default:
      return `an error (${code ?? "unknown"})`;
  }
}

function fail(opts: SafeReadOptions, file: string, found: string, detail: string): UnsafeFileError {
  const what = opts.what ?? displayPath(opts.root, file);
  return new UnsafeFileError(`${what} (${displayPath(opts.root, file)}): ${detail}; not read`, file, found);
}

function errCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException)?.code;
}

/** True when `real` equals `realRoot` or lies under it. */
export function isInside(realRoot: string, real: string): boolean {
  const rel = path.relative(realRoot, real);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Checks `file` without opening it: null when it does not exist (lstat ENOENT),
 * else its resolved path, which is inside the workspace and a regular file.
 * Throws `UnsafeFileError` otherwise.
 */
export async function checkRegularFile(file: string, opts: SafeReadOptions): Promise<string | null> {
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(file);
  } catch (e) {
    if (errCode(e) === "ENOENT") return null;
    throw fail(opts, file, errCode(e) ?? "error", `cannot be checked: ${errnoText(errCode(e))}`);
  }
  let real: string;
  try {
    real = await fs.promises.realpath(file); // resolves links in the file and in every folder above it
  } catch (e) {
    const code = errCode(e);
    const found = code === "ENOENT" ? "a symbolic link to a missing target" : errnoText(code);
    throw fail(opts, file, code ?? "error", `expected a regular file, found ${found}; remove the link or replace it with the file`);
  }
  let realRoot: string;
  try {
    realRoot = await fs.promises.realpath(opts.root);
  } catch (e) {
    throw fail(opts, file, errCode(e) ?? "error", `the workspace folder ${opts.root} cannot be resolved: ${errnoText(errCode(e))}`);
  }
  if (!isInside(realRoot, real)) {
    throw fail(opts, file, "outside", `resolves to ${real}, outside the workspace ${realRoot}; remove the link or replace it with the file`);
  }
  if (real !== file) st = await fs.promises.lstat(real);
  if (!st.isFile()) {
    throw fail(opts, file, describeKind(st), `expected a regular file, found a ${describeKind(st)}; remove it or replace it with the real file`);
  }
  if (opts.maxBytes !== undefined && st.size > opts.maxBytes) {
    throw fail(opts, file, "too large", `is ${st.size} bytes, over the ${opts.maxBytes}-byte limit`);
  }
  return real;
}

const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Opens a state file for reading after `checkRegularFile`; null when it does
 * not exist. The handle is a regular file inside the workspace (re-checked
 * with fstat after the open). The caller closes it.
 */
export async function openRegularFile(file: string, opts: SafeReadOptions): Promise<fs.promises.FileHandle | null> {
  const real = await checkRegularFile(file, opts);
  if (real === null) return null;
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(real, OPEN_FLAGS);
  } catch (e) {
    if (errCode(e) === "ENOENT") return null;
    throw fail(opts, file, errCode(e) ?? "error", `cannot be opened: ${errnoText(errCode(e))}`);
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw fail(opts, file, describeKind(st), `changed into a ${describeKind(st)} while it was opened`);
    if (opts.maxBytes !== undefined && st.size > opts.maxBytes) {
      throw fail(opts, file, "too large", `is ${st.size} bytes, over the ${opts.maxBytes}-byte limit`);
    }
    return fh;
  } catch (e) {
    await fh.close();
    throw e;
  }
}

/** Reads a whole state file after the checks of `openRegularFile`; null when it does not exist. */
export async function readRegularFile(file: string, opts: SafeReadOptions): Promise<Buffer | null> {
  const fh = await openRegularFile(file, opts);
  if (fh === null) return null;
  try {
    const st = await fh.stat();
    const out = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < st.size) {
      const { bytesRead } = await fh.read(out, n, st.size - n, n);
      if (bytesRead === 0) break;
      n += bytesRead;
    }
    return n === st.size ? out : out.subarray(0, n);
  } finally {
    await fh.close();
  }
}

/** `readRegularFile` decoded as UTF-8 (invalid bytes replaced, as Node's default). */
export async function readRegularText(file: string, opts: SafeReadOptions): Promise<string | null> {
  const data = await readRegularFile(file, opts);
  return data === null ? null : data.toString("utf8");
}

/**
 * Synchronous `checkRegularFile` + read, for the few synchronous call sites
 * (CLI argument files, extension code that cannot await). Null when missing.
 */
export function readRegularFileSync(file: string, opts: SafeReadOptions): Buffer | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (e) {
    if (errCode(e) === "ENOENT") return null;
    throw fail(opts, file, errCode(e) ?? "error", `expected a regular file, found ${errnoText(errCode(e))}`);
  }
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch (e) {
    const code = errCode(e);
    throw fail(opts, file, code ?? "error", `expected a regular file, found ${code === "ENOENT" ? "a symbolic link to a missing target" : errnoText(code)}`);
  }
  if (!isInside(fs.realpathSync(opts.root), real)) throw fail(opts, file, "outside", `resolves to ${real}, outside the workspace; remove the link or replace it with the file`);
  if (real !== file) st = fs.lstatSync(real);
  if (!st.isFile()) throw fail(opts, file, describeKind(st), `expected a regular file, found a ${describeKind(st)}; remove it or replace it with the real file`);
  const fd = fs.openSync(real, OPEN_FLAGS);
  try {
    const fst = fs.fstatSync(fd);
    if (!fst.isFile()) throw fail(opts, file, describeKind(fst), `changed into a ${describeKind(fst)} while it was opened`);
    if (opts.maxBytes !== undefined && fst.size > opts.maxBytes) throw fail(opts, file, "too large", `is ${fst.size} bytes, over the ${opts.maxBytes}-byte limit`);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checks a folder under the workspace before listing it: null when missing,
 * else its resolved path (inside the workspace, a directory). Throws otherwise.
 */
export async function checkFolder(dir: string, opts: SafeReadOptions): Promise<string | null> {
  try {
    await fs.promises.lstat(dir);
  } catch (e) {
    if (errCode(e) === "ENOENT") return null;
    throw fail(opts, dir, errCode(e) ?? "error", `expected a folder, found ${errnoText(errCode(e))}`);
  }
  let real: string;
  try {
    real = await fs.promises.realpath(dir);
  } catch (e) {
    const code = errCode(e);
    throw fail(opts, dir, code ?? "error", `expected a folder, found ${code === "ENOENT" ? "a symbolic link to a missing target" : errnoText(code)}`);
  }
  if (!isInside(await fs.promises.realpath(opts.root), real)) throw fail(opts, dir, "outside", `resolves to ${real}, outside the workspace; remove the link or replace it with a folder`);
  const st = await fs.promises.stat(real);
  if (!st.isDirectory()) throw fail(opts, dir, describeKind(st), `expected a folder, found a ${describeKind(st)}`);
  return real;
}
