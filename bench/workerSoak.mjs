// The state worker's memory over a live run, without an editor: the real adapters, folder
// registry and Problems over the unit tests' fake `vscode` (test/helpers/appendCounts.ts), the
// built state worker in a real thread (dist/stateWorker.js), and Python AutoDev's own
// PlanManager writing (bench/python/soak_writer.py, AUTODEV_PY_SRC and AUTODEV_PYTHON). Each
// write is told as code-server's watcher tells it (the ledger and plan.json replaced); on every
// change of the folder the graph and the timeline's first page are asked for, as the open views
// ask. Every --sample seconds it prints the worker thread's heap (used / total / held from the OS)
// and this process's RSS; at the end the growth from the first minute to the last. Minutes, not
// the half hour of bench/editor/soak.mjs: for trying a change to the worker's memory quickly.
//   npm run build -- --tests && node bench/workerSoak.mjs [--seconds S] [--sample S]
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const seconds = Number(opt("--seconds", "240"));
const sampleS = Number(opt("--sample", "10"));
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(repo, "out", "x.js"));
// Fake `vscode` first: the editor modules below import it.
require(path.join(repo, "out/test/unit/helpers/fakeVscode.js"));
const { openEditorHarness } = require(path.join(repo, "out/test/helpers/appendCounts.js"));
const { StateWorkerClient } = require(path.join(repo, "out/src/extension/stateWorkerClient.js"));
const { OutputLog } = require(path.join(repo, "out/src/extension/outputLog.js"));
const { EMPTY_FILTER } = require(path.join(repo, "out/src/core/timeline/timelineQuery.js"));
if (!process.env.AUTODEV_PY_SRC) throw new Error("set AUTODEV_PY_SRC (AutoDev's src/) and AUTODEV_PYTHON");

// The client unrefs its thread (it must not keep an editor's host alive): this keeps the bench's.
const keepAlive = setInterval(() => undefined, 1000);
const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "worker-soak-")));
fs.cpSync(path.join(repo, "test/fixtures/python-small"), ws, { recursive: true });
const worker = new StateWorkerClient(new OutputLog(), () => 256 << 20, path.join(repo, "dist", "stateWorker.js"));
const h = await openEditorHarness(ws, worker);
const mb = (b) => b / 2 ** 20;
const f0 = (n) => n.toFixed(0);

// The open views: the graph and the timeline's first page on each change, one at a time each.
const views = { busy: false, again: false, loads: 0 };
const query = { filter: EMPTY_FILTER, foldSnapshots: true, timeZone: "UTC" };
const loadViews = async () => {
  if (views.busy) return void (views.again = true);
  views.busy = true;
  const f = h.folders.all[0];
  await Promise.all([
    worker.request({ type: "graph", cwd: ws }),
    f &&
      worker.request({
        type: "timelinePage",
        cwd: f.cwd,
        kind: f.kind,
        settings: f.settings,
        query,
        offset: 0,
        limit: 200,
        anchorRowId: null,
        locateRowId: null,
        facets: true,
      }),
  ]).catch(() => undefined);
  views.loads++;
  views.busy = false;
  if (views.again) {
    views.again = false;
    void loadViews();
  }
};
h.folders.onDidChange(() => void loadViews());

const samples = [];
const t0 = Date.now();
const sample = async () => {
  const w = await worker.request({ type: "memory" });
  const s = { t: (Date.now() - t0) / 1000, used: mb(w.heapUsed), total: mb(w.heapTotal), held: mb(w.physical) };
  s.rss = mb(process.memoryUsage().rss);
  s.entries = h.folders.all[0]?.entries ?? 0;
  samples.push(s);
  console.log(
    `  ${f0(s.t).padStart(5)} s  worker used ${f0(s.used).padStart(4)}  total ${f0(s.total).padStart(4)}  held ${f0(s.held).padStart(4)} MB   process RSS ${f0(s.rss).padStart(4)} MB   entries ${s.entries}`,
  );
};
const sampler = setInterval(() => void sample(), sampleS * 1000);
await sample();
const writer = spawn(
  process.env.AUTODEV_PYTHON ?? "python3",
  [path.join(repo, "bench/python/soak_writer.py"), ws, String(seconds)],
  { env: { ...process.env, PYTHONPATH: process.env.AUTODEV_PY_SRC }, stdio: ["ignore", "ignore", "inherit", "pipe"] },
);
let writes = 0;
for await (const line of readline.createInterface({ input: writer.stdio[3] })) {
  if (JSON.parse(line).seq === undefined) continue;
  writes++;
  h.fire(path.join(ws, ".autodev", "plan-ledger.jsonl"));
  h.fire(path.join(ws, ".autodev", "plan.json"));
}
await new Promise((r) => setTimeout(r, 3000));
clearInterval(sampler);
await sample();
const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first = samples.filter((s) => s.t >= 30 && s.t <= 90);
const last = samples.filter((s) => s.t >= samples[samples.length - 1].t - 60);
for (const key of ["held", "total", "used", "rss"]) {
  const a = med(first.map((s) => s[key]));
  const b = med(last.map((s) => s[key]));
  console.log(`${key}: ${f0(a)} → ${f0(b)} MB (${b >= a ? "+" : ""}${f0(b - a)}) from t 30–90 s to the last minute`);
}
console.log(`${writes} writes, ${views.loads} view loads, requests ${JSON.stringify(Object.fromEntries(h.requests))}`);
clearInterval(keepAlive);
h.dispose();
worker.dispose();
fs.rmSync(ws, { recursive: true, force: true });
process.exit(0);
