/**
 * What `append` may write: an entry as AutoDev's own code writes one, through the checks
 * `set-status` makes. AutoDev 0.1.1 writes `init_plan`, `update_plan`, `update_task_status` and
 * `snapshot` (PlanManager, ledger.snapshot_plan) and the two tournament audits (`ledger_append`);
 * it declares `append_evidence`, `mark_blocked` and `mark_complete` and replays them, but nothing
 * writes them. Every entry that changes a task's status — `update_task_status`, and with `--force`
 * the `mark_*` ops — and every `set-status` goes through {@link assertStatusChangeAllowed}: the state
 * machine's edge, the phase contract's evidence, a blocked reason. Payload keys are the ones AutoDev writes, with the
 * values its own calls give them (`retry_count` one more, `escalated` true, the status unchanged).
 */
import { InvalidInputError } from "../../../errors";
import { isPyObject, PyObject, PyValue } from "../../../pyjson/pyValue";
import type { Plan, Task } from "../plan/schemas";
import { assertTransition } from "../plan/taskFsm";
import { STATUS_PAYLOAD_KEYS } from "../plan/planConstants";
import { assertContractAllows } from "./autodevWriteGuard";

/** The ops AutoDev's own code writes (checked in its source: state/plan_manager.py, state/ledger.py, the tournament runners). */
export const OPS_AUTODEV_WRITES: ReadonlySet<string> = new Set([
  "init_plan",
  "update_plan",
  "update_task_status",
  "snapshot",
  "plan_tournament_complete",
  "impl_tournament_complete",
]);

const STATUS_KEYS: ReadonlySet<string> = new Set(STATUS_PAYLOAD_KEYS);

/** A status change an entry makes: the task, the status it moves to, the blocked reason it carries. */
export interface StatusChange {
  readonly taskId: string;
  readonly status: string;
  readonly reason: string | undefined;
}

/** The one check of every status change we write: the state machine's edge, then the phase contract (evidence, a blocked reason). */
export async function assertStatusChangeAllowed(
  cwd: string,
  plan: Plan,
  change: StatusChange,
  from: string,
): Promise<void> {
  if (from !== change.status) assertTransition(from, change.status);
  // The contract refuses a status without its evidence, and `blocked` without a reason.
  await assertContractAllows(cwd, plan, change.taskId, change.status, change.reason);
}

const text = (v: PyValue | undefined): string | undefined => (typeof v === "string" ? v : undefined);

function findTask(plan: Plan, id: string): Task | undefined {
  for (const phase of plan.phases) for (const t of phase.tasks) if (t.id === id) return t;
  return undefined;
}

/** The status change `op` with `payload` makes, or null (a plan op, an audit, a retry or escalation mark). */
function statusChangeOf(op: string, payload: PyObject, task: Task): StatusChange | null {
  const taskId = task.id;
  if (op === "mark_complete") return { taskId, status: "complete", reason: undefined };
  if (op === "mark_blocked") return { taskId, status: "blocked", reason: text(payload.get("reason")) };
  if (op !== "update_task_status") return null;
  const status = text(payload.get("status"));
  if (status === undefined) return null;
  const reason = text(payload.get("blocked_reason"));
  return status === String(task.status) && !payload.has("blocked_reason") ? null : { taskId, status, reason };
}

/** Refuses what AutoDev's own `update_task_status` calls never write (extra keys, a jump in retry_count). */
function assertStatusPayload(payload: PyObject, task: Task): void {
  const extra = [...payload.keys()].filter((k) => !STATUS_KEYS.has(k));
  const refuse = (why: string): never => {
    throw new InvalidInputError(
      `refusing to append update_task_status for task ${task.id}: ${why}. Nothing was written (--force appends it anyway).`,
    );
  };
  if (extra.length > 0) {
    refuse(
      `AutoDev never writes the key${extra.length === 1 ? "" : "s"} ${extra.map((k) => JSON.stringify(k)).join(", ")}`,
    );
  }
  const same = text(payload.get("status")) === String(task.status);
  if (payload.has("retry_count")) {
    const want = (Number(task.retry_count) || 0) + 1;
    if (payload.get("retry_count") !== want || !same) {
      refuse(`AutoDev raises retry_count by one, to ${want}, with the status unchanged (use \`autodev-state retry\`)`);
    }
  }
  if (payload.has("escalated") && (payload.get("escalated") !== true || !same)) {
    refuse("AutoDev only sets escalated to true, with the status unchanged (use `autodev-state escalate`)");
  }
  const bundle = payload.get("evidence_bundle");
  if (payload.has("evidence_bundle") && !(typeof bundle === "string" && bundle.startsWith(".autodev/evidence/"))) {
    refuse("evidence_bundle must name a file under .autodev/evidence/, as AutoDev writes it");
  }
}

/**
 * Checks an entry `append` is asked to write against the live `plan` (null before any plan);
 * throws a clear refusal, nothing written. Returns the status change it makes, if any.
 */
export async function assertAppendAllowed(
  cwd: string,
  plan: Plan | null,
  op: string,
  payload: PyValue,
  force: boolean,
): Promise<StatusChange | null> {
  if (!isPyObject(payload)) throw new InvalidInputError("the payload must be a JSON object");
  if (!OPS_AUTODEV_WRITES.has(op) && !force) {
    throw new InvalidInputError(
      `refusing to append ${op}: AutoDev's own code never writes it (it only replays it), so no run of AutoDev would produce this entry. Use set-status for a status change; --force appends it anyway. Nothing was written.`,
    );
  }
  const taskId = text(payload.get("task_id"));
  const task = plan && taskId !== undefined ? findTask(plan, taskId) : undefined;
  if (!plan || !task) return null;
  if (op === "update_task_status" && !force) assertStatusPayload(payload, task);
  const change = statusChangeOf(op, payload, task);
  if (change) await assertStatusChangeAllowed(cwd, plan, change, String(task.status));
  return change;
}
