/**
 * Applying ledger entries to a plan, with Python AutoDev's two rule sets:
 * the strict rules of `replay_ledger` (every inconsistency is corruption) and
 * the tolerant rules of `PlanManager.load` for entries after the latest snapshot.
 */
import { LedgerEntry, Plan, TASK_STATUSES, Task, validatePlan } from "../plan/schemas";
import { PyValue } from "../../../pyjson/pyValue";
import { PyIntError, pyIntCall, pyTruthy } from "../../../pyjson/pyBuiltins";

export { AUDIT_OPS, PLAN_OPS } from "../plan/planConstants";
import { AUDIT_OPS, PLAN_OPS, STATUS_PAYLOAD_KEYS } from "../plan/planConstants";

/**
 * Every payload key {@link applyStrict} and {@link applyTolerant} read: an
 * entry whose payload holds only these members replays exactly as the whole
 * entry does (the fast path decodes no other member for replay).
 */
export const REPLAY_PAYLOAD_KEYS: ReadonlySet<string> = new Set(["plan", ...STATUS_PAYLOAD_KEYS, "reason", "path"]);

/** Why an entry could not be applied; `kind` matches the verify error kinds. */
export class ReplayError extends Error {
  constructor(
    readonly kind:
      "missing_plan_payload" | "before_init" | "unknown_task" | "plan_invalid" | "bad_payload" | "unknown_op",
    readonly seq: number | bigint,
    message: string,
  ) {
    super(message);
  }
}

/** What an entry did to one task, for the timeline and for FSM checks. */
export interface TaskChange {
  readonly taskId: string;
  readonly from: string | null;
  readonly to: string;
  /** The new `retry_count` when the entry set one (only Python's `mark_task_retry` does: a retry), else null. */
  readonly retry: number | null;
  /** True when the entry set `escalated` (Python's `mark_escalated`). */
  readonly escalated: boolean;
}

/** The result of applying one entry. */
export interface Applied {
  readonly plan: Plan | null;
  readonly change: TaskChange | null;
}

type MutableTask = { -readonly [K in keyof Task]: unknown };

/** Finds a plan's tasks by id. */
interface TaskIndex {
  get(id: string): Task | undefined;
}

const taskIndexCache = new WeakMap<Plan, TaskIndex>();

/** The first task with `id` in phase-major order, as Python's `_find_task`. */
export function findTask(plan: Plan, id: PyValue): Task | undefined {
  if (typeof id !== "string") return undefined;
  let index = taskIndexCache.get(plan);
  if (!index) {
    const map = new Map<string, Task>();
    for (const phase of plan.phases) for (const task of phase.tasks) if (!map.has(task.id)) map.set(task.id, task);
    taskIndexCache.set(plan, map);
    index = map;
  }
  return index.get(id);
}

/**
 * The tasks of a plan skeleton: only ids and statuses until replay touches a
 * task, which then becomes an object holding its id, its status and whatever
 * replay assigns to it (status, blocked_reason, retry_count, escalated,
 * evidence_bundle — the only fields replay ever assigns).
 */
class SkeletonIndex implements TaskIndex {
  /** Touched tasks by position (phase-major). */
  readonly touched = new Map<number, Task>();

  constructor(
    private readonly ids: readonly string[],
    private readonly positions: ReadonlyMap<string, number>,
    private readonly statuses: Uint8Array,
  ) {}

  get(id: string): Task | undefined {
    const p = this.positions.get(id);
    if (p === undefined) return undefined;
    let task = this.touched.get(p);
    if (task === undefined) {
      task = { id: this.ids[p], status: TASK_STATUSES[this.statuses[p]] } as unknown as Task;
      this.touched.set(p, task);
    }
    return task;
  }
}

/**
 * A stand-in for a valid plan that strict replay can run on, made from its
 * task ids (`positions`: the first position of each id) and statuses (indexes
 * into TASK_STATUSES). It has no phases of its own: read what replay did with
 * {@link skeletonTouched}.
 */
export function skeletonPlan(
  ids: readonly string[],
  positions: ReadonlyMap<string, number>,
  statuses: Uint8Array,
): Plan {
  const plan = { phases: [] } as unknown as Plan;
  taskIndexCache.set(plan, new SkeletonIndex(ids, positions, statuses));
  return plan;
}

/** The tasks replay touched on a skeleton, by phase-major position (null for a real plan). */
export function skeletonTouched(plan: Plan): ReadonlyMap<number, Task> | null {
  const index = taskIndexCache.get(plan);
  return index instanceof SkeletonIndex ? index.touched : null;
}

function validated(entry: LedgerEntry, raw: PyValue | undefined): Plan {
  const res = validatePlan(raw ?? null);
  if (!res.ok) {
    throw new ReplayError(
      "plan_invalid",
      entry.seq,
      `entry seq=${entry.seq} op=${entry.op}: payload.plan is not a valid Plan: ${res.error}`,
    );
  }
  return res.value;
}

function intOrThrow(entry: LedgerEntry, v: PyValue): number | bigint {
  try {
    return pyIntCall(v);
  } catch (e) {
    const msg = e instanceof PyIntError ? e.message : String(e);
    throw new ReplayError(
      "bad_payload",
      entry.seq,
      `entry seq=${entry.seq} ${entry.op}: retry_count is not an integer (${msg})`,
    );
  }
}

/**
 * Applies the optional fields of an `update_task_status` payload, as Python does.
 * (Replay assigns only status, blocked_reason, retry_count, escalated and
 * evidence_bundle; the scanner's plan skeletons rely on that.)
 */
function applyStatusFields(entry: LedgerEntry, task: Task, status: PyValue | undefined): TaskChange {
  const t = task as unknown as MutableTask;
  const p = entry.payload;
  const from = typeof task.status === "string" ? task.status : null;
  if (status !== undefined) t.status = status;
  if (p.has("blocked_reason")) t.blocked_reason = p.get("blocked_reason");
  let retry: number | null = null;
  if (p.has("retry_count")) retry = Number((t.retry_count = intOrThrow(entry, p.get("retry_count")!)));
  let escalated = false;
  if (p.has("escalated")) escalated = (t.escalated = pyTruthy(p.get("escalated")!)) === true;
  if (p.has("evidence_bundle")) t.evidence_bundle = p.get("evidence_bundle");
  return { taskId: task.id, from, to: String(t.status), retry, escalated };
}

/** `replay_ledger`'s `_apply_op`: strict; throws {@link ReplayError} where Python raises. */
export function applyStrict(plan: Plan | null, entry: LedgerEntry): Applied {
  const { op, payload, seq } = entry;
  if (PLAN_OPS.has(op)) {
    const raw = payload.get("plan");
    if (raw === undefined || raw === null) {
      throw new ReplayError("missing_plan_payload", seq, `entry seq=${seq} op=${op} is missing payload.plan`);
    }
    return { plan: validated(entry, raw), change: null };
  }
  if (AUDIT_OPS.has(op)) return { plan, change: null };
  if (plan === null) {
    throw new ReplayError("before_init", seq, `entry seq=${seq} op=${op} applied before any init_plan`);
  }
  switch (op) {
    case "update_task_status": {
      const taskId = payload.get("task_id");
      const status = payload.get("status");
      if (typeof taskId !== "string" || typeof status !== "string") {
        throw new ReplayError("bad_payload", seq, `entry seq=${seq} update_task_status missing task_id/status`);
      }
      const task = findTask(plan, taskId);
      if (!task) throw new ReplayError("unknown_task", seq, `entry seq=${seq} references unknown task_id=${taskId}`);
      return { plan, change: applyStatusFields(entry, task, status) };
    }
    case "mark_blocked":
    case "mark_complete": {
      const taskId = payload.get("task_id");
      if (typeof taskId !== "string") {
        throw new ReplayError("bad_payload", seq, `entry seq=${seq} ${op} missing task_id`);
      }
      return { plan, change: markTerminal(plan, entry, taskId) };
    }
    case "append_evidence": {
      appendEvidence(plan, entry);
      return { plan, change: null };
    }
    default:
      throw new ReplayError("unknown_op", seq, `entry seq=${seq} has unknown op='${op}'`);
  }
}

function markTerminal(plan: Plan, entry: LedgerEntry, taskId: PyValue | undefined): TaskChange | null {
  const task = findTask(plan, taskId ?? "");
  if (!task) return null;
  const t = task as unknown as MutableTask;
  const from = typeof task.status === "string" ? task.status : null;
  if (entry.op === "mark_blocked") {
    t.status = "blocked";
    t.blocked_reason = entry.payload.get("reason") ?? null;
  } else {
    t.status = "complete";
  }
  return { taskId: task.id, from, to: String(t.status), retry: null, escalated: false };
}

function appendEvidence(plan: Plan, entry: LedgerEntry): void {
  const path = entry.payload.get("path");
  const task = findTask(plan, entry.payload.get("task_id") ?? "");
  if (task && typeof path === "string") (task as unknown as MutableTask).evidence_bundle = path;
}

/** `PlanManager._apply_for_load`: tolerant of unknown tasks; used after the latest snapshot. */
export function applyTolerant(plan: Plan, entry: LedgerEntry): Applied {
  const { op, payload, seq } = entry;
  if (PLAN_OPS.has(op)) {
    if (!payload.has("plan")) {
      throw new ReplayError("missing_plan_payload", seq, `entry seq=${seq} op=${op} is missing payload.plan`);
    }
    return { plan: validated(entry, payload.get("plan")), change: null };
  }
  switch (op) {
    case "update_task_status": {
      const task = findTask(plan, payload.get("task_id") ?? "");
      if (!task) return { plan, change: null };
      const status = payload.get("status");
      return { plan, change: applyStatusFields(entry, task, typeof status === "string" ? status : undefined) };
    }
    case "mark_blocked":
    case "mark_complete":
      return { plan, change: markTerminal(plan, entry, payload.get("task_id")) };
    case "append_evidence":
      appendEvidence(plan, entry);
      return { plan, change: null };
    default:
      return { plan, change: null };
  }
}
