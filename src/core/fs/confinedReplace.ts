/**
 * Crash-safe replacement of a file inside a checked folder (confinedDir.ts):
 * the ledger's append-by-copy (design §5.3, as Python AutoDev's
 * `append_entry`: the whole file plus one line, written to a temp file and
 * renamed over it) and the removal of temp files a killed writer left.
 *
 * Every path goes through the folder's descriptor, so a `.autodev/` swapped
 * for a link while we write cannot send a byte outside it. The copy's source
 * must be the very file the caller read its last entry from (device, inode
 * and size), so the appended line extends the chain it was built on; on
 * Linux the copy reads that open file (`/proc/self/fd/N`), not a path.
 */
import * as fs from "node:fs";
import { randomBytes } from "node:crypto";
import { CREATE_NEW_FLAGS, errnoCode, GUARDED_OPEN_FLAGS, NO_FOLLOW } from "./fileGuard";
import { ConfinedWriteError, type ConfinedDir } from "./confinedDir";

/** Which file a caller read: the copy must start from the same one. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
}

/** The identity of an fstat/lstat result. */
export function identityOf(st: fs.Stats): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size };
}

const READ_FLAGS = GUARDED_OPEN_FLAGS;
const TEMP_FLAGS = CREATE_NEW_FLAGS;
const APPEND_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | NO_FOLLOW;

function sameAs(st: fs.Stats, expected: FileIdentity): boolean {
  return st.dev === expected.dev && st.ino === expected.ino && st.size === expected.size;
}

function changed(dir: ConfinedDir, name: string, what: string): ConfinedWriteError {
  return new ConfinedWriteError(
    `${dir.rel}/${name} ${what} between reading its last entry and copying it (a writer that does not take .autodev/.lock, or a swapped folder); nothing was written. Try again.`,
  );
}

/** Opens `name` in `dir` to copy from, checked against `expected`; null when it does not exist (and none was read). */
async function openSource(
  dir: ConfinedDir,
  name: string,
  expected: FileIdentity | null,
): Promise<fs.promises.FileHandle | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(dir.pathOf(name), READ_FLAGS);
  } catch (e) {
    if (errnoCode(e) === "ENOENT" && expected === null) return null;
    if (errnoCode(e) === "ENOENT") throw changed(dir, name, "disappeared");
    throw new ConfinedWriteError(`${dir.rel}/${name} cannot be opened to copy (${errnoCode(e)}); nothing was written.`);
  }
  const st = await fh.stat();
  if (!st.isFile() || expected === null || !sameAs(st, expected)) {
    await fh.close();
    throw st.isFile() ? changed(dir, name, "was replaced") : changed(dir, name, "became a non-regular file");
  }
  return fh;
}

/**
 * Replaces `name` in `dir` with its current content plus `tail`: a reflink
 * (else a copy) of the file `expected` names into a new temp file
 * (`prefix…tmp`, 0600, created exclusively: never through a link), the tail
 * appended, fsynced, renamed over `name`, the folder fsynced. `expected` null:
 * the file must not exist, and the result is `tail` alone.
 */
export async function replaceWithAppended(
  dir: ConfinedDir,
  name: string,
  tail: string | Buffer,
  prefix: string,
  expected: FileIdentity | null,
): Promise<void> {
  const tmpName = `${prefix}${randomBytes(6).toString("hex")}.tmp`;
  const tmp = dir.pathOf(tmpName);
  const src = await openSource(dir, name, expected);
  try {
    if (src === null) {
      await (await fs.promises.open(tmp, TEMP_FLAGS, 0o600)).close();
    } else {
      try {
        // COPYFILE_EXCL: the temp file is created (O_EXCL), never opened through whatever is at its name.
        const from = dir.viaProc ? `/proc/self/fd/${src.fd}` : dir.pathOf(name);
        await fs.promises.copyFile(from, tmp, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
      } finally {
        await src.close();
      }
    }
    const out = await fs.promises.open(tmp, APPEND_FLAGS);
    try {
      const st = await out.stat();
      if (!st.isFile() || st.size !== (expected?.size ?? 0)) throw changed(dir, name, "changed while it was copied");
      await out.chmod(0o600);
      await out.appendFile(tail);
      await out.sync();
    } finally {
      await out.close();
    }
    if (!dir.viaProc && expected !== null) {
      const now = await dir.lstat(name);
      if (now === null || !sameAs(now, expected)) throw changed(dir, name, "was replaced");
    }
    dir.assertInPlace();
    await fs.promises.rename(tmp, dir.pathOf(name));
  } catch (e) {
    await fs.promises.unlink(tmp).catch(() => undefined);
    throw e;
  }
  dir.fsync();
}

/** Removes temp files (`prefix…tmp`) a killed writer left in `dir` (call only while holding the lock). */
export async function removeStaleTemps(dir: ConfinedDir, prefixes: readonly string[]): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await dir.list();
  } catch {
    return 0;
  }
  for (const name of names) {
    if (name.endsWith(".tmp") && prefixes.some((p) => name.startsWith(p))) {
      if (await dir.unlink(name).catch(() => false)) removed++;
    }
  }
  return removed;
}
