/**
 * The one way the ledger is opened for reading: the guarded open of
 * src/core/fs/guardedOpen.ts (a regular file, never a FIFO or device, links
 * only inside the workspace, the opened descriptor's real place checked, a
 * file replaced by AutoDev's atomic write while it was opened read as the
 * whole version the descriptor holds, never an error). Every ledger reader
 * (the streaming line reader, the parallel scan, the tail reader, the live
 * session's byte ranges) opens through here, so none can read a file a
 * swapped `.autodev/` leads to.
 */
import type * as fs from "node:fs";
import * as path from "node:path";
import { openRegularFile } from "../../../fs/safeRead";
import { AUTODEV_DIR } from "../autodevPaths";

/**
 * The folder a ledger must stay inside: the workspace above its `.autodev/`
 * (the ledger's usual place), else the folder holding the file itself (a ledger
 * given by path, as the benchmarks and tests do).
 */
function ledgerRoot(file: string): string {
  const dir = path.dirname(path.resolve(file));
  return path.basename(dir) === AUTODEV_DIR ? path.dirname(dir) : dir;
}

/**
 * Opens the ledger `file` for reading, confined to `root` (default
 * {@link ledgerRoot}); null when it does not exist. Throws `UnsafeFileError`
 * naming what was found for anything but a regular file inside the workspace.
 */
export async function openLedgerFile(file: string, root = ledgerRoot(file)): Promise<fs.promises.FileHandle | null> {
  return openRegularFile(file, { root, what: "the ledger" });
}

/** {@link openLedgerFile} where the ledger must exist (its callers checked): ENOENT as `fs.open` throws it. */
export async function openExistingLedger(file: string, root?: string): Promise<fs.promises.FileHandle> {
  const fh = await openLedgerFile(file, root);
  if (fh !== null) return fh;
  throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), {
    code: "ENOENT",
    errno: -2,
    syscall: "open",
    path: file,
  });
}
