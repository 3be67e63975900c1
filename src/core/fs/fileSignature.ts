/**
 * What a file looks like now, without following a link and without reading it: its size and
 * modification time (fileSignatureFormat.ts), or "absent". The worker's live watch tells it with
 * each event; the extension's watcher takes the same signature from VS Code's file service (its
 * safety-net look, and the echo check of a change the worker told already), so the two compare
 * equal for the same file. A rename over the file with the same size in the same millisecond
 * looks the same: the live watch tells that change itself, the echo check only drops a duplicate.
 */
import * as fs from "node:fs";
import { ABSENT_SIGNATURE, signatureOf } from "./fileSignatureFormat";

/** The file's signature (see the module comment), synchronously: for the worker thread. */
export function fileSignature(file: string): string {
  try {
    const st = fs.lstatSync(file);
    // `mtime` as a Date, as VS Code's disk provider gives it (`stat.mtime.getTime()`: Node rounds).
    return signatureOf({ size: st.size, mtime: st.mtime.getTime() });
  } catch {
    return ABSENT_SIGNATURE;
  }
}
