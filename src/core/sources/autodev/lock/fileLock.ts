/**
 * The cross-process write lock on `.autodev/.lock` that Python AutoDev honours.
 *
 * Python AutoDev serialises writers with `filelock.FileLock(".autodev/.lock")`:
 * an OS lock (flock(2) on Linux/macOS, a one-byte `LockFile` on Windows) on
 * the lock file, polled every 50 ms for up to 30 s. A lock Python cannot see
 * is no lock, so our writers take that same OS lock. Node has no flock and
 * the extension ships without native addons, so a small helper process takes
 * and holds it for us:
 *
 * - **perl** (POSIX, first choice): `flock(2)` through Perl's `flock`; starts
 *   in ~3 ms and `/usr/bin/perl` ships with macOS and nearly every Linux.
 * - **python3** / **python** / **py -3**: `fcntl.flock` on POSIX,
 *   `msvcrt.locking` on Windows — AutoDev users have it; it starts in ~20 ms
 *   (much more through a pyenv/asdf shim).
 * - **flock(1)** from util-linux (last, Linux only): one process per
 *   acquisition.
 *
 * The perl/python helpers are long-lived: one per lock file, started on first
 * use and ended after `idleMs` without use, so a warm acquisition is a pipe
 * round trip (well under a millisecond), not a process start. The helper holds
 * the lock until we ask it to release or until its stdin reaches EOF — which
 * the OS delivers when this process dies, so a crashed writer never leaves the
 * workspace locked. An in-process FIFO mutex per lock file makes writers in
 * this process queue up in front of the one helper instead of spawning more.
 *
 * If no helper can run, acquisition fails with `LockHelperUnavailableError`;
 * there is deliberately no fallback to a lock Python does not see (such as
 * `proper-lockfile`'s mkdir lock): a writer that believes it holds the plan
 * lock while Python writes is exactly the corruption the lock prevents.
 *
 * This module is the public API; the pieces live in `fileLockSettings.ts`
 * (defaults, helper candidates), `fileLockErrors.ts`, `lockSlot.ts` (the
 * in-process FIFO queue), `lockHelperDriver.ts` and `lockHelperProcess.ts`
 * (the helper processes) and `fileLockHelpers.ts` (the helper scripts).
 *
 * No `vscode` import: used by the extension and the CLI alike.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PlanLockTimeoutError } from "../../../errors";
import { FileLockError, FileLockLostError, UnsafeLockFileError } from "./fileLockErrors";
import {
  DEFAULT_HELPER_IDLE_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POLL_INTERVAL_MS,
  defaultLockHelpers,
  type LockHelper,
} from "./fileLockSettings";
import { forgetFailedLockHelpers, type LockHelperDriver, type LockedIdentity } from "./lockHelperDriver";
import { NO_BLOCK, NO_FOLLOW } from "../../../fs/fileGuard";
import type { ConfinedDir } from "../../../fs/confinedDir";
import { lockSlotFor, shutdownIdleLockSlots, type LockSlot } from "./lockSlot";

export { FileLockLostError, LockHelperUnavailableError, UnsafeLockFileError } from "./fileLockErrors";
export { type LockHelper } from "./fileLockSettings";

/** Options of {@link acquireFileLock} and {@link withFileLock}. */
export interface FileLockOptions {
  /** How long to wait for the lock (in this process's queue and then the OS lock). Default 30 s, like Python. */
  readonly timeoutMs?: number;
  /** Aborting rejects a pending acquisition with `signal.reason`; it never affects a lock already returned. */
  readonly signal?: AbortSignal;
  /** Override the helper candidates (tests; `[]` simulates a machine with none). */
  readonly helpers?: readonly LockHelper[];
  /** Retry interval while another process holds the lock. Default 10 ms. */
  readonly pollIntervalMs?: number;
  /** How long the helper process stays warm after the last release. Default 30 s. */
  readonly idleMs?: number;
  /**
   * The checked folder holding the lock file (`.autodev/`, confinedDir.ts): the file is made
   * through its descriptor, and the file a helper locked must be the one in it (device and inode),
   * so a folder swapped for a link neither gets a file created outside nor hands us a lock
   * Python cannot see.
   */
  readonly within?: ConfinedDir;
}

/** A held `.autodev/.lock`. Call `release()` exactly when the write is done (extra calls are no-ops). */
export interface FileLock {
  /** Absolute path of the lock file. */
  readonly lockFile: string;
  /** Which helper holds it, e.g. `perl v5.36.0 (pid 1234)`. */
  readonly helper: string;
  /** Milliseconds from the call to `acquireFileLock` until the lock was held. */
  readonly acquireMs: number;
  /** True until released, or until the helper died (then `lost` is true). */
  readonly held: boolean;
  /** True if the helper process died while we held the lock: the OS lock is gone. */
  readonly lost: boolean;
  /** Throws `FileLockLostError` unless the lock is still held; call before committing a write. */
  assertHeld(): void;
  /** Drops the OS lock; resolves once another process can take it. */
  release(): Promise<void>;
}

/**
 * Takes the OS lock on `lockFile` (creating its folder and the file as Python
 * does), waiting up to `timeoutMs`. Rejects with `PlanLockTimeoutError` on
 * timeout, `LockHelperUnavailableError` when no helper can run,
 * `FileLockError` when the helper cannot lock, or `signal.reason` on abort.
 * The helper's start-up time is not charged to `timeoutMs`.
 */
export async function acquireFileLock(lockFile: string, options: FileLockOptions = {}): Promise<FileLock> {
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const pollMs = options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  if (!(timeoutMs >= 0) || !(pollMs > 0)) throw new RangeError("timeoutMs must be >= 0 and pollIntervalMs > 0");
  const { signal } = options;
  signal?.throwIfAborted();

  const absolute = path.resolve(lockFile);
  const name = path.basename(absolute);
  const { within } = options;
  // Synchronous on purpose: writers must reach the slot's FIFO queue in call order, which awaits
  // between the call and `enter` would shuffle (two tiny syscalls; callers run off the UI thread).
  if (within === undefined) fs.mkdirSync(path.dirname(absolute), { recursive: true });
  const canonical = path.join(within?.real ?? fs.realpathSync(path.dirname(absolute)), name);
  /** Where this process opens the lock file: through the checked folder when there is one. */
  const local = within?.pathOf(name) ?? canonical;
  prepareLockFile(local, canonical);
  const helpers = options.helpers ?? defaultLockHelpers();
  const key = `${canonical}\0${JSON.stringify(helpers)}`;
  const slot = lockSlotFor(key, canonical, helpers);
  slot.idleMs = options.idleMs ?? DEFAULT_HELPER_IDLE_MS;

  let deadline = started + timeoutMs;
  await slot.enter(deadline, timeoutMs, signal);
  try {
    signal?.throwIfAborted();
    const spawnStarted = performance.now();
    const driver = await slot.driverFor(signal);
    deadline += performance.now() - spawnStarted; // start-up is not lock waiting
    signal?.throwIfAborted(); // before the helper sees the request: an abort then would kill it
    const target = within?.viaProc ? { dirFd: within.fd, name } : undefined;
    for (let attempt = 1; ; attempt++) {
      const result = await driver.acquire(Math.max(0, deadline - performance.now()), pollMs, signal, target);
      if (result.kind === "timeout") {
        throw new PlanLockTimeoutError(timeoutMs / 1000, `another process holds ${canonical}`);
      }
      if (result.kind === "error") {
        throw new FileLockError(`cannot lock ${canonical} (${driver.description}): ${result.message}`);
      }
      if (result.kind === "locked" && lockedHere(local, result.identity)) {
        return new HeldLock(slot, driver, canonical, performance.now() - started);
      }
      // The helper found no file, or locked another one: the path led elsewhere than the checked
      // folder (swapped for a link), or the file was replaced. Make it again there and retry, bounded.
      if (result.kind === "locked") await driver.release();
      if (attempt >= LOCK_PLACE_ATTEMPTS) {
        throw new UnsafeLockFileError(
          `${canonical} led to ${result.kind === "missing" ? "no file" : "another file"} each of ${attempt} times it was locked (a folder above it swapped for a link?). Nothing was written; make sure .autodev is a real folder of the workspace and try again.`,
        );
      }
      prepareLockFile(local, canonical);
    }
  } catch (error) {
    slot.leave();
    throw error;
  }
}

/** How many times a lock is taken again when the helper locked a file other than the one in the checked folder. */
const LOCK_PLACE_ATTEMPTS = 8;

/** True when the helper's locked file is the one at `local` now (a helper that cannot say is trusted: Windows). */
function lockedHere(local: string, identity: LockedIdentity): boolean {
  if (identity === null) return true;
  try {
    const st = fs.lstatSync(local, { bigint: true });
    return st.isFile() && String(st.dev) === identity.dev && String(st.ino) === identity.ino;
  } catch {
    return false;
  }
}

/** Runs `fn` while holding the lock; always releases. */
export async function withFileLock<T>(
  lockFile: string,
  options: FileLockOptions,
  fn: (lock: FileLock) => Promise<T> | T,
): Promise<T> {
  const lock = await acquireFileLock(lockFile, options);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}

/**
 * Ends every idle helper process now (extension deactivation, test teardown).
 * Helpers holding a lock are left to their holder's `release()`.
 */
export async function shutdownFileLockHelpers(): Promise<void> {
  await shutdownIdleLockSlots();
}

/** Forgets helpers that failed to start, so the next acquisition tries them again. */
export function resetFileLockHelperFailures(): void {
  forgetFailedLockHelpers();
}

/** The `FileLock` handed out by `acquireFileLock`: the slot is ours until `release()`. */
class HeldLock implements FileLock {
  private state: "held" | "released" | "lost" = "held";
  private releasing: Promise<void> | undefined;

  constructor(
    private readonly slot: LockSlot,
    private readonly driver: LockHelperDriver,
    readonly lockFile: string,
    readonly acquireMs: number,
  ) {
    driver.onLost = () => {
      if (this.state === "held") this.state = "lost";
    };
  }

  get helper(): string {
    return this.driver.description;
  }
  get held(): boolean {
    return this.state === "held";
  }
  get lost(): boolean {
    return this.state === "lost";
  }

  assertHeld(): void {
    if (this.state === "lost") {
      throw new FileLockLostError(
        `the lock on ${this.lockFile} was lost: its helper (${this.driver.description}) exited; another process may be writing`,
      );
    }
    if (this.state === "released") throw new FileLockLostError(`the lock on ${this.lockFile} was already released`);
  }

  release(): Promise<void> {
    this.releasing ??= (async () => {
      this.driver.onLost = undefined;
      try {
        if (this.state === "held") await this.driver.release();
      } finally {
        if (this.state === "held") this.state = "released";
        this.slot.leave();
      }
    })();
    return this.releasing;
  }
}

/**
 * Creates the lock file if missing, without following links, and refuses one
 * that is not a regular file: the helpers open it again (perl and python with
 * O_NOFOLLOW themselves; util-linux flock(1) cannot, so this check is what
 * keeps it from creating a file through a link). Synchronous like the mkdir above.
 */
function prepareLockFile(local: string, lockFile: string): void {
  const flags = fs.constants.O_RDWR | fs.constants.O_CREAT | NO_FOLLOW | NO_BLOCK;
  let fd: number;
  try {
    fd = fs.openSync(local, flags, 0o666);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    let found = `an error (${code})`;
    try {
      const st = fs.lstatSync(local);
      found = st.isSymbolicLink()
        ? `a symbolic link to ${fs.readlinkSync(local)}`
        : st.isDirectory()
          ? "a directory"
          : found;
    } catch {
      // keep the errno text
    }
    throw new UnsafeLockFileError(
      `refusing to lock ${lockFile}: expected a regular file, found ${found}. Nothing was written; remove it (AutoDev recreates it) and try again.`,
    );
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) {
      const kind = st.isFIFO()
        ? "a FIFO (named pipe)"
        : st.isCharacterDevice()
          ? "a character device"
          : st.isSocket()
            ? "a socket"
            : "a special file";
      throw new UnsafeLockFileError(
        `refusing to lock ${lockFile}: expected a regular file, found ${kind}. Nothing was written; remove it (AutoDev recreates it) and try again.`,
      );
    }
  } finally {
    fs.closeSync(fd);
  }
}
