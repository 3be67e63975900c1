/**
 * Replaying a live recording of the default-mode AutoDev run (test/fixtures/autodev-default-run/) into a
 * workspace folder, from outside the extension host: a stand-in AutoDev process
 * (test/python/real_runs/autodev_live_replayer.py, started as `python3 <tmp>/bin/autodev <command>` in the folder,
 * the command line and cwd AutoDev's own process has) does every file-changing call AutoDev made, at its
 * recorded time, taking `.autodev/.lock` where AutoDev took it, and says when each call was made. It can
 * pause where a snapshot of the run was taken ({@link snapshotPoints}: the event after which the
 * replayed `.autodev/` is that snapshot's, byte for byte) and is ended with SIGKILL or a clean exit.
 */
import { ChildProcess, execFileSync, spawn } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { DEFAULT_RUN_DIR, applyLiveEvent, liveRecording, materializeDefaultRun } from "../../../helpers/defaultRun";

const REPO = path.resolve(__dirname, "../../../../..");
const PYDIR = path.join(REPO, "test/python/real_runs");

/** One call the stand-in made: its index in the recording and when (wall clock, `Date.now()`). */
export interface Made {
  readonly i: number;
  readonly at: number;
}

/** A started replay. */
export interface Replay {
  readonly pid: number;
  /** Every call made so far, in order. */
  readonly made: readonly Made[];
  /** Resolves with the event index at the next pause point. */
  nextPause(): Promise<number>;
  /** Starts the replay (after "ready"), or continues it after a pause. */
  go(): void;
  /** Resolves once every call is made; `held`: the stand-in holds the lock at the end. */
  readonly done: Promise<{ held: boolean }>;
  /** SIGKILL (as the recorded kills), resolving when the process is gone; returns the kill's time. */
  kill(): Promise<number>;
  /** A clean exit (as AutoDev's at the end of a command), resolving when the process is gone; returns its time. */
  exit(): Promise<number>;
}

let python: string | undefined;

/** Starts the stand-in on `command`'s recording in `ws`; it waits for {@link Replay.go}. */
export async function startReplay(
  ws: string,
  command: string,
  opts: { argv: string; gapCapMs?: number; pauseAt?: readonly number[] },
): Promise<Replay> {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), "replay-autodev-"));
  const script = path.join(bin, "autodev");
  fs.copyFileSync(path.join(PYDIR, "autodev_live_replayer.py"), script);
  python ??= execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
  const child: ChildProcess = spawn(python, [script, opts.argv], {
    cwd: ws,
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      ...process.env,
      AUTODEV_REPLAY_PYDIR: PYDIR,
      AUTODEV_REPLAY_RECORDING: path.join(DEFAULT_RUN_DIR, `live-${command}.jsonl.gz`),
      AUTODEV_REPLAY_GAP_CAP_MS: opts.gapCapMs === undefined ? "" : String(opts.gapCapMs),
      AUTODEV_REPLAY_PAUSE_AT: (opts.pauseAt ?? []).join(","),
    },
  });
  const made: Made[] = [];
  const pauses: number[] = [];
  let wake: (() => void) | null = null;
  let resolveDone!: (v: { held: boolean }) => void;
  const done = new Promise<{ held: boolean }>((r) => (resolveDone = r));
  let resolveReady!: () => void;
  const ready = new Promise<void>((r) => (resolveReady = r));
  const gone = new Promise<number>((resolve) => child.once("exit", () => resolve(Date.now())));
  readline.createInterface({ input: child.stdout! }).on("line", (line) => {
    const m = JSON.parse(line) as {
      ready?: true;
      i?: number;
      at?: number;
      paused?: number;
      done?: true;
      held?: boolean;
    };
    if (m.ready) resolveReady();
    else if (m.paused !== undefined) pauses.push(m.paused);
    else if (m.done) resolveDone({ held: m.held === true });
    else if (m.i !== undefined && m.at !== undefined) made.push({ i: m.i, at: m.at });
    wake?.();
  });
  await Promise.race([ready, gone.then(() => Promise.reject(new Error("the stand-in AutoDev exited at once")))]);
  const cleanup = () => fs.rmSync(bin, { recursive: true, force: true });
  return {
    pid: child.pid ?? -1,
    made,
    go: () => child.stdin!.write("go\n"),
    async nextPause() {
      while (pauses.length === 0) await new Promise<void>((r) => (wake = r));
      return pauses.shift()!;
    },
    done,
    async kill() {
      const at = Date.now();
      child.kill("SIGKILL");
      await gone;
      cleanup();
      return at;
    },
    async exit() {
      const at = Date.now();
      child.stdin!.end();
      await gone;
      cleanup();
      return at;
    },
  };
}

const SKIP = new Set([".git", "__pycache__", ".pytest_cache"]);

/** `.autodev/` of `ws` as rel path → "dir" or the file's sha1 (git's files and caches left out, as the snapshots do). */
function digest(ws: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(ws, rel), { withFileTypes: true })) {
      if (SKIP.has(e.name)) continue;
      const r = `${rel}/${e.name}`;
      if (e.isDirectory()) {
        out.set(r, "dir");
        walk(r);
      } else {
        out.set(
          r,
          crypto
            .createHash("sha1")
            .update(fs.readFileSync(path.join(ws, r)))
            .digest("hex"),
        );
      }
    }
  };
  if (fs.existsSync(path.join(ws, ".autodev"))) walk(".autodev");
  return out;
}

/** The digest entry of one path now (undefined: absent or left out). */
function entryOf(ws: string, rel: string): string | undefined {
  if (rel.split("/").some((s) => SKIP.has(s))) return undefined;
  try {
    const st = fs.statSync(path.join(ws, rel));
    if (st.isDirectory()) return "dir";
    return crypto
      .createHash("sha1")
      .update(fs.readFileSync(path.join(ws, rel)))
      .digest("hex");
  } catch {
    return undefined;
  }
}

/** What one event of a recording left: the ledger as it then is, and the task status it set when it committed one. */
export interface ReplayedEvent {
  /** Ledger entries. */
  readonly entries: number;
  /** The rows the timeline lists: every entry but the snapshots after the first (folded into the entry before). */
  readonly timelineRows: number;
  /** True when this event committed a ledger append (the rename of AutoDev's temp copy onto the ledger). */
  readonly commit: boolean;
  /** The `update_task_status` this commit appended, if it did. */
  readonly status: { readonly taskId: string; readonly status: string } | null;
}

/**
 * Replays `command`'s recording onto a scratch copy of `from` (here, as fast as it goes): for each step
 * of `steps`, the first event after which `.autodev/` is that snapshot's; and what each event left.
 */
export function snapshotPoints(
  from: string,
  command: string,
  steps: readonly string[],
): { points: Map<string, number>; after: ReplayedEvent[] } {
  const ws = materializeDefaultRun(from);
  const wanted = steps.map((step) => {
    const dir = materializeDefaultRun(step);
    const files = digest(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    return { step, files, differ: new Set<string>() };
  });
  let now = digest(ws);
  const recompare = () => {
    for (const w of wanted) {
      w.differ.clear();
      for (const k of new Set([...w.files.keys(), ...now.keys()])) if (w.files.get(k) !== now.get(k)) w.differ.add(k);
    }
  };
  const touch = (rel: string | null, ancestors: boolean) => {
    if (rel === null) return;
    const keys = [rel];
    if (ancestors) {
      for (let d = path.posix.dirname(rel); d.startsWith(".autodev/"); d = path.posix.dirname(d)) keys.push(d);
    }
    for (const k of keys) {
      const v = entryOf(ws, k);
      if (v === undefined) now.delete(k);
      else now.set(k, v);
      for (const w of wanted) {
        if (w.files.get(k) === now.get(k)) w.differ.delete(k);
        else w.differ.add(k);
      }
    }
  };
  recompare();
  const points = new Map<string, number>();
  const after: ReplayedEvent[] = [];
  const ledger = path.join(ws, ".autodev/plan-ledger.jsonl");
  const read = () => (fs.existsSync(ledger) ? ledgerOps(ledger) : []);
  let ops = read();
  for (const [i, ev] of liveRecording(command).events.entries()) {
    applyLiveEvent(ws, ev);
    const commit = ev.op === "rename" && ev.path === ".autodev/plan-ledger.jsonl";
    if (commit) ops = read();
    const last = commit ? ops[ops.length - 1] : undefined;
    after.push({
      entries: ops.length,
      timelineRows: ops.filter((o, k) => !(o.op === "snapshot" && k > 0)).length,
      commit,
      status:
        last?.op === "update_task_status"
          ? { taskId: String(last.payload?.task_id), status: String(last.payload?.status) }
          : null,
    });
    if (ev.op === "lock" || ev.op === "unlock") continue;
    if (ev.op === "rename" && ev.path !== null && entryOf(ws, ev.path) === "dir") {
      now = digest(ws);
      recompare();
    } else {
      touch(ev.path, true);
      if (ev.op === "rename") touch(ev.from, false);
    }
    for (const w of wanted) if (!points.has(w.step) && w.differ.size === 0) points.set(w.step, i);
  }
  fs.rmSync(ws, { recursive: true, force: true });
  return { points, after };
}

function ledgerOps(file: string): Array<{ op: string; payload?: Record<string, unknown> }> {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { op: string; payload?: Record<string, unknown> });
}
