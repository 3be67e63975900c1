/**
 * Whole-process measurements: a command is started fresh, its wall time is
 * taken from outside (spawn to exit), and its CPU time and peak RSS come
 * from the preloaded processStats.js. Runs of commands compared with each
 * other are interleaved (A B A B …) and compared run by run, so a machine
 * whose speed drifts during the bench moves both sides alike; the figures
 * quoted are medians.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";

/** One whole-process run. */
export interface ProcessRun {
  /** Wall time from spawn to exit. */
  readonly ms: number;
  /** CPU time (user + system, all threads). */
  readonly cpuMs: number;
  readonly maxRssMB: number;
  /** What the process printed on stdout. */
  readonly stdout: string;
  readonly status: number | null;
}

/** A command to measure: an argv (argv[0] "node" means this Node, with the stats preload). */
export interface Cmd {
  readonly argv: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Exit codes that are not a failure of the run (default [0]). */
  readonly okCodes?: readonly number[];
}

const STATS_JS = path.join(__dirname, "processStats.js");

/** Runs `cmd` once in a fresh process. */
export function runOnce(cmd: Cmd): ProcessRun {
  const statsFile = path.join(os.tmpdir(), `autodev-bench-stats-${process.pid}.jsonl`);
  fs.rmSync(statsFile, { force: true });
  const [exe, ...args] = cmd.argv;
  const isNode = exe === "node";
  const file = isNode ? process.execPath : exe;
  const argv = isNode ? ["--require", STATS_JS, ...args] : args;
  const env = { ...process.env, ...cmd.env, AUTODEV_BENCH_STATS: statsFile };
  const t0 = performance.now();
  const res = spawnSync(file, argv, { encoding: "utf8", maxBuffer: 1 << 28, env });
  const ms = performance.now() - t0;
  if (res.error) throw res.error;
  if (!(cmd.okCodes ?? [0]).includes(res.status ?? -1)) {
    throw new Error(`${cmd.argv.join(" ")} exited ${res.status}: ${res.stderr.slice(0, 2000)}`);
  }
  let cpuMs = NaN;
  let maxRssMB = NaN;
  try {
    const stats = JSON.parse(fs.readFileSync(statsFile, "utf8").trim().split("\n").pop()!) as {
      cpuMs: number;
      maxRssMB: number;
    };
    cpuMs = stats.cpuMs;
    maxRssMB = stats.maxRssMB;
  } catch {
    // Not a Node process (Python prints its own figures), or it died before its exit handler.
  }
  fs.rmSync(statsFile, { force: true });
  return { ms, cpuMs, maxRssMB, stdout: res.stdout, status: res.status };
}

/** The median of `xs` (NaN for none). */
export function median(xs: readonly number[]): number {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The medians of several commands run `runs` times interleaved, and the medians of their run-by-run ratios to the first. */
export interface Compared {
  readonly runs: ProcessRun[][];
  readonly ms: number[];
  readonly cpuMs: number[];
  readonly maxRssMB: number[];
  /** Median of (command k's wall / command 0's wall) over the runs. */
  readonly ratioToFirst: number[];
  /** The same for CPU time. */
  readonly cpuRatioToFirst: number[];
}

/** Runs each command `runs` times, interleaved (one warm-up round first, not counted). */
export function compare(cmds: readonly Cmd[], runs: number, warmup = true): Compared {
  if (warmup) for (const c of cmds) runOnce(c);
  const all: ProcessRun[][] = cmds.map(() => []);
  for (let i = 0; i < runs; i++) cmds.forEach((c, k) => all[k].push(runOnce(c)));
  const ratio = (k: number, f: (r: ProcessRun) => number) => median(all[k].map((r, i) => f(r) / f(all[0][i])));
  return {
    runs: all,
    ms: all.map((rs) => median(rs.map((r) => r.ms))),
    cpuMs: all.map((rs) => median(rs.map((r) => r.cpuMs))),
    maxRssMB: all.map((rs) => Math.max(...rs.map((r) => r.maxRssMB))),
    ratioToFirst: cmds.map((_, k) => ratio(k, (r) => r.ms)),
    cpuRatioToFirst: cmds.map((_, k) => ratio(k, (r) => r.cpuMs)),
  };
}
