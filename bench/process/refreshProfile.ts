/**
 * The worker's refresh after a PlanManager append, in process (issue 34): the 100 MB
 * `plan-manager` ledger (bench/data, made as the editor bench makes it) copied to a scratch folder,
 * read once by the worker's AutoDev handler, then N appends as PlanManager's
 * `update_task_status` writes them (the status change, plan.json, the snapshot of the whole plan;
 * each by copy and rename), each followed by the refresh an editor's append sends.
 *
 *   npm run build -- --tests && node esbuild.mjs --bench && node dist/bench/refreshProfile.js [--appends N]
 *     [--baseline DIR] [--profile FILE]
 *
 * `--baseline DIR`: another checkout built the same way; its worker refreshes its own copy of the
 * same ledger after every append too, in alternating order (A B, B A, …), and the medians and the
 * ratio of the two are printed side by side. `--profile FILE`: a CPU profile (100 µs) of this
 * checkout's refreshes, with the heaviest functions by self time printed.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as inspector from "node:inspector";
import { performance } from "node:perf_hooks";
import { ensureData, ledgerOf, ROOT } from "../benchRunner";
import { generateShapeLedger } from "../generate";
import { shapeNamed } from "../ledgerShapes";
import type { Plan } from "../../src/core/sources/autodev/plan/schemas";

type Handle = (cwd: string, req: unknown, ctx: unknown) => Promise<unknown>;
interface Side {
  readonly name: string;
  readonly handle: Handle;
  readonly cwd: string;
  readonly ms: number[];
  readonly worker: number[];
}

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const say = (s: string) => process.stderr.write(s);

/** The worker's AutoDev handler of a checkout built with `--tests`. */
function handlerOf(root: string): Handle {
  const file = path.join(root, "out", "src", "core", "sources", "autodev", "worker", "autodevWorker.js");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(file) as { autodevWorker: { handle: Handle } };
  return mod.autodevWorker.handle;
}

const context = () => ({ requestId: 1, signal: new AbortController().signal, progress: () => undefined });
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

async function refresh(side: Side): Promise<Plan> {
  const t0 = performance.now();
  const r = (await side.handle(side.cwd, { type: "refresh" }, context())) as { plan: Plan; ms: number };
  side.ms.push(performance.now() - t0);
  side.worker.push(r.ms);
  return r.plan;
}

/** Self and total (inclusive) time per function over CPU profiles, the heaviest first. */
function profileTimes(profiles: inspector.Profiler.Profile[], top: number): string[] {
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const key = (id: number) => {
      const f = byId.get(id)!.callFrame;
      return `${f.functionName || "(anon)"} ${path.basename(f.url)}:${f.lineNumber + 1}`;
    };
    const dt = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const ms = (dt[i] ?? 0) / 1000;
      add(self, key(id), ms);
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) seen.add(key(n));
      for (const k of seen) add(total, k, ms);
    });
  }
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`);
  return ["self:", ...rows(self), "total:", ...rows(total)];
}

async function main(): Promise<void> {
  const appends = Number(opt("appends") ?? 20);
  const made = ensureData("shape-plan-manager-100mb", (f) => generateShapeLedger(f, shapeNamed("plan-manager"), 100e6));
  // This checkout's writer from out/ too: the plan the worker answers holds out/'s own value classes.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { appendEntry, snapshotPlan } = require(
    path.join(ROOT, "out", "src", "core", "sources", "autodev", "ledger", "ledgerWriter.js"),
  ) as typeof import("../../src/core/sources/autodev/ledger/ledgerWriter");
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-refresh-profile-"));
  const base = opt("baseline");
  const sides: Side[] = [];
  for (const [name, root] of [["this", ROOT], ...(base ? [["baseline", path.resolve(base)]] : [])]) {
    const cwd = path.join(scratch, name);
    fs.mkdirSync(path.join(cwd, ".autodev"), { recursive: true });
    fs.copyFileSync(ledgerOf(made.dir), ledgerOf(cwd));
    sides.push({ name, handle: handlerOf(root), cwd, ms: [], worker: [] });
  }
  try {
    let plan: Plan | null = null;
    for (const s of sides) {
      const p = await refresh(s);
      if (s === sides[0]) plan = p;
    }
    for (const s of sides) s.ms.length = s.worker.length = 0;
    const tasks = plan!.phases.flatMap((p) => p.tasks.map((t) => t.id));
    const writer = sides[0].cwd;
    const profiles: inspector.Profiler.Profile[] = [];
    // Profiled alone: a baseline's refreshes would be in the same profile.
    const profileFile = base ? undefined : opt("profile");
    const session = new inspector.Session();
    const post = (m: string, p?: object) =>
      new Promise<unknown>((res, rej) => session.post(m, p, (e, r) => (e ? rej(e) : res(r))));
    for (let i = 0; i < appends; i++) {
      const id = tasks[(i * 7) % tasks.length];
      const status = i % 2 === 0 ? "in_progress" : "pending";
      const next: Plan = {
        ...plan!,
        updated_at: new Date().toISOString(),
        phases: plan!.phases.map((p) => ({
          ...p,
          tasks: p.tasks.map((t) => (t.id === id ? { ...t, status } : t)),
        })),
      };
      await appendEntry(
        writer,
        "update_task_status",
        new Map([
          ["task_id", id],
          ["status", status],
        ]),
        "sess-profile",
      );
      await snapshotPlan(writer, next, "sess-profile");
      for (const s of sides.slice(1)) {
        for (const f of [ledgerOf(s.cwd), path.join(s.cwd, ".autodev", "plan.json")]) {
          const from = path.join(writer, path.relative(s.cwd, f));
          fs.copyFileSync(from, `${f}.tmp`);
          fs.renameSync(`${f}.tmp`, f);
        }
      }
      const profiling = profileFile !== undefined && i > 0;
      if (profiling) {
        if (profiles.length === 0) {
          session.connect();
          await post("Profiler.enable");
          await post("Profiler.setSamplingInterval", { interval: 100 });
        }
        await post("Profiler.start");
      }
      const order = i % 2 === 0 ? sides : [...sides].reverse();
      for (const s of order) {
        const p = await refresh(s);
        if (s === sides[0]) plan = p;
      }
      if (profiling) profiles.push(((await post("Profiler.stop")) as { profile: inspector.Profiler.Profile }).profile);
      say(".");
    }
    say("\n");
    if (profileFile && profiles.length > 0) {
      fs.writeFileSync(profileFile, JSON.stringify(profiles));
      console.log(`${profiles.length} refreshes profiled:`);
      console.log(profileTimes(profiles, 45).join("\n"));
    }
    for (const s of sides) {
      console.log(
        `${s.name.padEnd(9)} refresh p50 ${pct(s.ms, 50).toFixed(1)} / p95 ${pct(s.ms, 95).toFixed(1)} ms; worker's own p50 ${pct(s.worker, 50).toFixed(1)} / p95 ${pct(s.worker, 95).toFixed(1)} ms (${s.ms.length} appends)`,
      );
    }
    if (sides.length === 2) {
      const [a, b] = sides;
      console.log(
        `this / baseline: p50 ${(pct(a.ms, 50) / pct(b.ms, 50)).toFixed(2)}×, p95 ${(pct(a.ms, 95) / pct(b.ms, 95)).toFixed(2)}×`,
      );
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
