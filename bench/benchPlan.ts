/**
 * The plans the benchmark ledgers start from: deterministic (a seeded PRNG),
 * sized by their parameters (phases, tasks per phase, words per description),
 * with the fields a real AutoDev plan carries (acceptance criteria, files,
 * dependencies, metadata with ints, floats and lists).
 */
import { Plan, validatePlan } from "../src/core/sources/autodev/plan/schemas";
import { PyFloat, PyObject, PyValue } from "../src/core/pyjson/pyValue";
import { SeededRandom } from "../src/core/seededRandom";

/** Words the generated texts are made of. */
export const WORDS = [
  "parser",
  "ledger",
  "snapshot",
  "config",
  "loader",
  "cache",
  "index",
  "timeline",
  "renderer",
  "schema",
  "validator",
  "retry",
  "budget",
  "guardrail",
  "adapter",
  "session",
  "worker",
  "queue",
  "report",
  "diff",
  "evidence",
  "reviewer",
  "tournament",
  "judge",
  "planner",
  "executor",
  "lock",
  "writer",
  "reader",
  "metrics",
];
const VERBS = ["Add", "Refactor", "Harden", "Document", "Test", "Wire up", "Split", "Speed up", "Validate", "Migrate"];
const SPICE = ["", "", "", "", " — follow-up", " (naïve version first)", " für Übersetzungen", " 日本語"];

/** A sentence of `words` words. */
export function sentence(r: SeededRandom, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(r.pick(WORDS));
  const s = out.join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1) + ".";
}

/** A text of about `bytes` characters (for payload sizes). */
export function textOf(r: SeededRandom, bytes: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = r.pick(WORDS);
    out.push(w);
    n += w.length + 1;
  }
  return out.join(" ").slice(0, bytes);
}

/** The size of a generated plan. */
export interface PlanSize {
  readonly phases: number;
  readonly tasksPerPhase: number;
  /** Mean words of a task's description (the snapshot line's size scales with it). */
  readonly descriptionWords: number;
  /** Acceptance criteria of every task (default: 1–3 at random). */
  readonly criteria?: number;
  /** Files of every task (default: 2). */
  readonly files?: number;
}

/** The 500-task, 20-phase plan of the original benchmark (about 390 KB a snapshot). */
export const PLAN_500: PlanSize = { phases: 20, tasksPerPhase: 25, descriptionWords: 21 };

/** A task's files: a source and a test file, or `count` of them (sources, then one test file in three). */
function filesOf(r: SeededRandom, count: number | undefined): PyValue[] {
  if (count === undefined) return [`src/${r.pick(WORDS)}/${r.pick(WORDS)}.py`, `tests/test_${r.pick(WORDS)}.py`];
  return Array.from({ length: count }, (_, k) =>
    k % 3 === 2 ? `tests/test_${r.pick(WORDS)}_${k}.py` : `src/${r.pick(WORDS)}/${r.pick(WORDS)}_${k}.py`,
  );
}

/** A plan of `size` with every task pending. */
export function benchPlan(r: SeededRandom, size: PlanSize = PLAN_500): Plan {
  const { phases, tasksPerPhase } = size;
  const spread = Math.max(1, Math.round(size.descriptionWords * 0.7));
  const minWords = Math.max(1, size.descriptionWords - (spread >> 1));
  const phaseList: PyValue[] = [];
  for (let p = 1; p <= phases; p++) {
    const tasks: PyValue[] = [];
    for (let t = 1; t <= tasksPerPhase; t++) {
      const id = `${p}.${t}`;
      const deps: PyValue[] = t > 1 ? [`${p}.${t - 1}`] : p > 1 ? [`${p - 1}.${tasksPerPhase}`] : [];
      if (r.chance(0.3) && t > 2) deps.push(`${p}.${1 + r.below(t - 1)}`);
      const acceptance: PyValue[] = [];
      const nAcc = size.criteria ?? 1 + r.below(3);
      for (let a = 0; a < nAcc; a++) {
        acceptance.push(
          new Map<string, PyValue>([
            ["id", `${id}-${String.fromCharCode(97 + a)}`],
            ["description", sentence(r, 6 + r.below(6))],
            ["met", false],
          ]),
        );
      }
      const metadata: PyObject = new Map<string, PyValue>([["priority", r.pick(["low", "medium", "high"])]]);
      if (r.chance(0.5)) {
        metadata.set("estimate_h", r.chance(0.5) ? 1 + r.below(8) : new PyFloat((1 + r.below(16)) / 4));
      }
      if (r.chance(0.1)) metadata.set("labels", [r.pick(WORDS), r.pick(WORDS)]);
      tasks.push(
        new Map<string, PyValue>([
          ["id", id],
          ["phase_id", String(p)],
          ["title", `${r.pick(VERBS)} the ${r.pick(WORDS)} ${r.pick(WORDS)}${r.pick(SPICE)}`],
          ["description", sentence(r, minWords + r.below(spread))],
          ["status", "pending"],
          ["files", filesOf(r, size.files)],
          ["acceptance", acceptance],
          ["depends_on", deps],
          ["retry_count", 0],
          ["escalated", false],
          ["assigned_agent", r.chance(0.6) ? "developer" : null],
          ["evidence_bundle", null],
          ["blocked_reason", null],
          ["metadata", metadata],
        ]),
      );
    }
    phaseList.push(
      new Map<string, PyValue>([
        ["id", String(p)],
        ["title", `Phase ${p}: ${r.pick(WORDS)} work`],
        ["description", sentence(r, 8)],
        ["tasks", tasks],
      ]),
    );
  }
  const raw = new Map<string, PyValue>([
    ["plan_id", `plan-bench-${phases * tasksPerPhase}`],
    ["spec_hash", "5be7c0ffee15900d"],
    ["phases", phaseList],
    [
      "metadata",
      new Map<string, PyValue>([
        ["title", "Benchmark project"],
        ["owner", "bench"],
        ["platform", "claude_code"],
      ]),
    ],
    ["created_at", "2026-01-01T00:00:00+00:00"],
    ["updated_at", "2026-01-01T00:00:00+00:00"],
    ["content_hash", ""],
  ]);
  const res = validatePlan(raw);
  if (!res.ok) throw new Error(`bench plan invalid: ${res.error}`);
  return res.value;
}
