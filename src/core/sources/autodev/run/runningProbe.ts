/**
 * "Is AutoDev running?": true when another process holds the OS lock on
 * `.autodev/.lock` (Python's filelock takes flock(LOCK_EX) for every write
 * and for a whole `plan`/`execute` step). Probed without side effects on the
 * workspace: the file is never created (no file = nobody holds it), opened
 * read-only without following links and without blocking, one
 * `flock(LOCK_SH | LOCK_NB)` attempt made and dropped at once — so the
 * probe never holds the lock beyond that instant and never waits, and sees any
 * exclusive flock (flock(1) holds one without truncating the file). Node has
 * no flock, so the attempt runs in one long-lived perl or python3 process
 * (lockProber.ts), the programs the lock helpers of `lock/` use; asking it
 * costs a line on a pipe, so the editor can ask every second. Never throws.
 */
import * as fs from "node:fs";
import { defaultLockHelpers, LockHelper } from "../lock/fileLockSettings";
import { sharedLockProber } from "./lockProber";
import { lockPath } from "../autodevPaths";

/** What the probe found. `running` is null when it could not tell (no helper, Windows, odd file). */
export interface RunningProbe {
  readonly running: boolean | null;
  readonly detail: string;
}

/** Probes `.autodev/.lock` of `cwd` (see the module comment). */
export async function probeAutodevRunning(
  cwd: string,
  helpers: readonly LockHelper[] = defaultLockHelpers(),
): Promise<RunningProbe> {
  const file = lockPath(cwd);
  let st: fs.Stats;
  try {
    st = await fs.promises.lstat(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { running: false, detail: "no .autodev/.lock: nothing holds it" };
    }
    return { running: null, detail: `.autodev/.lock cannot be checked (${code ?? String(e)}); cannot tell` };
  }
  if (!st.isFile()) {
    return {
      running: null,
      detail: `.autodev/.lock is not a regular file (a link, FIFO or device); not probed, so it cannot tell. Remove it (AutoDev recreates it)`,
    };
  }
  if (process.platform === "win32") return { running: null, detail: "the lock probe runs on POSIX only" };
  const answer = await sharedLockProber(helpers).probe(file);
  if (answer === "HELD") {
    return { running: true, detail: "another process holds .autodev/.lock (AutoDev is writing or running a step)" };
  }
  if (answer === "FREE") return { running: false, detail: ".autodev/.lock is free" };
  if (answer !== null) return { running: null, detail: `.autodev/.lock could not be probed: ${answer.slice(6, 200)}` };
  return {
    running: null,
    detail: "no perl or python3 on PATH to probe .autodev/.lock with, so it cannot tell (install perl or python3)",
  };
}
