/**
 * "Does an AutoDev process run in this folder?" AutoDev's default mode holds `.autodev/.lock` only
 * for each write (milliseconds), not for the minutes an `autodev plan` / `execute` runs, so the lock
 * probe cannot see a run. This looks for the process itself: on Linux, a process whose working
 * directory is the workspace (AutoDev's `Path.cwd()` is its root) and whose command line names
 * `autodev` (`python …/bin/autodev execute`, or an `autodev` shim). Read from `/proc` only:
 * `readlink /proc/<pid>/cwd` (other users' processes answer EACCES and are skipped) and at most
 * {@link MAX_CMDLINE} bytes of `/proc/<pid>/cmdline`; at most {@link MAX_PIDS} processes are
 * looked at. Nothing in the workspace is opened. Never throws.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { labelText } from "../../../text/untrustedText";

/** A process found running AutoDev in the folder. */
export interface AutodevProcess {
  readonly pid: number;
  /** Its command line as `autodev <args>`, one plain line of at most 120 characters. */
  readonly command: string;
}

/** What the process look-up found. `unknown`: this system has no /proc to look in. */
export type ProcessProbe =
  | { readonly state: "found"; readonly process: AutodevProcess }
  | { readonly state: "none" }
  | { readonly state: "unknown"; readonly detail: string };

/** Processes looked at, at most. */
export const MAX_PIDS = 32_768;
/** Bytes of a command line read, at most. */
export const MAX_CMDLINE = 4096;

async function readCmdline(file: string): Promise<string[] | null> {
  let fh: fs.promises.FileHandle | null = null;
  try {
    fh = await fs.promises.open(file, "r");
    const buf = Buffer.alloc(MAX_CMDLINE);
    const { bytesRead } = await fh.read(buf, 0, MAX_CMDLINE, 0);
    return buf
      .subarray(0, bytesRead)
      .toString("utf8")
      .split("\0")
      .filter((a) => a !== "");
  } catch {
    return null;
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

/** The working directory of process `pid` (`readlink /proc/<pid>/cwd`), or null when it cannot be read. */
function procCwd(procRoot: string, pid: string): string | null {
  try {
    return fs.readlinkSync(path.join(procRoot, pid, "cwd"));
  } catch {
    return null;
  }
}

/** The index of the argument that is AutoDev's entry point (`…/autodev`), or -1. */
function autodevArg(argv: readonly string[]): number {
  for (let i = 0; i < Math.min(argv.length, 3); i++) if (path.basename(argv[i]) === "autodev") return i;
  return -1;
}

/** Looks for an AutoDev process running in `cwd` (see the module comment). */
export async function findAutodevProcess(cwd: string, procRoot = "/proc"): Promise<ProcessProbe> {
  let real: string;
  let pids: string[];
  try {
    real = await fs.promises.realpath(cwd);
    pids = (await fs.promises.readdir(procRoot)).filter((n) => /^\d+$/.test(n)).slice(0, MAX_PIDS);
  } catch {
    return { state: "unknown", detail: `no ${procRoot} to look for an AutoDev process in` };
  }
  const self = String(process.pid);
  for (let i = 0; i < pids.length; i += 256) {
    // A batch of links read at once, synchronously: /proc answers from memory in microseconds, where
    // one promise per process costs a thread-pool round trip each (7–30 ms for 130 processes against
    // 2 ms); the event loop gets a turn between batches.
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const batch = pids.slice(i, i + 256).filter((p) => p !== self);
    for (let j = 0; j < batch.length; j++) {
      if (procCwd(procRoot, batch[j]) !== real) continue;
      const argv = await readCmdline(path.join(procRoot, batch[j], "cmdline"));
      const at = argv ? autodevArg(argv) : -1;
      if (argv && at >= 0) {
        const command = labelText(["autodev", ...argv.slice(at + 1)].join(" "), 120);
        return { state: "found", process: { pid: Number(batch[j]), command } };
      }
    }
  }
  return { state: "none" };
}
