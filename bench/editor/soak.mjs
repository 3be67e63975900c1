// The soak in a real editor (issue 30): code-server with this extension on a copy of
// test/fixtures/python-small, the Plan view, the plan graph and the timeline open, while Python
// AutoDev's own PlanManager writes status changes in bursts (8 back to back, then 1 s) for
// --minutes M (default 30). bench/editor/soakHost.ts measures inside the extension host; this prints
// the host's RSS / heap curve, write → tree and write → timeline latencies early and late, the
// worker round trips per write, the final state against `verify --json`, and a flat / not-flat
// verdict against the first minutes. It also samples the CPU of everything it started (code-server,
// its extension host, Chromium, the writer), to say whether it may run outside the heavy lock.
//
//   node esbuild.mjs --bench && node bench/editor/soak.mjs [--minutes M] [--sample S] [--keep FILE]
// Needs AUTODEV_PY_SRC (AutoDev's src) and AUTODEV_PYTHON; AUTODEV_CACHE_DIR as for the integration tests.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../scripts/vscode-server.mjs";
import { printBreakdown } from "./soakBreakdown.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const minutes = Number(opt("--minutes", "30"));
const sampleS = Number(opt("--sample", String(Math.min(30, Math.max(5, (minutes * 60) / 40)))));
/** Warm-up excluded from the verdict; "first minutes": the next two (or the next fifth of a short run). */
const WARM_S = Math.min(60, (minutes * 60) / 10);
const FIRST_S = Math.min(120, (minutes * 60) / 5);

const work = realpathSync(mkdtempSync(join(tmpdir(), "autodev-soak-")));
const ws = join(work, "python-small");
cpSync(join(ROOT, "test", "fixtures", "python-small"), ws, { recursive: true });
const resultFile = join(work, "result.json");
const workspaceFile = join(work, "soak.code-workspace");
writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: ws }] }));

/** CPU seconds (user + system) of `root` and every live descendant, from /proc. */
function treeCpuSeconds(root) {
  const kids = new Map();
  const cpu = new Map();
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ppid = Number(f[1]);
      cpu.set(Number(pid), (Number(f[11]) + Number(f[12])) / 100);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(pid)]);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const todo = [root]; todo.length;) {
    const pid = todo.pop();
    total += cpu.get(pid) ?? 0;
    todo.push(...(kids.get(pid) ?? []));
  }
  return total;
}

const child = spawn(process.execPath, [join(ROOT, "bench", "editor", "run.mjs"), workspaceFile, resultFile], {
  env: {
    ...process.env,
    AUTODEV_EDITOR_HOST: "soakHost.js",
    AUTODEV_SOAK_SECONDS: String(minutes * 60),
    AUTODEV_SOAK_SAMPLE_S: String(sampleS),
    AUTODEV_EDITOR_TIMEOUT_MS: String(minutes * 60_000 + 600_000),
  },
  stdio: "inherit",
});
const cpuCurve = [];
const loads = [];
const loadTimer = setInterval(() => loads.push(Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0])), 10_000);
const started = Date.now();
let lastCpu = 0;
const cpuTimer = setInterval(() => {
  const now = treeCpuSeconds(child.pid);
  cpuCurve.push([(Date.now() - started) / 1000, Math.max(0, now - lastCpu) / sampleS]);
  lastCpu = Math.max(lastCpu, now);
}, sampleS * 1000);
const code = await new Promise((r) => child.on("exit", r));
clearInterval(cpuTimer);
clearInterval(loadTimer);
if (code !== 0) {
  console.error(`soak: the editor run failed (exit ${code}); workspace kept in ${work}`);
  process.exit(1);
}
const r = JSON.parse(readFileSync(resultFile, "utf8"));
if (opt("--keep", null)) writeFileSync(opt("--keep"), JSON.stringify(r, null, 1));
rmSync(work, { recursive: true, force: true });

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
const median = (xs) => pct(xs, 50);
const f0 = (x) => (Number.isFinite(x) ? x.toFixed(0) : "-");
const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : "-");

console.log(
  `soak in code-server (VS Code ${r.vscode}, Node ${r.node}): ${minutes} min, ${r.writes} writes by AutoDev's PlanManager`,
);
console.log(
  `  Plan view, plan graph and timeline open; graph repainted ${r.graphLoads} times, timeline last painted ${JSON.stringify(r.timelineRendered)}`,
);
console.log(
  "extension host over time (RSS: host thread + state worker, one process; host / worker: each thread's V8 heap used, total, held from the OS; other: RSS less both helds):",
);
console.log(
  "      t s   RSS MB  host used/total/held  worker used/total/held  other MB  external  process cores  host busy  entries",
);
const trio = (u, t, p) => (u === null || u === undefined ? "—" : `${f0(u)}/${f0(t)}/${f0(p)}`);
for (const s of r.samples) {
  const other =
    s.workerPhysicalMB === null || s.workerPhysicalMB === undefined
      ? null
      : s.rssMB - s.hostPhysicalMB - s.workerPhysicalMB;
  console.log(
    `  ${f0(s.t).padStart(7)}  ${f1(s.rssMB).padStart(7)}  ${trio(s.heapUsedMB, s.heapTotalMB, s.hostPhysicalMB).padStart(20)}  ${trio(s.workerHeapUsedMB, s.workerHeapTotalMB, s.workerPhysicalMB).padStart(22)}  ${(other === null ? "—" : f1(other)).padStart(8)}  ${f1(s.externalMB).padStart(8)}  ${s.cpuCores.toFixed(2).padStart(13)}  ${(s.hostBusy * 100).toFixed(1).padStart(8)} %  ${s.entries}`,
  );
}
const end = r.samples[r.samples.length - 1].t;
const inSpan = (from, to) => r.samples.filter((s) => s.t >= from && s.t <= to);
const first = inSpan(WARM_S, WARM_S + FIRST_S);
const last = inSpan(end - FIRST_S, end);
const growth = (key) => median(last.map((s) => s[key])) - median(first.map((s) => s[key]));
const rssGrowth = growth("rssMB");
const heapGrowth = growth("heapUsedMB");
const withWorker = (span) => span.filter((s) => s.workerPhysicalMB !== null && s.workerPhysicalMB !== undefined);
const workerGrowth =
  withWorker(first).length && withWorker(last).length
    ? median(withWorker(last).map((s) => s.workerPhysicalMB)) - median(withWorker(first).map((s) => s.workerPhysicalMB))
    : null;
console.log(
  `memory: median of t ${f0(WARM_S)}–${f0(WARM_S + FIRST_S)} s against the last ${f0(FIRST_S)} s: RSS ${f1(median(first.map((s) => s.rssMB)))} → ${f1(median(last.map((s) => s.rssMB)))} MB (${rssGrowth >= 0 ? "+" : ""}${f1(rssGrowth)}), host heap used ${f1(median(first.map((s) => s.heapUsedMB)))} → ${f1(median(last.map((s) => s.heapUsedMB)))} MB (${heapGrowth >= 0 ? "+" : ""}${f1(heapGrowth)}), worker heap held ${workerGrowth === null ? "not read" : `${workerGrowth >= 0 ? "+" : ""}${f1(workerGrowth)} MB`}`,
);
const lat = (pairs, from, to) => pairs.filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
const t0w = Math.min(...r.tree.map(([at]) => at));
const t1w = Math.max(...r.tree.map(([at]) => at));
const lines = [];
for (const [name, pairs] of [
  ["tree", r.tree],
  ["timeline", r.timeline],
]) {
  const early = lat(pairs, t0w + WARM_S * 1000, t0w + (WARM_S + FIRST_S) * 1000);
  const late = lat(pairs, t1w - FIRST_S * 1000, t1w);
  const all = pairs.map(([, ms]) => ms);
  console.log(
    `write → ${name}: all p50 ${f0(pct(all, 50))} / p95 ${f0(pct(all, 95))} ms (${all.length}); first minutes p50 ${f0(pct(early, 50))} / p95 ${f0(pct(early, 95))} (${early.length}); last p50 ${f0(pct(late, 50))} / p95 ${f0(pct(late, 95))} (${late.length})`,
  );
  lines.push({ name, early: pct(early, 95), late: pct(late, 95) });
}
console.log(`  not shown within 60 s of the writer's end: ${JSON.stringify(r.unshown)}`);
const perWrite = Object.entries(r.requests).map(([k, n]) => `${k} ${(n / r.writes).toFixed(2)}`);
const total = Object.values(r.requests).reduce((a, n) => a + n, 0);
console.log(
  `worker round trips per write: ${(total / r.writes).toFixed(2)} (${perWrite.join(", ")}); writes come in bursts, so one refresh often covers several`,
);
printBreakdown(r);
const cores = cpuCurve.map(([, c]) => c);
console.log(
  `CPU of everything started (code-server, extension host, Chromium, writer): mean ${f1(cores.reduce((a, c) => a + c, 0) / Math.max(1, cores.length))} cores, max ${f1(Math.max(...cores))} (${cores.length} samples)`,
);
console.log(
  `machine load (1-min average, every 10 s): median ${f1(median(loads))}, min ${f1(Math.min(...loads))}, max ${f1(Math.max(...loads))}`,
);
const sameState = r.shown.entries === r.verify.entries && r.shown.ok === r.verify.ok && r.shown.head === r.verify.head;
console.log(
  `final: shown ${JSON.stringify(r.shown)}; verify ${JSON.stringify(r.verify)} → ${sameState ? "same" : "DIFFERENT"}`,
);
// Flat: the issue's "growth ≤ 32 MB after warm-up"; no drift: the last minutes' p95 within 1.5× (or 100 ms) of the first minutes'.
const memFlat = rssGrowth <= 32;
const drift = lines.filter((l) => l.late > Math.max(l.early * 1.5, l.early + 100));
console.log(
  `verdict: memory ${memFlat ? "FLAT" : "NOT FLAT"} (RSS growth ${f1(rssGrowth)} MB, limit 32), latency ${drift.length ? `DRIFTS (${drift.map((l) => `${l.name} p95 ${f0(l.early)} → ${f0(l.late)} ms`).join(", ")})` : "no drift"} (p95 late ≤ max(1.5× early, early + 100 ms))`,
);
process.exit(0);
