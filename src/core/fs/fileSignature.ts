/**
 * What a file looks like now, without following a link and without reading it: `ino:size:mtimeNs`
 * from `lstat`, or "absent". One format for the worker's live watch (which tells it with each
 * event) and the extension's watcher (its safety-net look, and the echo check of a change the
 * worker told already), so the two compare equal for the same file.
 */
import * as fs from "node:fs";

const format = (st: fs.BigIntStats): string => `${st.ino}:${st.size}:${st.mtimeNs}`;

/** The file's signature (see the module comment), synchronously: for the worker thread. */
export function fileSignature(file: string): string {
  try {
    return format(fs.lstatSync(file, { bigint: true }));
  } catch {
    return "absent";
  }
}

/** The same, without blocking the thread: for the extension host. */
export async function fileSignatureAsync(file: string): Promise<string> {
  try {
    return format(await fs.promises.lstat(file, { bigint: true }));
  } catch {
    return "absent";
  }
}
