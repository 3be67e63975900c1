/**
 * Reading state files from a folder nobody vetted, for callers that want an
 * exception: the checks of fileGuard.ts (lstat, links resolved inside the
 * workspace, regular files only, a non-blocking open re-checked with fstat, a
 * size cap), each refusal thrown as an {@link UnsafeFileError} that names the
 * path, what was expected, what was found and what to do.
 */
import { InvalidInputError } from "../errors";
import { guardPath, type FileRefusal } from "./fileGuard";
import { OPEN_ATTEMPTS, openGuarded, readGuarded } from "./guardedOpen";
import type * as fs from "node:fs";
import { relativeInside } from "./pathInside";

// The ledger readers (src/core/sources/autodev/ledger/read/) import describeKind from here; it lives in fileGuard.ts.
export {} from "./fileGuard";

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

/** `file` relative to `root` for messages (absolute when outside). */
function displayPath(root: string, file: string): string {
  return relativeInside(root, file) || file;
}

function errnoText(code: string): string {
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
      return `an error (${code})`;
  }
}

/** What was found, for {@link UnsafeFileError.found}. */
function foundOf(refusal: FileRefusal): string {
  switch (refusal.why) {
    case "unreadable":
    case "broken link":
    case "root unresolved":
      return refusal.code;
    case "outside":
    case "escapes":
      return "outside";
    case "wrong kind":
      return refusal.found;
    case "changed":
      return refusal.found ?? "another file";
    case "swapped":
      return refusal.inside ? "symbolic link" : "outside";
    case "too large":
    case "grew":
      return "too large";
  }
}

/** The detail of a refusal of a file (`folder` false) or a folder, after "what (path): ". */
function detailOf(refusal: FileRefusal, root: string, folder: boolean): string {
  const expected = folder ? "a folder" : "a regular file";
  switch (refusal.why) {
    case "unreadable":
      if (refusal.step === "check") {
        return folder
          ? `expected a folder, found ${errnoText(refusal.code)}`
          : `cannot be checked: ${errnoText(refusal.code)}`;
      }
      return `cannot be ${refusal.step === "open" ? "opened" : "read"}: ${errnoText(refusal.code)}`;
    case "broken link": {
      const found = refusal.code === "ENOENT" ? "a symbolic link to a missing target" : errnoText(refusal.code);
      return folder
        ? `expected a folder, found ${found}`
        : `expected a regular file, found ${found}; remove the link or replace it with the file`;
    }
    case "root unresolved":
      return `the workspace folder ${root} cannot be resolved: ${errnoText(refusal.code)}`;
    case "outside":
    case "escapes": {
      const where =
        refusal.why === "outside"
          ? `resolves to ${refusal.real}, outside the workspace ${refusal.realRoot}`
          : "leaves the workspace";
      return `${where}; remove the link or replace it with ${folder ? "a folder" : "the file"}`;
    }
    case "wrong kind":
      return folder
        ? `expected a folder, found a ${refusal.found}`
        : `expected ${expected}, found a ${refusal.found}; remove it or replace it with the real file`;
    case "changed":
      return refusal.found === null
        ? `kept being replaced while it was opened (${OPEN_ATTEMPTS} tries); try again when its writer is idle`
        : `changed into a ${refusal.found} while it was opened`;
    case "swapped":
      return `a folder above it was swapped for a link while it was opened (the opened file is ${refusal.real}${refusal.inside ? "" : ", outside the workspace"}); remove the link and keep the real ${folder ? "folder" : "file"} there`;
    case "too large":
      return `is ${refusal.size} bytes, over the ${refusal.maxBytes}-byte limit`;
    case "grew":
      return `grew past the ${refusal.maxBytes}-byte limit while it was read`;
  }
}

/** The {@link UnsafeFileError} for a refusal of `file` (a folder when `folder`). */
export function unsafeFileError(
  refusal: FileRefusal,
  file: string,
  opts: SafeReadOptions,
  folder = false,
): UnsafeFileError {
  const what = opts.what ?? displayPath(opts.root, file);
  return new UnsafeFileError(
    `${what} (${displayPath(opts.root, file)}): ${detailOf(refusal, opts.root, folder)}; not read`,
    file,
    foundOf(refusal),
  );
}

/**
 * Checks `file` without opening it: null when it does not exist (lstat ENOENT),
 * else its resolved path, which is inside the workspace and a regular file.
 * Throws `UnsafeFileError` otherwise.
 */
export async function checkRegularFile(file: string, opts: SafeReadOptions): Promise<string | null> {
  const checked = await guardPath(file, opts);
  if (checked.kind === "refused") throw unsafeFileError(checked.refusal, file, opts);
  return checked.kind === "ok" ? checked.real : null;
}

/**
 * Opens a state file for reading after `checkRegularFile`; null when it does
 * not exist. The handle is a regular file inside the workspace (re-checked
 * with fstat after the open: same inode, within the cap). The caller closes it.
 */
export async function openRegularFile(file: string, opts: SafeReadOptions): Promise<fs.promises.FileHandle | null> {
  const opened = await openGuarded(file, opts);
  if (opened.kind === "refused") throw unsafeFileError(opened.refusal, file, opts);
  return opened.kind === "open" ? opened.handle : null;
}

/** Reads a whole state file after the checks of `openRegularFile`; null when it does not exist. */
export async function readRegularFile(file: string, opts: SafeReadOptions): Promise<Buffer | null> {
  const read = await readGuarded(file, opts);
  if (read.kind === "refused") throw unsafeFileError(read.refusal, file, opts);
  return read.kind === "read" ? read.bytes : null;
}

/** `readRegularFile` decoded as UTF-8 (invalid bytes replaced, as Node's default). */
export async function readRegularText(file: string, opts: SafeReadOptions): Promise<string | null> {
  const data = await readRegularFile(file, opts);
  return data === null ? null : data.toString("utf8");
}

/**
 * Checks a folder under the workspace before listing it: null when missing,
 * else its resolved path (inside the workspace, a directory). Throws otherwise.
 */
export async function checkFolder(dir: string, opts: SafeReadOptions): Promise<string | null> {
  const checked = await guardPath(dir, opts, "folder");
  if (checked.kind === "refused") throw unsafeFileError(checked.refusal, dir, opts, true);
  return checked.kind === "ok" ? checked.real : null;
}
