/**
 * Drivers of the lock helper processes that take the OS lock for us: the
 * long-lived perl/python script (READY/A/R protocol over stdin/stdout) and
 * util-linux flock(1), one process per acquisition; plus choosing the first
 * helper that starts on this machine.
 */
import { LockHelperUnavailableError } from "./fileLockErrors";
import { FLOCK_HOLD_COMMAND, FLOCK_TIMEOUT_EXIT, PERL_LOCK_HELPER, PYTHON_LOCK_HELPER } from "./fileLockHelpers";
import {
  ANSWER_GRACE_MS,
  DEFAULT_HELPER_START_TIMEOUT_MS,
  FAILED_HELPER_RETRY_MS,
  helperLabel,
  type LockHelper,
} from "./fileLockSettings";
import { LineProcess, setRef } from "./lockHelperProcess";
import { errorText } from "../../../text/errorText";

/** Which file a helper locked: device and inode as decimal text (null when the helper cannot say). */
export type LockedIdentity = { readonly dev: string; readonly ino: string } | null;

/** What a helper answered to a lock request ("missing": no file at the path; the caller makes it and asks again). */
type AcquireResult =
  | { kind: "locked"; identity: LockedIdentity }
  | { kind: "missing" }
  | { kind: "timeout" }
  | { kind: "error"; message: string };

/** The lock file inside a checked folder: the folder's descriptor and the file's name in it. */
export interface LockTarget {
  readonly dirFd: number;
  readonly name: string;
}

/** A helper process (or, for flock(1), a factory of them) that takes the OS lock. */
export interface LockHelperDriver {
  readonly description: string;
  readonly alive: boolean;
  /** Set while a lock is held; called if the OS lock is lost (helper died). */
  onLost: (() => void) | undefined;
  /** Called once when the helper is gone for good. */
  onExit: (() => void) | undefined;
  /** `target`: the lock file through a checked folder's descriptor, for a helper that can open it so (flock(1)). */
  acquire(
    timeoutMs: number,
    pollMs: number,
    signal: AbortSignal | undefined,
    target?: LockTarget,
  ): Promise<AcquireResult>;
  /** Resolves once the OS lock is dropped. */
  release(): Promise<void>;
  /** Graceful stop (stdin EOF); resolves when the process is gone. */
  close(): Promise<void>;
}

/** helper key → when it failed and why; skipped for FAILED_HELPER_RETRY_MS. */
const failedHelpers = new Map<string, { at: number; reason: string }>();

/** Forgets helpers that failed to start, so the next start tries them again. */
export function forgetFailedLockHelpers(): void {
  failedHelpers.clear();
}

/** Starts the first of `helpers` that runs here; throws `LockHelperUnavailableError` if none does. */
export async function startLockHelperDriver(
  helpers: readonly LockHelper[],
  lockFile: string,
  signal: AbortSignal | undefined,
): Promise<LockHelperDriver> {
  const attempts: { helper: string; reason: string }[] = [];
  for (const helper of helpers) {
    const key = JSON.stringify(helper);
    const failed = failedHelpers.get(key);
    if (failed && Date.now() - failed.at < FAILED_HELPER_RETRY_MS) {
      attempts.push({ helper: helperLabel(helper), reason: failed.reason });
      continue;
    }
    try {
      const driver =
        helper.kind === "flock"
          ? await FlockBinaryDriver.start(helper, lockFile)
          : await ScriptDriver.start(helper, lockFile);
      failedHelpers.delete(key);
      return driver;
    } catch (error) {
      signal?.throwIfAborted();
      const reason = errorText(error);
      failedHelpers.set(key, { at: Date.now(), reason });
      attempts.push({ helper: helperLabel(helper), reason });
    }
  }
  throw new LockHelperUnavailableError(lockFile, attempts);
}

/** The long-lived perl/python helper speaking the READY/A/R protocol. */
class ScriptDriver implements LockHelperDriver {
  onLost: (() => void) | undefined;
  onExit: (() => void) | undefined;
  private holding = false;

  private constructor(
    private readonly proc: LineProcess,
    readonly description: string,
  ) {
    proc.onClose = () => {
      if (this.holding) {
        this.holding = false;
        this.onLost?.();
      }
      this.onExit?.();
    };
    setRef(proc.child, false);
  }

  static async start(helper: LockHelper, lockFile: string): Promise<ScriptDriver> {
    const args =
      helper.kind === "python"
        ? [...(helper.args ?? []), "-I", "-S", "-c", PYTHON_LOCK_HELPER, lockFile]
        : [...(helper.args ?? []), "-e", PERL_LOCK_HELPER, lockFile];
    const proc = new LineProcess(helper.command, args);
    let line: string | null;
    try {
      line = await proc.nextLineWithin(DEFAULT_HELPER_START_TIMEOUT_MS, undefined);
    } catch (error) {
      throw new Error(proc.describeFailure((error as Error).message), { cause: error });
    }
    const ready = line?.match(/^READY (\S+) (\d+) (\S+)/);
    if (!ready) {
      proc.kill();
      await proc.whenClosed();
      throw new Error(
        line?.startsWith("ERROR ")
          ? line.slice(6)
          : proc.describeFailure(line === null ? "no READY line" : `said ${JSON.stringify(line)}`),
      );
    }
    return new ScriptDriver(proc, `${ready[1]} ${ready[3]} (pid ${ready[2]})`);
  }

  get alive(): boolean {
    return !this.proc.closed;
  }

  async acquire(timeoutMs: number, pollMs: number, signal: AbortSignal | undefined): Promise<AcquireResult> {
    setRef(this.proc.child, true);
    try {
      this.proc.write(`A ${Math.ceil(timeoutMs)} ${pollMs}`);
      let line: string | null;
      try {
        line = await this.proc.nextLineWithin(timeoutMs + ANSWER_GRACE_MS, signal);
      } catch (error) {
        signal?.throwIfAborted(); // abort killed the helper: any lock it just took is gone with it
        return { kind: "error", message: `helper ${(error as Error).message}; killed it` };
      }
      const locked = line?.match(/^LOCKED(?: (\d+) (\d+))?$/);
      if (locked) {
        this.holding = true;
        return { kind: "locked", identity: locked[1] ? { dev: locked[1], ino: locked[2] } : null };
      }
      if (line === "MISSING") return { kind: "missing" };
      if (line === "TIMEOUT") return { kind: "timeout" };
      if (line?.startsWith("ERROR ")) return { kind: "error", message: line.slice(6) };
      this.proc.kill();
      return {
        kind: "error",
        message: this.proc.describeFailure(
          line === null ? "helper exited" : `unexpected answer ${JSON.stringify(line)}`,
        ),
      };
    } finally {
      setRef(this.proc.child, false);
    }
  }

  async release(): Promise<void> {
    if (!this.holding) return;
    setRef(this.proc.child, true);
    try {
      this.proc.write("R");
      let line: string | null = null;
      try {
        line = await this.proc.nextLineWithin(ANSWER_GRACE_MS, undefined);
      } catch {
        // no answer: killed, which drops the lock too
      }
      this.holding = false;
      if (line !== "RELEASED") {
        this.proc.kill();
        await this.proc.whenClosed();
      }
    } finally {
      setRef(this.proc.child, false);
    }
  }

  async close(): Promise<void> {
    setRef(this.proc.child, true); // an unref'd process would let Node exit mid-await
    this.proc.endInput();
    await this.proc.whenClosed();
  }
}

/** util-linux flock(1): one `flock -x -w SECS -E 75 FILE -c 'echo LOCKED; exec cat'` per acquisition. */
class FlockBinaryDriver implements LockHelperDriver {
  onLost: (() => void) | undefined;
  onExit: (() => void) | undefined;
  private current: LineProcess | undefined;

  private constructor(
    private readonly helper: LockHelper,
    private readonly lockFile: string,
    readonly description: string,
  ) {}

  static async start(helper: LockHelper, lockFile: string): Promise<FlockBinaryDriver> {
    if (process.platform === "win32") throw new Error("flock(1) does not exist on Windows");
    const probe = new LineProcess(helper.command, [...(helper.args ?? []), "--version"]);
    setRef(probe.child, true);
    let line: string | null;
    try {
      line = await probe.nextLineWithin(DEFAULT_HELPER_START_TIMEOUT_MS, undefined);
    } catch (error) {
      throw new Error(probe.describeFailure((error as Error).message), { cause: error });
    }
    await probe.whenClosed();
    const version = line?.match(/util-linux\S*\s+(\S+)/);
    if (!version) throw new Error(probe.describeFailure(`not util-linux flock (${JSON.stringify(line)})`));
    return new FlockBinaryDriver(helper, lockFile, `flock(1) util-linux ${version[1]}`);
  }

  /** Always startable: each acquisition is its own process. */
  get alive(): boolean {
    return true;
  }

  /**
   * With a `target`, flock(1) inherits the checked folder as its fd 3 and opens
   * `/proc/self/fd/3/<name>` (flock(1) is Linux's), so the file it opens or
   * creates is in that folder whatever its path leads to by then.
   */
  async acquire(
    timeoutMs: number,
    _pollMs: number,
    signal: AbortSignal | undefined,
    target?: LockTarget,
  ): Promise<AcquireResult> {
    const file = target ? `/proc/self/fd/3/${target.name}` : this.lockFile;
    const proc = new LineProcess(
      this.helper.command,
      [
        ...(this.helper.args ?? []),
        "-x",
        "-w",
        (timeoutMs / 1000).toFixed(3),
        "-E",
        String(FLOCK_TIMEOUT_EXIT),
        file,
        "-c",
        FLOCK_HOLD_COMMAND,
      ],
      target ? [target.dirFd] : [],
    );
    let line: string | null;
    try {
      line = await proc.nextLineWithin(timeoutMs + ANSWER_GRACE_MS, signal);
    } catch (error) {
      signal?.throwIfAborted();
      return { kind: "error", message: `flock(1) ${(error as Error).message}; killed it` };
    }
    if (line === "LOCKED") {
      this.current = proc;
      proc.onClose = () => {
        if (this.current === proc) {
          this.current = undefined;
          this.onLost?.();
        }
      };
      setRef(proc.child, false);
      return { kind: "locked", identity: null };
    }
    proc.kill();
    await proc.whenClosed();
    if (proc.exitCode === FLOCK_TIMEOUT_EXIT) return { kind: "timeout" };
    return {
      kind: "error",
      message: proc.describeFailure(line === null ? "flock(1) exited" : `said ${JSON.stringify(line)}`),
    };
  }

  async release(): Promise<void> {
    const proc = this.current;
    this.current = undefined;
    if (!proc) return;
    setRef(proc.child, true);
    proc.endInput(); // cat sees EOF, exits; flock exits; the lock fd closes
    const timer = setTimeout(() => proc.kill(), ANSWER_GRACE_MS);
    await proc.whenClosed();
    clearTimeout(timer);
  }

  async close(): Promise<void> {
    await this.release();
  }
}
