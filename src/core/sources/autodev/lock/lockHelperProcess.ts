/**
 * A lock helper child process, read line by line: how `lockHelperDriver.ts`
 * spawns perl/python/flock(1) and talks to them over stdin/stdout.
 */
import { spawn, type ChildProcess } from "node:child_process";
import * as path from "node:path";

/** Environment for helpers: no variables that inject code into perl. (python runs with -I, which ignores PYTHON*.) */
function helperEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ["PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "PERL_UNICODE"]) delete env[name];
  return env;
}

/** Refs or unrefs the process and its pipes, so an idle helper does not keep Node alive. */
export function setRef(child: ChildProcess, ref: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown as ({
    ref?(): void;
    unref?(): void;
  } | null)[]) {
    if (ref) handle?.ref?.();
    else handle?.unref?.();
  }
}

/** A child process whose stdout is read as lines. */
export class LineProcess {
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

  /** `inherit`: descriptors the child gets as its fd 3, 4, … */
  constructor(command: string, args: readonly string[], inherit: readonly number[] = []) {
    this.child = spawn(command, args, {
      stdio: ["pipe", "pipe", "pipe", ...inherit],
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
