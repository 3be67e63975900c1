/**
 * The ledger shapes the benchmark covers, each a point in the space of
 * parameters a real ledger varies in: plan size, snapshot cadence, how legal
 * the transitions are, retries, audit entries and their payload sizes, line
 * ends and damage. `generateShapeLedger` (generate.ts) writes any of them; the
 * bench verifies every shape and names the worst.
 */
import { PLAN_500, PlanSize } from "./benchPlan";
import { planOfTasks } from "./planManagerLedger";

/** The parameters of one generated ledger. */
export interface LedgerShape {
  /** A short name for the table. */
  readonly name: string;
  /** What it stands for, one line. */
  readonly what: string;
  readonly plan: PlanSize;
  /** Status changes per snapshot of the whole plan: 1 after every change (PlanManager's commit path); 0 only after init. */
  readonly snapshotEvery: number;
  /** Share of status changes to a random other status (most of them FSM warnings in replay). */
  readonly illegal: number;
  /** Move random tasks (true) or one task after another through its lifecycle. */
  readonly randomOrder: boolean;
  /** Chance that a task is sent back after `coded` … */
  readonly retryChance: number;
  /** … and how many times (each an `in_progress` with retry_count + 1, then `coded` again). */
  readonly retryLoops: number;
  /** Mean audit entries (evidence, tournaments) per status change. */
  readonly auditPerChange: number;
  /** Bytes of free text in each audit payload (0: none). */
  readonly noteBytes: number;
  /** Lines end with CRLF instead of LF (a ledger that went through a Windows editor or checkout). */
  readonly crlf: boolean;
  /** Lines damaged in the middle third (a flipped byte, a torn line, garbage): 0 for a clean ledger. */
  readonly damagedLines: number;
  /**
   * Written call for call as Python AutoDev's PlanManager writes (bench/planManagerLedger.ts, held
   * byte for byte against a sample real AutoDev wrote): the execute phase's path with gates failing
   * at `failChance`, `illegal` of the changes random moves; only `plan` and `illegal` of the other
   * parameters apply.
   */
  readonly planManager?: { readonly failChance: number; readonly retryLimit: number };
}

const BASE: Omit<LedgerShape, "name" | "what"> = {
  plan: PLAN_500,
  snapshotEvery: 1,
  illegal: 0,
  randomOrder: false,
  retryChance: 0.2,
  retryLoops: 1,
  auditPerChange: 0.25,
  noteBytes: 0,
  crlf: false,
  damagedLines: 0,
};

/** The 500-task plan of the PlanManager shapes (about 320 KB a snapshot). */
const PLAN_MANAGER_500 = planOfTasks(500, { descriptionWords: 4, criteria: 2, files: 2 });

/** Every shape the bench measures; the first is the one the size series (10, 100, 500 MB) uses. */
export const SHAPES: readonly LedgerShape[] = [
  {
    ...BASE,
    name: "lifecycle",
    what: "500 tasks in 20 phases walk their lifecycle one after another; a snapshot (≈390 KB) after every status change",
  },
  {
    ...BASE,
    name: "random-transitions",
    what: "500 tasks, shorter texts (≈320 KB snapshots), random tasks moved to random statuses (9 of 10 changes; about half of all changes are FSM warnings)",
    plan: { ...PLAN_500, descriptionWords: 15 },
    illegal: 0.9,
    randomOrder: true,
  },
  {
    ...BASE,
    name: "plan-manager",
    what: "PlanManager's own writes, call for call: 500 tasks (2 criteria, 2 files each) through the execute phase, every change an update_task_status and a ≈320 KB snapshot, gates failing 1 in 5 (mark_task_retry, escalations)",
    plan: PLAN_MANAGER_500,
    planManager: { failChance: 0.2, retryLimit: 3 },
  },
  {
    ...BASE,
    name: "plan-manager-random",
    what: "the same writer, 9 of 10 changes a random task moved to a random status (most of them FSM warnings)",
    plan: PLAN_MANAGER_500,
    illegal: 0.9,
    planManager: { failChance: 0.2, retryLimit: 3 },
  },
  {
    ...BASE,
    name: "big-plan",
    what: "2,000 tasks in 40 phases (≈1.5 MB snapshots), a snapshot after every status change",
    plan: { phases: 40, tasksPerPhase: 50, descriptionWords: 21 },
  },
  {
    ...BASE,
    name: "small-entries",
    what: "500 tasks, one snapshot per 2,000 status changes, 2 audit entries per change: ≈250-byte lines",
    snapshotEvery: 2000,
    auditPerChange: 2,
    randomOrder: true,
    retryChance: 0.5,
    retryLoops: 3,
  },
  {
    ...BASE,
    name: "long-retries",
    what: "every task retried 30 times (retry_count up to 30, escalations), a snapshot every 4 changes",
    snapshotEvery: 4,
    retryChance: 1,
    retryLoops: 30,
  },
  {
    ...BASE,
    name: "big-payloads",
    what: "audit entries with 20 KB of text each, 4 per status change, a snapshot every 10 changes",
    snapshotEvery: 10,
    auditPerChange: 4,
    noteBytes: 20_000,
  },
  {
    ...BASE,
    name: "crlf",
    what: "the lifecycle ledger with CRLF line ends",
    crlf: true,
  },
  {
    ...BASE,
    name: "damaged-middle",
    what: "the lifecycle ledger with 40 damaged lines in its middle third (flipped bytes, torn lines, garbage)",
    damagedLines: 40,
  },
];

/** The shape called `name`. */
export function shapeNamed(name: string): LedgerShape {
  const s = SHAPES.find((x) => x.name === name);
  if (!s) throw new Error(`no ledger shape "${name}" (known: ${SHAPES.map((x) => x.name).join(", ")})`);
  return s;
}
