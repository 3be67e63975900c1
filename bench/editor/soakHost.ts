/**
 * The soak inside a real VS Code's extension host (code-server; loaded as `extensionTestsPath` by
 * bench/editor/run.mjs with AUTODEV_EDITOR_HOST=soakHost.js, started by bench/editor/soak.mjs; not
 * part of `npm test`). The extension activates on the workspace's AutoDev folder as it does for a
 * user (its state worker is a thread of this process, its watcher is code-server's); the Plan
 * view, the plan graph and the timeline are opened (graph and timeline side by side, both
 * visible), then Python AutoDev's own `PlanManager.update_task_status` (bench/python/soak_writer.py)
 * writes status changes in bursts for AUTODEV_SOAK_SECONDS. Measured, nothing in the extension
 * changed for it:
 * - every AUTODEV_SOAK_SAMPLE_S: this process's RSS (host thread + state worker), the host thread's
 *   V8 heap, the state worker thread's V8 heap (its `memory` request), the process's CPU (all threads) and the host thread's busy share since the last sample;
 * - each write, from the writer's clock right after `update_task_status` returned, until the tree
 *   was told to repaint (`onDidChangeTreeData`) with the folder's entry count at its seq, and until
 *   the timeline webview reported a paint whose total reached it (one row per status change: the
 *   plan snapshot PlanManager appends after each is not a row, so the n-th write is row total₀ + n);
 * - the worker requests the host sent, by type (round trips per write);
 * - at the end, what the folder shows against the CLI's `verify --json`.
 * Writes the figures as JSON to AUTODEV_EDITOR_BENCH_OUT.
 */
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import * as readline from "node:readline";
import * as v8 from "node:v8";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import type { AutodevApi } from "../../src/extension/sources/autodev/autodevAdapter";
import type { WorkerMemory } from "../../src/core/worker/workerProtocol";
import type { TimelineController } from "../../src/extension/timeline/timelineController";
import type { StateWorkerClient, WorkerAnswer } from "../../src/extension/stateWorkerClient";
import { sleep, until as waitUntil } from "./hostWait";

const EXTENSION_ID = "autodev-state.autodev-state";
const REPO = path.join(__dirname, "..", "..", "..");

/** Polls `check` every 10 ms until true (or throws after `timeoutMs`). */
const until = (check: () => boolean, timeoutMs: number, what: string): Promise<void> =>
  waitUntil(check, timeoutMs, what, 10);

/** One sample of the host process. */
interface Sample {
  /** Seconds since the writer started. */
  t: number;
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
  /** Memory the host thread's V8 heap holds from the OS (its part of the RSS). */
  hostPhysicalMB: number;
  /** The state worker thread's V8 heap: used, total and held from the OS (the `memory` request). */
  workerHeapUsedMB: number | null;
  workerHeapTotalMB: number | null;
  workerPhysicalMB: number | null;
  /** Cores the whole process used since the last sample (user + system, all threads). */
  cpuCores: number;
  /** Share of the host thread's time it was busy since the last sample. */
  hostBusy: number;
  /** The folder's entry count at the sample. */
  entries: number;
}

type WorkerRequestFn = (req: { type: string }, ...r: unknown[]) => unknown;
/** What of the client the soak reads (`onDidAnswer` only where the build has it: an A/B against an older one). */
type SoakWorker = Pick<StateWorkerClient, "onLiveFile"> & {
  request: WorkerRequestFn;
  onDidAnswer?: StateWorkerClient["onDidAnswer"];
};

/** The host's state worker client (the folder registry's). */
function workerOf(api: StateApi): SoakWorker {
  return (api.folders as unknown as { worker: SoakWorker }).worker;
}

/** Counts each worker request the host sends, by type (sources' requests as `kind.type`); `memory` (the bench's own) is not counted. */
function countRequests(api: StateApi): { counts: Record<string, number>; reset: () => void } {
  const counts: Record<string, number> = {};
  const worker = workerOf(api);
  const request = worker.request.bind(worker);
  worker.request = (req, ...rest) => {
    const src = req as unknown as { kind?: string; request?: { type: string } };
    const type = req.type === "source" ? `${src.kind}.${src.request?.type}` : req.type;
    if (type !== "memory") counts[type] = (counts[type] ?? 0) + 1;
    return request(req, ...rest);
  };
  return { counts, reset: () => Object.keys(counts).forEach((k) => delete counts[k]) };
}

/** The CLI's `verify --json` of `cwd`. */
function verify(cwd: string): Promise<{ entries: number; ok: boolean; head: string | null }> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [path.join(REPO, "dist", "cli.js"), "verify", "--json", cwd],
      { maxBuffer: 64 << 20, env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } },
      (err, stdout) => {
        if (err && !stdout) return reject(err);
        const v = JSON.parse(stdout) as { ok: boolean; entries: number; head?: { self_hash?: string } | null };
        resolve({ entries: v.entries, ok: v.ok, head: v.head?.self_hash ?? null });
      },
    ),
  );
}

/** Opens the Plan view, the graph and (in a new group to the right) the timeline on `uri`. */
async function openViews(api: StateApi, uri: string): Promise<TimelineController> {
  await vscode.commands.executeCommand("autodev.plan.focus");
  await until(() => api.treeView.visible, 30_000, "the Plan view");
  await vscode.commands.executeCommand("autodev.showGraph", uri);
  await until(() => api.graph.rendered !== null, 60_000, "the graph's first paint");
  await vscode.commands.executeCommand("workbench.action.newGroupRight");
  const ctrl = (await vscode.commands.executeCommand("autodev.showTimeline", uri)) as TimelineController;
  await until(() => (ctrl.lastRendered?.rows ?? 0) > 0, 60_000, "the timeline's first paint");
  return ctrl;
}

/** VS Code calls this (extensionTestsPath). */
export async function run(): Promise<void> {
  const out = process.env.AUTODEV_EDITOR_BENCH_OUT;
  if (!out) throw new Error("AUTODEV_EDITOR_BENCH_OUT is not set");
  const seconds = Number(process.env.AUTODEV_SOAK_SECONDS ?? 1800);
  const sampleS = Number(process.env.AUTODEV_SOAK_SAMPLE_S ?? 30);
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const api = (await ext.activate()) as StateApi;
  const autodev = api.adapters.autodev as AutodevApi;
  await until(() => (autodev.folders.folders[0]?.report ?? null) !== null, 120_000, "the ledger verified");
  const folder = autodev.folders.folders[0];
  const ctrl = await openViews(api, folder.folder.uri.toString());
  let graphLoads = 0;
  const graphSub = api.graph.onDidLoad(() => graphLoads++);
  await sleep(2000);
  const worker = workerOf(api);
  const requests = countRequests(api);
  // The breakdown (bench/editor/soakBreakdown.mjs): every answer with its times, every live-file event, every tree repaint (ms, epoch).
  const epoch = Date.now() - performance.now();
  const answers: Array<[string, number, number, number | null, number | null]> = [];
  const answerSub = worker.onDidAnswer?.((a: WorkerAnswer) =>
    answers.push([a.label, a.sentAt + epoch, a.answeredAt + epoch, a.timing?.waitMs ?? null, a.timing?.runMs ?? null]),
  );
  const liveEvents: number[] = [];
  const liveSub = worker.onLiveFile(() => liveEvents.push(Date.now()));
  const treeFires: number[] = [];

  // Writes not yet shown (seq, writer's time), and the latencies of those shown: [writer time, ms].
  const pendingTree: Array<{ seq: number; at: number }> = [];
  const pendingTimeline: Array<{ seq: number; at: number }> = [];
  const tree: Array<[number, number]> = [];
  const timeline: Array<[number, number]> = [];
  const settle = (pending: typeof pendingTree, shown: number, into: typeof tree) => {
    const now = Date.now();
    while (pending.length && pending[0].seq <= shown) {
      const w = pending.shift()!;
      into.push([w.at, now - w.at]);
    }
  };
  const treeSub = api.tree.onDidChangeTreeData(() => {
    treeFires.push(Date.now());
    settle(pendingTree, folder.entries, tree);
  });
  const timelinePoll = setInterval(() => settle(pendingTimeline, ctrl.lastRendered?.total ?? 0, timeline), 10);

  const samples: Sample[] = [];
  let t0 = Date.now();
  let cpu0 = process.cpuUsage();
  let wall0 = performance.now();
  let elu0 = performance.eventLoopUtilization();
  const sample = () => {
    const m = process.memoryUsage();
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - wall0;
    const mb = (b: number) => b / 2 ** 20;
    samples.push({
      t: (Date.now() - t0) / 1000,
      rssMB: mb(m.rss),
      heapUsedMB: mb(m.heapUsed),
      heapTotalMB: mb(m.heapTotal),
      externalMB: mb(m.external),
      hostPhysicalMB: mb(v8.getHeapStatistics().total_physical_size),
      workerHeapUsedMB: null,
      workerHeapTotalMB: null,
      workerPhysicalMB: null,
      cpuCores: wall > 0 ? (cpu.user + cpu.system) / 1000 / wall : 0,
      hostBusy: performance.eventLoopUtilization(elu0).utilization,
      entries: folder.entries,
    });
    const taken = samples[samples.length - 1];
    void (worker.request({ type: "memory" }) as Promise<WorkerMemory>).then(
      (w) => {
        taken.workerHeapUsedMB = mb(w.heapUsed);
        taken.workerHeapTotalMB = mb(w.heapTotal);
        taken.workerPhysicalMB = mb(w.physical);
      },
      () => undefined,
    );
    cpu0 = process.cpuUsage();
    wall0 = performance.now();
    elu0 = performance.eventLoopUtilization();
  };

  const writer = spawn(
    process.env.AUTODEV_PYTHON ?? "python3",
    [path.join(REPO, "bench", "python", "soak_writer.py"), folder.cwd, String(seconds)],
    {
      env: { ...process.env, PYTHONPATH: process.env.AUTODEV_PY_SRC ?? "" },
      stdio: ["ignore", "ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  writer.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((r) => writer.on("exit", (code) => r(code)));
  t0 = Date.now();
  sample();
  const sampler = setInterval(sample, sampleS * 1000);
  let writes = 0;
  const rows0 = ctrl.lastRendered?.total ?? 0;
  for await (const line of readline.createInterface({ input: writer.stdio[3] as NodeJS.ReadableStream })) {
    const m = JSON.parse(line) as { seq?: number; at_ms?: number };
    if (m.seq === undefined || m.at_ms === undefined) continue;
    writes++;
    pendingTree.push({ seq: m.seq, at: m.at_ms });
    pendingTimeline.push({ seq: rows0 + writes, at: m.at_ms });
  }
  const code = await exited;
  if (code !== 0) throw new Error(`the writer exited with ${code}: ${stderr}`);
  const writtenFor = (Date.now() - t0) / 1000;
  await until(() => pendingTree.length === 0 && pendingTimeline.length === 0, 60_000, "the last writes shown").catch(
    () => undefined,
  );
  await sleep(3000);
  clearInterval(sampler);
  clearInterval(timelinePoll);
  sample();
  treeSub.dispose();
  graphSub.dispose();
  answerSub?.dispose();
  liveSub.dispose();
  const result = {
    vscode: vscode.version,
    node: process.version,
    seconds,
    writtenFor,
    writes,
    samples,
    tree,
    timeline,
    unshown: { tree: pendingTree.length, timeline: pendingTimeline.length },
    requests: requests.counts,
    trace: { answers, liveEvents, treeFires },
    graphLoads,
    timelineRendered: ctrl.lastRendered ? { total: ctrl.lastRendered.total, rows: ctrl.lastRendered.rows } : null,
    shown: { entries: folder.entries, ok: folder.report?.ok ?? null, head: folder.report?.head?.selfHash ?? null },
    verify: await verify(folder.cwd),
  };
  fs.writeFileSync(out, JSON.stringify(result));
}
