/**
 * The ledger Python AutoDev's `PlanManager` writes while its execute phase
 * runs, generated from parameters: `init_plan` and a snapshot, then for every
 * status change the `update_task_status` entry **and a snapshot of the whole
 * plan** (`update_task_status`, `mark_task_retry`, `mark_escalated` each
 * append both), and `update_plan` + snapshot when the plan is saved again.
 *
 * The calls follow `_execute_one` of AutoDev's execute phase: the first
 * pending task is moved in_progress → coded → auto_gated → reviewed → tested
 * → tournamented → complete; a failed gate is a `mark_task_retry` (then back
 * to in_progress), the retry limit a `mark_escalated` and `blocked`. A share
 * of changes moves a random task to a random other status instead (FSM
 * warnings in replay; AutoDev's own `assert_transition` would refuse them).
 *
 * Every clock reading is taken where PlanManager takes one (`_iso_now` in
 * `append_entry`, in `update_task_status`, `init_plan` and `save`), so with
 * the clock values Python read, the bytes are Python's own:
 * test/unit/writer/planManagerLedger.test.ts holds this against a sample real
 * AutoDev wrote (bench/python/plan_manager_writer.py).
 */
import { Plan, planToPy } from "../src/core/sources/autodev/plan/schemas";
import { TASK_STATUSES } from "../src/core/sources/autodev/plan/planConstants";
import { PyObject, PyValue } from "../src/core/pyjson/pyValue";
import { SeededRandom } from "../src/core/seededRandom";
import { PlanSize, benchPlan } from "./benchPlan";

/** The parameters of a PlanManager ledger. */
export interface PlanManagerParams {
  /** The plan: its size (5–1,000 tasks), words per description, criteria and files per task. */
  readonly plan: PlanSize;
  /** Share of status changes that move a random task to a random other status (not allowed by the FSM). */
  readonly illegal: number;
  /** Chance that a gate (developer, QA gates, review, tests) fails and the task is retried. */
  readonly failChance: number;
  /** AutoDev's `qa_retry_limit` (3 by default): at this many retries the task is escalated and blocked. */
  readonly retryLimit: number;
}

/** The plan size for about `tasks` tasks, in phases of up to 25. */
export function planOfTasks(tasks: number, rest: Omit<PlanSize, "phases" | "tasksPerPhase">): PlanSize {
  const phases = Math.max(1, Math.ceil(tasks / 25));
  return { ...rest, phases, tasksPerPhase: Math.ceil(tasks / phases) };
}

/** One PlanManager call. `unchecked`: a move the FSM refuses (the writer's check is bypassed). */
export type PlanManagerCall =
  | {
      readonly call: "update_task_status";
      readonly taskId: string;
      readonly status: string;
      readonly meta: readonly (readonly [string, PyValue])[];
      readonly unchecked: boolean;
    }
  | { readonly call: "mark_task_retry"; readonly taskId: string }
  | { readonly call: "mark_escalated"; readonly taskId: string }
  /** `save` of the plan with every task back to pending (a new iteration of the plan). */
  | { readonly call: "save" };

/** Where a line goes: op, payload, session, timestamp. */
export type LineSink = (op: string, payload: PyObject, session: string, timestamp: string) => void;

type MutableTask = Record<string, unknown> & { id: string; status: string; retry_count: number };

/** A task's next status on the execute path, from its status. */
const NEXT: Readonly<Record<string, string>> = {
  pending: "in_progress",
  in_progress: "coded",
  coded: "auto_gated",
  auto_gated: "reviewed",
  reviewed: "tested",
  tested: "tournamented",
  tournamented: "complete",
};
/** Why a gate failed, by the status the task was in (the `reason` AutoDev puts in `blocked_reason`). */
const FAILED: Readonly<Record<string, string>> = {
  in_progress: "coder adapter failure",
  coded: "qa gate failed: lint",
  auto_gated: "reviewer: NEEDS_CHANGES",
  reviewed: "tests failed",
};

/** PlanManager's writes on a plan held in memory: each call appends what Python appends. */
export class PlanManagerWriter {
  plan: Plan;
  readonly tasks: MutableTask[];

  constructor(
    plan: Plan,
    private readonly session: string,
    private readonly clock: () => string,
    private readonly sink: LineSink,
  ) {
    this.plan = plan;
    this.tasks = plan.phases.flatMap((p) => p.tasks) as unknown as MutableTask[];
  }

  private snapshot(op = "snapshot"): void {
    this.sink(op, new Map([["plan", planToPy(this.plan)]]), this.session, this.clock());
  }

  /** `init_plan`: the plan stamped (`updated_at`; `created_at` is kept), the entry, then a snapshot. */
  init(): void {
    if (!this.plan.created_at) throw new Error("the plan needs a created_at (init_plan reads the clock otherwise)");
    this.plan = { ...this.plan, updated_at: this.clock() };
    this.snapshot("init_plan");
    this.snapshot();
  }

  /** Applies one call as PlanManager does. */
  apply(c: PlanManagerCall): void {
    if (c.call === "save") {
      for (const t of this.tasks) {
        Object.assign(t, { status: "pending", retry_count: 0, escalated: false, evidence_bundle: null });
        t.blocked_reason = null;
      }
      this.plan = { ...this.plan, updated_at: this.clock() };
      this.snapshot("update_plan");
      this.snapshot();
      return;
    }
    const task = this.task(c.taskId);
    const payload = new Map<string, PyValue>([["task_id", task.id]]);
    if (c.call === "mark_task_retry") {
      task.retry_count += 1;
      payload.set("status", task.status).set("retry_count", task.retry_count);
    } else if (c.call === "mark_escalated") {
      task.escalated = true;
      payload.set("status", task.status).set("escalated", true);
    } else {
      payload.set("status", c.status);
      for (const [k, v] of c.meta) payload.set(k, v);
    }
    this.sink("update_task_status", payload, this.session, this.clock());
    if (c.call === "update_task_status") {
      // Only the meta keys update_task_status copies onto the task.
      task.status = c.status;
      for (const [k, v] of c.meta) {
        if (k === "blocked_reason" || k === "retry_count" || k === "escalated" || k === "evidence_bundle") {
          (task as Record<string, unknown>)[k] = v;
        }
      }
      this.plan = { ...this.plan, updated_at: this.clock() };
    }
    // mark_task_retry and mark_escalated snapshot the plan as loaded: updated_at unchanged.
    this.snapshot();
  }

  private task(id: string): MutableTask {
    const t = this.tasks.find((x) => x.id === id);
    if (!t) throw new Error(`no task ${id}`);
    return t;
  }
}

/**
 * The calls of an execute phase on `w`'s plan, one step at a time (a step is
 * one or more calls): `r` decides failures and the random moves.
 */
export class ExecutePhase {
  private current: MutableTask | null = null;

  constructor(
    private readonly w: PlanManagerWriter,
    private readonly p: PlanManagerParams,
    private readonly r: SeededRandom,
  ) {}

  /** The next step's calls. */
  next(): PlanManagerCall[] {
    const r = this.r;
    if (r.chance(this.p.illegal)) {
      const task = r.pick(this.w.tasks);
      const status = r.pick(TASK_STATUSES.filter((s) => s !== task.status));
      return [{ call: "update_task_status", taskId: task.id, status, meta: [], unchecked: true }];
    }
    const t = this.current && NEXT[this.current.status] ? this.current : this.pickNext();
    if (t === null) return [{ call: "save" }];
    const id = t.id;
    if (t.status in FAILED && r.chance(this.p.failChance)) {
      const reason = FAILED[t.status];
      const calls: PlanManagerCall[] = [{ call: "mark_task_retry", taskId: id }];
      if (t.retry_count + 1 >= this.p.retryLimit) {
        calls.push(
          { call: "mark_escalated", taskId: id },
          {
            call: "update_task_status",
            taskId: id,
            status: "blocked",
            meta: [["blocked_reason", `escalated: ${reason}`]],
            unchecked: false,
          },
        );
      } else if (t.status !== "in_progress") {
        calls.push({ call: "update_task_status", taskId: id, status: "in_progress", meta: [], unchecked: false });
      }
      return calls;
    }
    const status = NEXT[t.status];
    const meta: [string, PyValue][] =
      status === "complete" ? [["evidence_bundle", `.autodev/evidence/${id}-coder.json`]] : [];
    return [{ call: "update_task_status", taskId: id, status, meta, unchecked: false }];
  }

  /** `next_pending_task`: the first pending task, phase-major (null: none left). */
  private pickNext(): MutableTask | null {
    this.current = this.w.tasks.find((t) => t.status === "pending") ?? null;
    return this.current;
  }
}

/** Seeds of a PlanManager ledger: the plan's, the calls', and the bench's own clock. */
export interface PlanManagerSeeds {
  readonly plan: number;
  readonly calls: number;
}

/**
 * Writes a PlanManager ledger into `sink` until `enough()` (checked after
 * each step), with `clock` read where Python reads its clock; returns the
 * calls made, in order.
 */
export function writePlanManagerLedger(
  p: PlanManagerParams,
  seeds: PlanManagerSeeds,
  session: string,
  clock: () => string,
  sink: LineSink,
  enough: (calls: number) => boolean,
): PlanManagerCall[] {
  const plan = benchPlan(new SeededRandom(seeds.plan), p.plan);
  const w = new PlanManagerWriter(plan, session, clock, sink);
  const phase = new ExecutePhase(w, p, new SeededRandom(seeds.calls));
  const made: PlanManagerCall[] = [];
  w.init();
  while (!enough(made.length)) {
    for (const c of phase.next()) {
      w.apply(c);
      made.push(c);
    }
  }
  return made;
}

/** The plan a PlanManager ledger of `p` and `seeds` starts from (what init_plan is given). */
export function planManagerPlan(p: PlanManagerParams, seeds: PlanManagerSeeds): Plan {
  return benchPlan(new SeededRandom(seeds.plan), p.plan);
}
