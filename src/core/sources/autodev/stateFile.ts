/**
 * Reading one AutoDev state file: the shared checks of src/core/fs/fileGuard.ts
 * (a missing file is not an error; only regular files, never a FIFO, socket or
 * device; links resolved and, for workspace files, confined to the workspace;
 * a size cap), then strict UTF-8, with refusals worded for the AutoDev tree.
 * Never throws.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { guardPath, type FileRefusal, type FoundKind } from "../../fs/fileGuard";
import { openGuarded, readGuarded } from "../../fs/guardedOpen";
import { decodeUtf8Strict } from "../../text/utf8";

/** What reading a state file gave. */
export type StateFileRead =
  | { readonly kind: "missing" }
  | { readonly kind: "error"; readonly error: string }
  | { readonly kind: "ok"; readonly text: string; readonly bytes: number };

/** Largest small state file read (config, inline state, responses, spec). */
const MAX_SMALL_STATE_BYTES = 4 * 1024 * 1024;

function describeType(kind: FoundKind): string {
  switch (kind) {
    case "regular file":
      return "a regular file";
    case "directory":
      return "a folder";
    case "FIFO (named pipe)":
      return "a FIFO";
    case "socket":
      return "a socket";
    case "character device":
    case "block device":
      return "a device";
    default:
      return "not a regular file";
  }
}

/** The message for a state file or folder (`label`) the shared checks refused. */
function refusalMessage(refusal: FileRefusal, label: string): string {
  switch (refusal.why) {
    case "unreadable":
      return `cannot ${refusal.step === "open" ? "open" : "read"} ${label}: ${refusal.code}`;
    case "root unresolved":
      return `cannot read ${label}: ${refusal.code}`;
    case "broken link":
      return `${label} is a link that cannot be followed (${refusal.code}); not read`;
    case "outside":
      return `${label} resolves to ${refusal.real}, outside the workspace; not read`;
    case "escapes":
      return `${label} leaves the workspace; not read`;
    case "wrong kind":
      return `${label} is ${describeType(refusal.found)}, expected ${refusal.expected === "file" ? "a regular file; not read" : "a folder"}`;
    case "changed":
      return refusal.found === null
        ? `${label} kept being replaced while it was opened; not read (try again)`
        : `${label} is ${describeType(refusal.found)}, expected a regular file; not read`;
    case "swapped":
      return `a folder above ${label} was swapped for a link while it was opened (it led to ${refusal.real}); not read`;
    case "too large":
      return `${label} is ${refusal.size} bytes, over the ${refusal.maxBytes}-byte limit; not read`;
    case "grew":
      return `${label} grew past the ${refusal.maxBytes}-byte limit while being read; not read`;
  }
}

/**
 * Reads `abs` as UTF-8 text. With `confineTo` (the workspace), a file that
 * resolves outside it is refused; without it (the hive file under the home
 * folder) any regular file is read. `label` names the file in messages.
 */
export async function readStateFile(
  abs: string,
  max: number,
  confineTo: string | null,
  label = abs,
): Promise<StateFileRead> {
  const read = await readGuarded(abs, { root: confineTo, maxBytes: max, notDirIsMissing: true });
  if (read.kind === "missing") return read;
  if (read.kind === "refused") return { kind: "error", error: refusalMessage(read.refusal, label) };
  const text = decodeUtf8Strict(read.bytes);
  return text === null
    ? { kind: "error", error: `${label} is not valid UTF-8` }
    : { kind: "ok", text, bytes: read.bytes.length };
}

/** What opening a state file for streaming gave: the handle (the caller closes it) and the size `fstat` gave. */
export type StateFileOpen =
  | { readonly kind: "missing" }
  | { readonly kind: "error"; readonly error: string }
  | { readonly kind: "open"; readonly handle: fs.promises.FileHandle; readonly size: number };

/**
 * Opens `abs` for reading line by line, with the checks of {@link readStateFile} (confined to
 * `confineTo` when given, a regular file of at most `max` bytes); the text is decoded by the reader.
 */
export async function openStateFile(
  abs: string,
  max: number,
  confineTo: string | null,
  label = abs,
): Promise<StateFileOpen> {
  const opened = await openGuarded(abs, { root: confineTo, maxBytes: max, notDirIsMissing: true });
  if (opened.kind === "refused") return { kind: "error", error: refusalMessage(opened.refusal, label) };
  return opened;
}

/** Reads a file of the workspace `cwd` given relative to it (forward slashes), confined to the workspace. */
export function readWorkspaceStateFile(cwd: string, rel: string, max = MAX_SMALL_STATE_BYTES): Promise<StateFileRead> {
  return readStateFile(path.join(cwd, ...rel.split("/")), max, cwd, rel);
}

/** Names in a workspace folder (sorted), `[]` when it does not exist, or why it was not listed. */
export async function listWorkspaceDir(
  cwd: string,
  rel: string,
): Promise<{ ok: true; names: string[] } | { ok: false; error: string }> {
  const checked = await guardPath(path.join(cwd, ...rel.split("/")), { root: cwd, notDirIsMissing: true }, "folder");
  if (checked.kind === "missing") return { ok: true, names: [] };
  if (checked.kind === "refused") return { ok: false, error: refusalMessage(checked.refusal, rel) };
  try {
    return { ok: true, names: (await fs.promises.readdir(checked.real)).sort() };
  } catch (e) {
    return { ok: false, error: `cannot list ${rel}: ${(e as NodeJS.ErrnoException).code ?? String(e)}` };
  }
}

/** True when `rel` (workspace-relative) is a regular file, not a link (nothing is opened). */
export async function isPlainWorkspaceFile(cwd: string, rel: string): Promise<boolean> {
  try {
    return (await fs.promises.lstat(path.join(cwd, ...rel.split("/")))).isFile();
  } catch {
    return false;
  }
}
