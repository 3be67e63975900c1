/**
 * `npm run bench:graph`: what the plan graph and the run report cost, as ratios against a
 * reference measured in the same run (the machines are shared; absolute times are noise):
 *
 * - the graph of the benchmark's 500-task plan (20 phases, chained `depends_on`): build, analyse
 *   (components, cycles, critical path, blocked chains) and render DOT + Mermaid, against
 *   validating the same plan (what every read of the ledger does anyway);
 * - the same at 5 000 tasks, to show it stays linear;
 * - `report --format json` of a ~100 MB ledger in a fresh process, its wall time and peak RSS
 *   against `verify` of the same ledger (the streaming pass the report rides on).
 *
 * Options: --mb N (ledger size, default 100), --runs N (default 3).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { generateShapeLedger, generateSmallEntriesLedger } from "./generate";
import { benchPlan } from "./benchPlan";
import { shapeNamed } from "./ledgerShapes";
import { SeededRandom } from "../src/core/seededRandom";
import { planToPy, validatePlan } from "../src/core/sources/autodev/plan/schemas";
import { planGraphParts } from "../src/core/sources/autodev/autodevGraph";
import { buildPlanGraph } from "../src/core/graph/planGraph";
import { analyzeGraph } from "../src/core/graph/graphAnalysis";
import { graphToDot, graphToMermaid } from "../src/core/graph/graphText";
import { layoutGraph } from "../src/core/graph/graphLayout";
import { toPyDeep } from "../src/core/pyjson/toPyDeep";

const ROOT = path.resolve(__dirname, "../..");
const DATA = path.join(ROOT, "bench", "data");
const CLI = path.join(ROOT, "dist", "cli.js");

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeIt(runs: number, f: () => void): number {
  f(); // warm up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

function graphRow(phases: number, perPhase: number): string {
  const plan = benchPlan(new SeededRandom(7), { phases, tasksPerPhase: perPhase, descriptionWords: 21 });
  const py = toPyDeep(
    JSON.parse(JSON.stringify(planToPy(plan), (_k, v) => (v instanceof Map ? Object.fromEntries(v) : v))),
  );
  const ref = timeIt(20, () => validatePlan(py));
  const graph = timeIt(20, () => {
    const g = buildPlanGraph({ kind: "autodev", path: ".autodev", ...planGraphParts(plan) });
    const a = analyzeGraph(g);
    graphToDot(g, a);
    graphToMermaid(g, a);
  });
  const n = phases * perPhase;
  const g = buildPlanGraph({ kind: "autodev", path: ".autodev", ...planGraphParts(plan) });
  const runs = n > 1000 ? 3 : 10;
  const laid = timeIt(runs, () => layoutGraph(g));
  const flat = timeIt(runs, () => layoutGraph(g, { groups: false }));
  return [
    `| graph of ${n} tasks (build + analyse + DOT + Mermaid) | ${graph.toFixed(2)} ms | validatePlan ${ref.toFixed(2)} ms | ${(graph / ref).toFixed(2)}× |`,
    `| layout of ${n} tasks with ${phases} phase boxes (dagre) | ${laid.toFixed(0)} ms | validatePlan ${ref.toFixed(2)} ms | ${(laid / ref).toFixed(1)}× |`,
    `| layout of ${n} tasks, no phase boxes (dagre) | ${flat.toFixed(0)} ms | validatePlan ${ref.toFixed(2)} ms | ${(flat / ref).toFixed(1)}× |`,
  ].join("\n");
}

/** Wall ms and peak RSS (MB) of one CLI run, via GNU time. */
function cliRun(args: string[]): { ms: number; mb: number; code: number } {
  const t = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, CLI, ...args], {
    encoding: "utf8",
    maxBuffer: 256 << 20,
  });
  const ms = performance.now() - t;
  const kb = Number(r.stderr.trim().split("\n").pop());
  return { ms, mb: kb / 1024, code: r.status ?? -1 };
}

function main(argv: string[]): void {
  const opt = (name: string, d: number) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? Number(argv[i + 1]) : d;
  };
  const mb = opt("mb", 100);
  const runs = opt("runs", 3);
  const rows = ["| measurement | ours | reference | ratio |", "| --- | ---: | ---: | ---: |"];
  rows.push(graphRow(20, 25), ...(argv.includes("--graph-only") ? [] : [graphRow(50, 100)]));
  if (argv.includes("--graph-only")) {
    process.stdout.write(rows.join("\n") + "\n");
    return;
  }
  const shapes = [
    { name: "snapshots", gen: (f: string) => generateShapeLedger(f, shapeNamed("lifecycle"), mb * 1024 * 1024) },
    { name: "small entries", gen: (f: string) => generateSmallEntriesLedger(f, Math.round((mb * 1024 * 1024) / 290)) },
  ];
  for (const shape of shapes) {
    const dir = path.join(DATA, `report-${shape.name.replace(/ /g, "-")}-${mb}mb`);
    const ledger = path.join(dir, ".autodev", "plan-ledger.jsonl");
    if (!fs.existsSync(ledger)) {
      process.stderr.write(`generating a ${mb} MB ledger of ${shape.name} in ${dir}…\n`);
      shape.gen(ledger);
    }
    const size = fs.statSync(ledger).size / (1024 * 1024);
    const rep: { ms: number; mb: number }[] = [];
    const ver: { ms: number; mb: number }[] = [];
    for (let i = 0; i < runs; i++) {
      ver.push(cliRun(["verify", dir]));
      rep.push(cliRun(["report", dir, "--format", "json"]));
    }
    const [rMs, vMs] = [median(rep.map((r) => r.ms)), median(ver.map((r) => r.ms))];
    const [rMb, vMb] = [Math.max(...rep.map((r) => r.mb)), Math.max(...ver.map((r) => r.mb))];
    const what = `report --format json, ${size.toFixed(0)} MB ledger of ${shape.name}`;
    rows.push(
      `| ${what}: wall | ${(rMs / 1000).toFixed(2)} s | verify ${(vMs / 1000).toFixed(2)} s | ${(rMs / vMs).toFixed(2)}× |`,
      `| ${what}: peak RSS | ${rMb.toFixed(0)} MB | verify ${vMb.toFixed(0)} MB | ${(rMb / vMb).toFixed(2)}× |`,
    );
  }
  process.stdout.write(rows.join("\n") + "\n");
}

main(process.argv.slice(2));
