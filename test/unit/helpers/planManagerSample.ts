/**
 * The bench's PlanManager ledger (bench/planManagerLedger.ts) against Python
 * AutoDev's own `PlanManager`: the calls the generator makes, given to
 * bench/python/plan_manager_writer.py (real AutoDev), and the generator run again
 * with the clock values Python read, line for line. The committed sample
 * (test/fixtures/plan-manager-snapshots/) is what AutoDev wrote; run this file
 * with node (`node out/test/unit/helpers/planManagerSample.js`, AUTODEV_PY_SRC
 * and AUTODEV_PYTHON set) to record it again.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";
import { LastHead, buildEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { planToPy } from "../../../src/core/sources/autodev/plan/schemas";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import {
  PlanManagerCall,
  PlanManagerParams,
  PlanManagerSeeds,
  planManagerPlan,
  planOfTasks,
  writePlanManagerLedger,
} from "../../../bench/planManagerLedger";

/** What a sample is made from. */
export interface SampleRecipe {
  readonly params: PlanManagerParams;
  readonly seeds: PlanManagerSeeds;
  readonly session: string;
  /** Calls to make (the last step is finished). */
  readonly calls: number;
}

/** The committed sample's recipe: 5 tasks, 2 criteria and 3 files each, retries, escalations, random moves, a save. */
export const SAMPLE: SampleRecipe = {
  params: {
    plan: planOfTasks(5, { descriptionWords: 2, criteria: 2, files: 2 }),
    illegal: 0.15,
    failChance: 0.35,
    retryLimit: 3,
  },
  seeds: { plan: 0x5a3e1, calls: 0xca115 },
  session: "sess-sample-exec",
  calls: 30,
};

/** The sample's folder. */
export const SAMPLE_DIR = path.join(REPO_ROOT, "test", "fixtures", "plan-manager-snapshots");

/** The generator's lines for `recipe` with `clock` values read in turn, and the calls made. */
export function generatorLedger(
  recipe: SampleRecipe,
  clock: readonly string[],
): { text: string; calls: PlanManagerCall[]; clockRead: number } {
  let head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  const lines: string[] = [];
  let k = 0;
  const calls = writePlanManagerLedger(
    recipe.params,
    recipe.seeds,
    recipe.session,
    () => {
      if (k >= clock.length) {
        throw new Error(`the generator read the clock more often (${k + 1}) than Python (${clock.length})`);
      }
      return clock[k++];
    },
    (op, payload, session, ts) => {
      const { entry, line } = buildEntry(head, op, payload, session, ts);
      head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
      lines.push(line);
    },
    (n) => n >= recipe.calls,
  );
  return { text: lines.join(""), calls, clockRead: k };
}

/** The spec bench/python/plan_manager_writer.py runs: the plan and the generator's calls. */
export function specOf(recipe: SampleRecipe): string {
  const fake = Array.from({ length: 100_000 }, (_, i) => `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}+00:00`);
  const { calls } = generatorLedger(recipe, fake);
  // The plan as Python's json.dumps writes it (floats such as 2.0 stay floats: JSON.stringify would not keep them).
  const plan = dumpsSorted(planToPy(planManagerPlan(recipe.params, recipe.seeds)));
  const rest = JSON.stringify({
    session_id: recipe.session,
    calls: calls.map((c) =>
      c.call === "update_task_status"
        ? {
            call: c.call,
            task_id: c.taskId,
            status: c.status,
            meta: Object.fromEntries(c.meta),
            unchecked: c.unchecked,
          }
        : c.call === "save"
          ? { call: "save" }
          : { call: c.call, task_id: c.taskId },
    ),
  });
  return `{"plan": ${plan}, ${rest.slice(1)}`;
}

/** AutoDev's source and interpreter when both are given (AUTODEV_PY_SRC: its `src/`, or a checkout holding it). */
export function realAutodev(): { src: string; python: string } | null {
  const given = process.env.AUTODEV_PY_SRC;
  const python = process.env.AUTODEV_PYTHON;
  if (!given || !python) return null;
  const src = [given, path.join(given, "src")].find((d) => fs.existsSync(path.join(d, "state", "plan_manager.py")));
  return src ? { src, python } : null;
}

/** Runs real AutoDev's PlanManager on `recipe` in a fresh folder: its ledger and the clock values it read. */
export function runRealPlanManager(
  recipe: SampleRecipe,
  autodev: { src: string; python: string },
): { ledger: string; clock: string[] } {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "pm-sample-"));
  try {
    const spec = path.join(ws, "spec.json");
    fs.writeFileSync(spec, specOf(recipe));
    const r = spawnSync(autodev.python, [path.join(REPO_ROOT, "bench", "python", "plan_manager_writer.py"), ws, spec], {
      encoding: "utf8",
      env: { ...process.env, PYTHONPATH: autodev.src },
      timeout: 120_000,
    });
    if (r.status !== 0) throw new Error(`plan_manager_writer.py failed (${r.status}): ${r.stderr}`);
    const out = JSON.parse(r.stdout.trim().split("\n").pop()!) as { clock: string[] };
    return { ledger: fs.readFileSync(path.join(ws, ".autodev", "plan-ledger.jsonl"), "utf8"), clock: out.clock };
  } finally {
    fs.rmSync(ws, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const autodev = realAutodev();
  if (!autodev) throw new Error("set AUTODEV_PY_SRC and AUTODEV_PYTHON");
  const { ledger, clock } = runRealPlanManager(SAMPLE, autodev);
  fs.mkdirSync(SAMPLE_DIR, { recursive: true });
  fs.writeFileSync(path.join(SAMPLE_DIR, "plan-ledger.jsonl"), ledger);
  fs.writeFileSync(path.join(SAMPLE_DIR, "clock.json"), JSON.stringify(clock, null, 1) + "\n");
  process.stdout.write(`${SAMPLE_DIR}: ${ledger.length} bytes, ${clock.length} clock readings\n`);
}
