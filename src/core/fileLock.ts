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
 * No `vscode` import: used by the extension and the CLI alike.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { AutodevError, PlanLockTimeoutError } from "./errors";
import { FLOCK_HOLD_COMMAND, FLOCK_TIMEOUT_EXIT, PERL_LOCK_HELPER, PYTHON_LOCK_HELPER } from "./fileLockHelpers";

/** Python's `plan_lock` timeout. */
export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;
/** How often a waiting helper retries flock(LOCK_EX|LOCK_NB) (filelock polls every 50 ms). */
export const DEFAULT_POLL_INTERVAL_MS = 10;
/** How long an unused helper process is kept warm. */
export const DEFAULT_HELPER_IDLE_MS = 30_000;
/** How long a helper may take to start and say READY (shims and cold disks can be slow). */
export const DEFAULT_HELPER_START_TIMEOUT_MS = 15_000;
/** A helper that failed to start is not retried for this long. */
const FAILED_HELPER_RETRY_MS = 60_000;
/** Extra time a helper gets to answer beyond the lock timeout before we kill it. */
const ANSWER_GRACE_MS = 10_000;

/** Which helper program, and how it is run. */
export type LockHelperKind = "perl" | "python" | "flock";

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

/** No helper could take the OS lock on this machine: writes cannot be made safe. */
export class LockHelperUnavailableError extends AutodevError {
  constructor(
    readonly lockFile: string,
    readonly attempts: readonly { readonly helper: string; readonly reason: string }[],
  ) {
    super(
      `cannot lock ${lockFile}: no lock helper could run. AutoDev State writes need ` +
        (process.platform === "win32" ? "`python` (or the `py` launcher)" : "`perl` or `python3`") +
        " on PATH to take the same OS lock Python AutoDev's filelock uses; until then the workspace is read-only. " +
        (attempts.length === 0
          ? "No helpers were configured."
          : `Tried: ${attempts.map((a) => `${a.helper} (${a.reason})`).join("; ")}.`),
    );
  }
}

/** The helper reported an error taking the lock (permissions, filesystem without flock, …). */
export class FileLockError extends AutodevError {}

/** The helper holding our lock died; another process may now hold it. */
export class FileLockLostError extends AutodevError {}

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
  const dir = path.dirname(absolute);
  await fs.promises.mkdir(dir, { recursive: true });
  const canonical = path.join(await fs.promises.realpath(dir), path.basename(absolute));
  const helpers = options.helpers ?? defaultLockHelpers();
  const key = `${canonical}\0${JSON.stringify(helpers)}`;
  let slot = slots.get(key);
  if (!slot) {
    slot = new LockSlot(key, canonical, helpers);
    slots.set(key, slot);
  }
  slot.idleMs = options.idleMs ?? DEFAULT_HELPER_IDLE_MS;

  let deadline = started + timeoutMs;
  await slot.enter(deadline, timeoutMs, signal);
  try {
    signal?.throwIfAborted();
    const spawnStarted = performance.now();
    const driver = await slot.driverFor(signal);
    deadline += performance.now() - spawnStarted; // start-up is not lock waiting
    signal?.throwIfAborted(); // before the helper sees the request: an abort then would kill it
    const result = await driver.acquire(Math.max(0, deadline - performance.now()), pollMs, signal);
    if (result.kind === "timeout") {
      throw new PlanLockTimeoutError(timeoutMs / 1000, `another process holds ${canonical}`);
    }
    if (result.kind === "error") {
      throw new FileLockError(`cannot lock ${canonical} (${driver.description}): ${result.message}`);
    }
    return new HeldLock(slot, driver, canonical, performance.now() - started);
  } catch (error) {
    slot.leave();
    throw error;
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
  await Promise.all([...slots.values()].map((slot) => slot.shutdownIfIdle()));
}

/** Forgets helpers that failed to start, so the next acquisition tries them again. */
export function resetFileLockHelperFailures(): void {
  failedHelpers.clear();
}

// ---------------------------------------------------------------------------

const slots = new Map<string, LockSlot>();
/** helper key → when it failed and why; skipped for FAILED_HELPER_RETRY_MS. */
const failedHelpers = new Map<string, { at: number; reason: string }>();

class HeldLock implements FileLock {
  private state: "held" | "released" | "lost" = "held";
  private releasing: Promise<void> | undefined;

  constructor(
    private readonly slot: LockSlot,
    private readonly driver: Driver,
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

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** One lock file (and helper list) in this process: a FIFO mutex plus the helper that serves it. */
class LockSlot {
  private busy = false;
  private readonly queue: Waiter[] = [];
  private driver: Driver | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  idleMs = DEFAULT_HELPER_IDLE_MS;

  constructor(
    readonly key: string,
    readonly lockFile: string,
    readonly helpers: readonly LockHelper[],
  ) {}

  /** Waits for this process's other writers on the same lock, in FIFO order. */
  enter(deadline: number, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    this.clearIdle();
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
      };
      const waiter: Waiter = {
        resolve: () => {
          cleanup();
          resolve();
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      };
      const onAbort = () => waiter.reject(signal?.reason);
      const timer = setTimeout(
        () =>
          waiter.reject(
            new PlanLockTimeoutError(timeoutMs / 1000, `another writer in this process holds ${this.lockFile}`),
          ),
        Math.max(0, deadline - performance.now()),
      );
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  /** Hands the slot to the next waiter, or starts the idle countdown. */
  leave(): void {
    const next = this.queue.shift();
    if (next) {
      next.resolve(); // stays busy: ownership passes directly
      return;
    }
    this.busy = false;
    this.clearIdle();
    if (this.driver) {
      this.idleTimer = setTimeout(() => {
        this.idleTimer = undefined;
        if (!this.busy) this.dropDriver();
      }, this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** The running helper, started if needed. Only called by the slot's owner. */
  async driverFor(signal: AbortSignal | undefined): Promise<Driver> {
    if (this.driver?.alive) return this.driver;
    this.driver = undefined;
    const driver = await startDriver(this.helpers, this.lockFile, signal);
    driver.onExit = () => {
      if (this.driver === driver) this.driver = undefined;
    };
    this.driver = driver;
    return driver;
  }

  async shutdownIfIdle(): Promise<void> {
    if (this.busy) return;
    this.clearIdle();
    const driver = this.driver;
    this.driver = undefined;
    if (driver) await driver.close();
    if (slots.get(this.key) === this && !this.busy) slots.delete(this.key);
  }

  private dropDriver(): void {
    const driver = this.driver;
    this.driver = undefined;
    void driver?.close();
    if (slots.get(this.key) === this && !this.busy) slots.delete(this.key);
  }

  private clearIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

type AcquireResult = { kind: "locked" } | { kind: "timeout" } | { kind: "error"; message: string };

/** A helper process (or, for flock(1), a factory of them) that takes the OS lock. */
interface Driver {
  readonly description: string;
  readonly alive: boolean;
  /** Set while a lock is held; called if the OS lock is lost (helper died). */
  onLost: (() => void) | undefined;
  /** Called once when the helper is gone for good. */
  onExit: (() => void) | undefined;
  acquire(timeoutMs: number, pollMs: number, signal: AbortSignal | undefined): Promise<AcquireResult>;
  /** Resolves once the OS lock is dropped. */
  release(): Promise<void>;
  /** Graceful stop (stdin EOF); resolves when the process is gone. */
  close(): Promise<void>;
}

function helperLabel(helper: LockHelper): string {
  return [helper.command, ...(helper.args ?? [])].join(" ");
}

async function startDriver(
  helpers: readonly LockHelper[],
  lockFile: string,
  signal: AbortSignal | undefined,
): Promise<Driver> {
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
        helper.kind === "flock" ? await FlockBinaryDriver.start(helper, lockFile) : await ScriptDriver.start(helper, lockFile);
      failedHelpers.delete(key);
      return driver;
    } catch (error) {
      signal?.throwIfAborted();
      const reason = error instanceof Error ? error.message : String(error);
      failedHelpers.set(key, { at: Date.now(), reason });
      attempts.push({ helper: helperLabel(helper), reason });
    }
  }
  throw new LockHelperUnavailableError(lockFile, attempts);
}

/** Environment for helpers: no variables that inject code into perl. (python runs with -I, which ignores PYTHON*.) */
function helperEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "PERL_UNICODE"]) delete env[name];
  return env;
}

function setRef(child: ChildProcess, ref: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as ({
    ref?(): void;
    unref?(): void;
  } | null)[]) {
    if (ref) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** A child process whose stdout is read as lines. */
class LineProcess {
  readonly child: ChildProcess;
  private readonly lines: string[] = [];
  private partial = "";
  private waiter: ((line: string | null) => void) | undefined;
  private stderrTail = "";
  closed = false;
  exitCode: number | null = null;
  exitSignal: NodeJS.Signals | null = null;
  spawnError: Error | undefined;
  private readonly closedPromise: Promise<void>;

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, {
      stdio: ["pipe", "pipe", "pipe"],
      env: helperEnv(),
      windowsHide: true,
      cwd: path.parse(process.cwd()).root, // never pin a workspace folder
    });
    const child = this.child;
    child.stdout!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      this.partial += chunk;
      let nl: number;
      while ((nl = this.partial.indexOf("\n")) >= 0) {
        this.push(this.partial.slice(0, nl).replace(/\r$/, ""));
        this.partial = this.partial.slice(nl + 1);
      }
    });
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    child.stdin!.on("error", () => {}); // EPIPE when the helper is gone: reported through 'close'
    this.closedPromise = new Promise((resolve) => {
      child.on("error", (error) => {
        this.spawnError = error;
        // 'close' may not follow a failed spawn on every Node version
        if (child.pid === undefined) this.markClosed(resolve);
      });
      child.on("close", (code, sig) => {
        this.exitCode = code;
        this.exitSignal = sig;
        this.markClosed(resolve);
      });
    });
  }

  private markClosed(resolve: () => void): void {
    if (this.closed) return;
    this.closed = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(null);
    resolve();
    this.onClose?.();
  }

  onClose: (() => void) | undefined;

  private push(line: string): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      waiter(line);
    } else this.lines.push(line);
  }

  /** The next stdout line, or null once the process is gone. */
  nextLine(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** `nextLine()` bounded by a timeout and an abort signal (both kill the process). */
  async nextLineWithin(ms: number, signal: AbortSignal | undefined): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      return await new Promise<string | null>((resolve, reject) => {
        timer = setTimeout(() => {
          this.kill();
          reject(new Error(`no answer within ${Math.round(ms)} ms`));
        }, ms);
        if (signal) {
          onAbort = () => {
            this.kill();
            reject(signal.reason);
          };
          if (signal.aborted) return onAbort();
          signal.addEventListener("abort", onAbort, { once: true });
        }
        this.nextLine().then(resolve, reject);
      });
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
    }
  }

  write(line: string): void {
    if (!this.closed && this.child.stdin!.writable) this.child.stdin!.write(`${line}\n`);
  }

  endInput(): void {
    if (this.child.stdin!.writable) this.child.stdin!.end();
  }

  kill(): void {
    if (!this.closed) this.child.kill("SIGKILL");
  }

  whenClosed(): Promise<void> {
    return this.closedPromise;
  }

  /** Why the process failed, for error messages. */
  describeFailure(fallback: string): string {
    if (this.spawnError) {
      const code = (this.spawnError as NodeJS.ErrnoException).code;
      return code === "ENOENT" ? "not found (ENOENT)" : this.spawnError.message;
    }
    const stderr = this.stderrTail.trim().split(/\r?\n/).slice(-3).join(" | ");
    const exit = this.closed
      ? this.exitSignal
        ? `killed by ${this.exitSignal}`
        : `exited with code ${this.exitCode}`
      : "still running";
    return `${fallback}; ${exit}${stderr ? `: ${stderr}` : ""}`;
  }
}

/** The long-lived perl/python helper speaking the READY/A/R protocol. */
class ScriptDriver implements Driver {
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
      throw new Error(proc.describeFailure((error as Error).message));
    }
    const ready = line?.match(/^READY (\S+) (\d+) (\S+)/);
    if (!ready) {
      proc.kill();
      await proc.whenClosed();
      throw new Error(
        line?.startsWith("ERROR ") ? line.slice(6) : proc.describeFailure(line === null ? "no READY line" : `said ${JSON.stringify(line)}`),
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
      if (line === "LOCKED") {
        this.holding = true;
        return { kind: "locked" };
      }
      if (line === "TIMEOUT") return { kind: "timeout" };
      if (line?.startsWith("ERROR ")) return { kind: "error", message: line.slice(6) };
      this.proc.kill();
      return { kind: "error", message: this.proc.describeFailure(line === null ? "helper exited" : `unexpected answer ${JSON.stringify(line)}`) };
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
class FlockBinaryDriver implements Driver {
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
      throw new Error(probe.describeFailure((error as Error).message));
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

  async acquire(timeoutMs: number, _pollMs: number, signal: AbortSignal | undefined): Promise<AcquireResult> {
    const proc = new LineProcess(this.helper.command, [
      ...(this.helper.args ?? []),
      "-x",
      "-w",
      (timeoutMs / 1000).toFixed(3),
      "-E",
      String(FLOCK_TIMEOUT_EXIT),
      this.lockFile,
      "-c",
      FLOCK_HOLD_COMMAND,
    ]);
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
      return { kind: "locked" };
    }
    proc.kill();
    await proc.whenClosed();
    if (proc.exitCode === FLOCK_TIMEOUT_EXIT) return { kind: "timeout" };
    return { kind: "error", message: proc.describeFailure(line === null ? "flock(1) exited" : `said ${JSON.stringify(line)}`) };
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
