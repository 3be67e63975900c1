/**
 * What changed between two plans, for the timeline's details pane: tasks
 * added and removed, and tasks whose status, retries, escalation or other
 * tracked fields differ; phases added and removed. Values are shown as short
 * strings; the lists are capped so one message stays small.
 */
import type { PlanDiff, PlanDiffChange, PlanDiffField, PlanDiffTask } from "../../../timeline/timelineDetailTypes";
import { Plan, Task } from "../plan/schemas";

/** Task fields the diff compares, in the order it reports them. */
export const DIFF_FIELDS = [
  "status",
  "retry_count",
  "escalated",
  "blocked_reason",
  "evidence_bundle",
  "title",
  "assigned_agent",
  "phase_id",
  "acceptance",
  "depends_on",
] as const;

/** At most this many items in each list (the rest are counted in `omitted`). */
const DIFF_LIMIT = 200;

/** A short, human string of a plan value (null → "—"). */
export function diffValueText(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return v.length > 300 ? `${v.slice(0, 300)}…` : v;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  if (typeof v === "object" && v !== null && "value" in v && typeof (v as { value: unknown }).value === "number") {
    return String((v as { value: number }).value);
  }
  if (Array.isArray(v)) return v.map(diffValueText).join(", ") || "(none)";
  return "…";
}

function fieldText(t: Task, field: (typeof DIFF_FIELDS)[number]): string {
  if (field === "acceptance") {
    const met = t.acceptance.filter((c) => c.met).length;
    return `${met}/${t.acceptance.length} met`;
  }
  return diffValueText((t as unknown as Record<string, unknown>)[field]);
}

/** Tasks by id, first occurrence in phase-major order (as Python's `_find_task`). */
function tasksById(plan: Plan | null): Map<string, Task> {
  const m = new Map<string, Task>();
  for (const p of plan?.phases ?? []) for (const t of p.tasks) if (!m.has(t.id)) m.set(t.id, t);
  return m;
}

function ref(t: Task): PlanDiffTask {
  return { taskId: t.id, title: t.title, status: String(t.status) };
}

/** The fields of one task that differ between `a` and `b`. */
function taskFieldChanges(a: Task, b: Task): PlanDiffField[] {
  const out: PlanDiffField[] = [];
  for (const field of DIFF_FIELDS) {
    const from = fieldText(a, field);
    const to = fieldText(b, field);
    if (from !== to) out.push({ field, from, to });
  }
  return out;
}

/** Compares the plan before an entry (`before`, the result of entry `baseSeq`) with the plan after it. */
export function planDiff(
  before: Plan | null,
  after: Plan | null,
  baseSeq: number | null,
  limit = DIFF_LIMIT,
): PlanDiff {
  const a = tasksById(before);
  const b = tasksById(after);
  const added: PlanDiffTask[] = [];
  const removed: PlanDiffTask[] = [];
  const changed: PlanDiffChange[] = [];
  let omitted = 0;
  const push = <T>(list: T[], item: () => T) => (list.length < limit ? list.push(item()) : omitted++);
  for (const [id, t] of b) {
    const old = a.get(id);
    if (!old) push(added, () => ref(t));
    else {
      const fields = taskFieldChanges(old, t);
      if (fields.length > 0) push(changed, () => ({ taskId: id, title: t.title, fields }));
    }
  }
  for (const [id, t] of a) if (!b.has(id)) push(removed, () => ref(t));
  const phaseIds = (p: Plan | null) => new Set((p?.phases ?? []).map((ph) => ph.id));
  const pa = phaseIds(before);
  const pb = phaseIds(after);
  const phaseTitle = (p: Plan | null, id: string) => {
    const ph = p?.phases.find((x) => x.id === id);
    return ph ? `${id}: ${ph.title}` : id;
  };
  return {
    baseSeq,
    planReplaced: before !== null && after !== null && before.plan_id !== after.plan_id,
    added,
    removed,
    changed,
    phasesAdded: [...pb].filter((id) => !pa.has(id)).map((id) => phaseTitle(after, id)),
    phasesRemoved: [...pa].filter((id) => !pb.has(id)).map((id) => phaseTitle(before, id)),
    omitted,
  };
}

/** True when the diff found nothing. */
export function isEmptyDiff(d: PlanDiff): boolean {
  return (
    !d.planReplaced &&
    d.added.length + d.removed.length + d.changed.length + d.phasesAdded.length + d.phasesRemoved.length + d.omitted ===
      0
  );
}
