/**
 * The soak: Python AutoDev's PlanManager writes a ledger in bursts (bench/python/soak_writer.py) for a
 * while, with the editor's path open on it (appendCounts.ts' harness: the real adapters,
 * registry and Problems over fake vscode, the worker's dispatcher in this process; the editor's
 * watcher stood in for by `fs.watch` of `.autodev/`). Samples this process's RSS (host and worker
 * together) and times each write from the writer's return until the folder's entry count reached
 * its seq; at the end compares what the folder shows with the CLI's `verify --json`.
 */
import { spawn, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { openEditorHarness } from "./appendCounts";

const REPO = path.join(__dirname, "../../..");

/** What the soak saw. */
export interface SoakResult {
  /** [seconds since start, RSS MB, entries shown] every sample. */
  readonly rss: Array<[number, number, number]>;
  /** Write → shown latencies (ms) of the first and the last minute's writes. */
  readonly early: number[];
  readonly late: number[];
  readonly writes: number;
  /** The folder's entry count, integrity and head, and the CLI's. */
  readonly shown: { entries: number; ok: boolean | null; head: string | null };
  readonly verify: { entries: number; ok: boolean; head: string | null };
}

/** Runs the soak for `seconds` (RSS sampled every `sampleS`). */
export async function soak(seconds: number, sampleS = 30): Promise<SoakResult> {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "soak-")));
  fs.cpSync(path.join(REPO, "test/fixtures/python-small"), ws, { recursive: true });
  const h = await openEditorHarness(ws);
  const folder = () =>
    h.folders.all.find((f) => f.kind === "autodev") as unknown as
      { entries: number; report: { ok: boolean; head: { selfHash: string } | null } | null } | undefined;
  const watcher = fs.watch(path.join(ws, ".autodev"), (_e, name) => {
    if (name && !String(name).endsWith(".tmp")) h.fire(path.join(ws, ".autodev", String(name)));
  });
  const t0 = Date.now();
  const rss: Array<[number, number, number]> = [];
  const sample = () =>
    rss.push([(Date.now() - t0) / 1000, process.memoryUsage().rss / 1048576, folder()?.entries ?? 0]);
  sample();
  const sampler = setInterval(sample, sampleS * 1000);
  const pending: Array<{ seq: number; at: number }> = [];
  const latencies: Array<{ at: number; ms: number }> = [];
  const tick = setInterval(() => {
    const n = folder()?.entries ?? 0;
    while (pending.length && pending[0].seq <= n) {
      const w = pending.shift()!;
      latencies.push({ at: w.at, ms: Date.now() - w.at });
    }
  }, 5);
  const python = process.env.AUTODEV_PYTHON ?? "python3";
  const env = { ...process.env, PYTHONPATH: process.env.AUTODEV_PY_SRC ?? "" };
  const writer = spawn(python, [path.join(REPO, "bench/python/soak_writer.py"), ws, String(seconds)], {
    env,
    stdio: ["ignore", "ignore", "inherit", "pipe"],
  });
  const reports = writer.stdio[3] as NodeJS.ReadableStream;
  let writes = 0;
  for await (const line of readline.createInterface({ input: reports })) {
    const m = JSON.parse(line) as { seq?: number; at_ms?: number; done?: boolean };
    if (m.seq !== undefined && m.at_ms !== undefined) {
      writes++;
      pending.push({ seq: m.seq, at: m.at_ms });
    }
  }
  const deadline = Date.now() + 30_000;
  while (pending.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 2000));
  clearInterval(tick);
  clearInterval(sampler);
  sample();
  watcher.close();
  const f = folder();
  const shown = { entries: f?.entries ?? 0, ok: f?.report?.ok ?? null, head: f?.report?.head?.selfHash ?? null };
  const cli = JSON.parse(
    execFileSync(process.execPath, [path.join(REPO, "dist/cli.js"), "verify", "--json", ws], {
      encoding: "utf8",
      maxBuffer: 64 << 20,
    }).toString(),
  ) as { ok: boolean; entries: number; head?: { self_hash?: string; selfHash?: string } | null };
  h.dispose();
  fs.rmSync(ws, { recursive: true, force: true });
  const firstAt = latencies[0]?.at ?? 0;
  const lastAt = latencies[latencies.length - 1]?.at ?? 0;
  return {
    rss,
    early: latencies.filter((l) => l.at - firstAt < 60_000).map((l) => l.ms),
    late: latencies.filter((l) => lastAt - l.at < 60_000).map((l) => l.ms),
    writes,
    shown,
    verify: { entries: cli.entries, ok: cli.ok, head: cli.head?.self_hash ?? cli.head?.selfHash ?? null },
  };
}
