/**
 * The task statuses and ledger ops Python AutoDev declares, and the op sets
 * replay distinguishes. No zod here: the verification threads load this and
 * not the schemas.
 */

/** Every task status, in the order Python declares them. */
export const TASK_STATUSES = [
  "pending",
  "in_progress",
  "coded",
  "auto_gated",
  "reviewed",
  "tested",
  "tournamented",
  "complete",
  "blocked",
  "skipped",
] as const;

/**
 * The statuses of a task mid-flight, the ones `_find_in_progress_task` (orchestrator) looks for:
 * those after `pending` and before `complete` in Python's order.
 */
export const RESUMABLE_STATUSES: readonly string[] = TASK_STATUSES.slice(
  TASK_STATUSES.indexOf("in_progress"),
  TASK_STATUSES.indexOf("complete"),
);

/** Every ledger op, in the order Python declares them. */
export const LEDGER_OPS = [
  "init_plan",
  "update_plan",
  "update_task_status",
  "append_evidence",
  "mark_blocked",
  "mark_complete",
  "snapshot",
  "plan_tournament_complete",
  "impl_tournament_complete",
] as const;
/** A ledger op (`LedgerOp` literal in Python). */
export type LedgerOp = (typeof LEDGER_OPS)[number];

/** Ops that carry a whole plan in `payload.plan`. */
export const PLAN_OPS: ReadonlySet<string> = new Set(["init_plan", "update_plan", "snapshot"]);
/** The keys AutoDev puts in an `update_task_status` payload (`task_id`, `status`, and `meta`'s). */
export const STATUS_PAYLOAD_KEYS: readonly string[] = [
  "task_id",
  "status",
  "blocked_reason",
  "retry_count",
  "escalated",
  "evidence_bundle",
];
/** Audit-only ops that never touch the plan. */
export const AUDIT_OPS: ReadonlySet<string> = new Set(["plan_tournament_complete", "impl_tournament_complete"]);
