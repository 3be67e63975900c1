/**
 * The one format of a file's signature (`size:mtimeMs`, or "absent"), for the two sides that
 * compare them: the worker's live watch tells it with each event (fileSignature.ts, from `lstat`)
 * and the extension host takes it from VS Code's file service (`workspace.fs.stat`, whose `mtime`
 * is the same whole milliseconds), so the host needs no `fs` of its own. No Node import here.
 */

/** What a signature is made of: the file's size and its modification time in whole milliseconds. */
export interface SignatureParts {
  readonly size: number;
  readonly mtime: number;
}

/** The signature of a file that is not there. */
export const ABSENT_SIGNATURE = "absent";

/** The signature of a file of `size` bytes modified at `mtime` (whole milliseconds since the epoch). */
export function signatureOf(parts: SignatureParts): string {
  return `${parts.size}:${Math.trunc(parts.mtime)}`;
}
