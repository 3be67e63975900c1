/**
 * Each task's last status change, for the task hover ("last change: coded → reviewed, 3 hours
 * ago, seq 42"): the newest ledger entry that names the task with a status, found by walking the
 * entries from the end and stopping once every task of the plan has one (a plan of 100 tasks on a
 * ledger of a million entries walks only as far back as its least recently changed task).
 */
import type { EntrySummary } from "../ledger/verifyTypes";
import type { Plan } from "../plan/schemas";
import type { TaskChange } from "../worker/autodevRequests";

/** The last change of every task of `plan` that has one, as [task id, change] pairs. */
export function lastChanges(entries: readonly EntrySummary[], plan: Plan | null): Array<[string, TaskChange]> {
  if (!plan) return [];
  const want = new Set(plan.phases.flatMap((p) => p.tasks.map((t) => t.id)));
  const found = new Map<string, TaskChange>();
  for (let i = entries.length - 1; i >= 0 && found.size < want.size; i--) {
    const e = entries[i];
    if (e.taskId === null || e.toStatus === null || !want.has(e.taskId) || found.has(e.taskId)) continue;
    found.set(e.taskId, {
      seq: e.seq,
      line: e.line,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      retryCount: e.retryCount,
      escalated: e.escalated,
      timestamp: e.timestamp,
      sessionId: e.sessionId,
    });
  }
  return [...found];
}
