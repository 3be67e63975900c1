/**
 * The one way our writers reach `.autodev/`: the folder opened once, checked
 * (confinedDir.ts: not a link, its descriptor exactly `<workspace>/.autodev`),
 * and every write (ledger, plan.json, the lock file, evidence, responses)
 * made through that descriptor, so a `.autodev/` swapped for a link to an
 * outside folder while we write cannot send a byte outside the workspace.
 */
import { ConfinedDir, ConfinedWriteError } from "../../fs/confinedDir";
import { errnoCode } from "../../fs/fileGuard";
import { OPEN_ATTEMPTS } from "../../fs/guardedOpen";
import { AUTODEV_DIR } from "./autodevPaths";

/** Opens `<cwd>/.autodev` to write in (made when missing); the caller closes it. */
export function openAutodevForWrite(cwd: string): Promise<ConfinedDir> {
  return ConfinedDir.open(cwd, AUTODEV_DIR, { create: true });
}

/** Runs `fn` with `dir`, or with `.autodev/` opened (and closed after) when `dir` is not given. */
export async function withAutodevDir<T>(
  cwd: string,
  dir: ConfinedDir | undefined,
  fn: (dir: ConfinedDir) => Promise<T>,
): Promise<T> {
  if (dir !== undefined) return fn(dir);
  const opened = await openAutodevForWrite(cwd);
  try {
    return await fn(opened);
  } finally {
    opened.close();
  }
}

/**
 * Runs `read` (a read of `.autodev/` by path) and checks that the path still led
 * to `dir` after it, so what was read decides writes into the same folder. A
 * file that vanished mid-read (ENOENT: the folder swapped out and back, as the
 * guarded reads refuse any file outside) is read again, a few times, then
 * reported as such; a read that failed while the folder is swapped reports the
 * swap, not the outside folder's own error.
 */
export async function readFrom<T>(dir: ConfinedDir, read: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let result: T;
    try {
      result = await read();
    } catch (e) {
      dir.assertStillAt();
      if (errnoCode(e) !== "ENOENT") throw e;
      if (attempt < OPEN_ATTEMPTS) continue;
      throw new ConfinedWriteError(
        `${dir.rel}: a file vanished each of ${attempt} times it was read (${(e as Error).message}): the folder swapped while it was read, or a writer that does not take .autodev/.lock. Nothing was written; try again.`,
      );
    }
    dir.assertStillAt();
    return result;
  }
}
