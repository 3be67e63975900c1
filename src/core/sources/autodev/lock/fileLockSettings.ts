/**
 * Settings of the cross-process `.autodev/.lock` lock: its timing defaults and
 * the helper programs that can take the OS lock. Re-exported by `fileLock.ts`.
 */

/** Python's `plan_lock` timeout. */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** How often a waiting helper retries flock(LOCK_EX|LOCK_NB) (filelock polls every 50 ms). */
export const DEFAULT_POLL_INTERVAL_MS = 10;
/** How long an unused helper process is kept warm. */
export const DEFAULT_HELPER_IDLE_MS = 30_000;
/** How long a helper may take to start and say READY (shims and cold disks can be slow). */
export const DEFAULT_HELPER_START_TIMEOUT_MS = 15_000;
/** A helper that failed to start is not retried for this long. */
export const FAILED_HELPER_RETRY_MS = 60_000;
/** Extra time a helper gets to answer beyond the lock timeout before we kill it. */
export const ANSWER_GRACE_MS = 10_000;

/** Which helper program, and how it is run. */
type LockHelperKind = "perl" | "python" | "flock";

/** One lock-holder helper candidate. */
export interface LockHelper {
  readonly kind: LockHelperKind;
  /** Program name (looked up on PATH) or absolute path. */
  readonly command: string;
  /** Arguments placed before ours (e.g. `["-3"]` for the Windows `py` launcher). */
  readonly args?: readonly string[];
}

/** The helpers tried, in order, on this platform. */
export function defaultLockHelpers(platform: NodeJS.Platform = process.platform): readonly LockHelper[] {
  if (platform === "win32") {
    return [
      { kind: "python", command: "python" },
      { kind: "python", command: "py", args: ["-3"] },
      { kind: "python", command: "python3" },
    ];
  }
  return [
    { kind: "perl", command: "perl" },
    { kind: "python", command: "python3" },
    { kind: "python", command: "python" },
    { kind: "flock", command: "flock" },
  ];
}

/** How a helper is shown in messages: its command line, e.g. `py -3`. */
export function helperLabel(helper: LockHelper): string {
  return [helper.command, ...(helper.args ?? [])].join(" ");
}
