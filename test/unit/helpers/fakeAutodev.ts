/**
 * A process that looks like a running AutoDev to the process look-up (run/autodevProcess.ts): a Python
 * script at `<tmp>/bin/autodev` started as `python3 <tmp>/bin/autodev execute` in the workspace, the
 * command line AutoDev's own entry point has (`python …/bin/autodev execute`). It only sleeps; tests
 * start it where AutoDev was running when a snapshot was taken or a recording was made, and kill it
 * (SIGKILL, as the recorded kills did).
 */
import { ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** A started stand-in AutoDev process. */
export interface FakeAutodev {
  readonly pid: number;
  /** SIGKILLs it and waits until it is gone. */
  kill(): Promise<void>;
}

let python: string | undefined;

/** Starts the stand-in in `cwd` and waits until it runs. */
export async function startFakeAutodev(cwd: string): Promise<FakeAutodev> {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "fake-autodev-"));
  const script = path.join(bin, "autodev");
  fs.writeFileSync(script, "import time\ntime.sleep(600)\n");
  // The interpreter itself, not a pyenv shim (a shim's bash runs first, with other arguments).
  python ??= execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  const child: ChildProcess = spawn(python, [script, "execute"], { cwd, stdio: "ignore" });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", () => resolve());
    child.once("error", reject);
  });
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    pid: child.pid ?? -1,
    async kill() {
      child.kill("SIGKILL");
      await gone;
      fs.rmSync(bin, { recursive: true, force: true });
    },
  };
}
