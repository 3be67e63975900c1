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
 * costs a line on a pipe, so the editor can ask every second.
 *
 * The lock alone misses a default-mode run: AutoDev takes it for each write, not for the minutes
 * an `autodev plan` / `execute` runs (seen in the recorded run, test/fixtures/autodev-default-run/).
 * So a process running `autodev` in the folder (autodevProcess.ts) also counts as running, and a
 * lock held while no such process exists is said to be held by something else. Never throws.
 */
import * as fs from "node:fs";
import { defaultLockHelpers, LockHelper } from "../lock/fileLockSettings";
import { sharedLockProber } from "./lockProber";
import { lockPath } from "../autodevPaths";
import { AutodevProcess, ProcessProbe, findAutodevProcess } from "./autodevProcess";

/** What the probe found. `running` is null when it could not tell (no helper, Windows, odd file). */
export interface RunningProbe {
  readonly running: boolean | null;
  readonly detail: string;
  /** The AutoDev process running in the folder, when one was found. */
  readonly process?: AutodevProcess;
}

/** The lock probe when it is not asked for (tests, the problem check): it tells nothing. */
export const NOT_PROBED: RunningProbe = { running: null, detail: "not probed" };

/**
 * Whether AutoDev runs in `cwd`: the lock probe (or NOT_PROBED when `lock` is false) and the
 * process look-up, combined (see the module comment).
 */
export async function probeAutodevRunning(
  cwd: string,
  helpers: readonly LockHelper[] = defaultLockHelpers(),
  lock = true,
): Promise<RunningProbe> {
  const [held, proc] = await Promise.all([lock ? probeLock(cwd, helpers) : NOT_PROBED, findAutodevProcess(cwd)]);
  return withProcess(held, proc);
}

/** The lock probe's answer with what the process look-up found. */
export function withProcess(held: RunningProbe, proc: ProcessProbe): RunningProbe {
  if (proc.state === "found") {
    const p = proc.process;
    const lockNote =
      held.running === true
        ? "it holds .autodev/.lock now (writing)"
        : "it takes .autodev/.lock only while it writes, so the lock is free most of the time";
    return {
      running: true,
      detail: `AutoDev runs in this folder (pid ${p.pid}: ${p.command}); ${lockNote}`,
      process: p,
    };
  }
  if (proc.state === "none" && held.running === true) {
    return {
      running: true,
      detail:
        "a process holds .autodev/.lock, but no AutoDev process runs in this folder: another tool (or an AutoDev in " +
        "another container) is writing. If nothing should be, find it with `fuser .autodev/.lock` (AutoDev never " +
        "leaves the lock held: the system drops it when the process ends)",
    };
  }
  return held;
}

async function probeLock(cwd: string, helpers: readonly LockHelper[]): Promise<RunningProbe> {
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
