/**
 * Strict replay of the two entries a ledger holds most of — PlanManager's
 * `update_task_status` and `append_evidence` — straight from the facts the
 * canonical-line proof read (task id, status, path), without building the
 * entry or its payload dict. It applies only when the outcome is the one
 * `applyStrict` gives without raising: the plan exists, the task is found,
 * the members are strings and no other member replay reads is present
 * (`FastLine.payloadPlain`). Anything else returns {@link NOT_PLAIN} and the
 * caller replays the entry in full, which also words every error.
 */
import type { Plan, Task } from "../plan/schemas";
import type { FastLine } from "../canonical/fastCanonical";
import { TaskChange, findTask } from "./replay";

/** What {@link applyPlain} returns when the entry needs the full replay. */
export const NOT_PLAIN = undefined;

type MutableTask = { status: unknown; evidence_bundle?: unknown };

/**
 * Applies a plain status change or evidence entry to `plan` (and to `mirror`,
 * the full plan kept in step with a skeleton, when there is one), as
 * `applyStrict` would; returns the change (null for evidence), or
 * {@link NOT_PLAIN} when the entry is not such a plain one.
 */
export function applyPlain(plan: Plan | null, mirror: Plan | null, fast: FastLine): TaskChange | null | undefined {
  const id = fast.payloadTaskId;
  if (plan === null || !fast.payloadPlain || id === null) return NOT_PLAIN;
  if (fast.op === "update_task_status") {
    const status = fast.payloadStatus;
    if (status === null) return NOT_PLAIN;
    const task = findTask(plan, id);
    if (task === undefined) return NOT_PLAIN;
    const other = mirror === null ? undefined : findTask(mirror, id);
    if (other !== undefined) (other as unknown as MutableTask).status = status;
    return setStatus(task, status);
  }
  if (fast.op === "append_evidence") {
    const path = fast.payloadPath;
    if (path === null) return NOT_PLAIN;
    const task = findTask(plan, id);
    if (task === undefined) return NOT_PLAIN;
    const other = mirror === null ? undefined : findTask(mirror, id);
    if (other !== undefined) (other as unknown as MutableTask).evidence_bundle = path;
    (task as unknown as MutableTask).evidence_bundle = path;
    return null;
  }
  return NOT_PLAIN;
}

/** `applyStatusFields` for a payload whose only replayed member is `status`. */
function setStatus(task: Task, status: string): TaskChange {
  const from = typeof task.status === "string" ? task.status : null;
  (task as unknown as MutableTask).status = status;
  return { taskId: task.id, from, to: status, retry: null, escalated: false };
}
