/**
 * The plan as the run state needs it (task ids, statuses and titles by phase, the spec hash): what
 * the host hands back to the worker for the run view, without the run-state readers of runState.ts.
 */
import type { PlanTasks } from "./nextStep";

/** The plan the run state is decided against, or null before there is one. */
export type RunPlan = (PlanTasks & { readonly spec_hash: string }) | null;

/** A plan (the schema's) reduced to what the run state needs. */
export function runPlanOf(
  plan: {
    spec_hash: string;
    phases: ReadonlyArray<{
      tasks: ReadonlyArray<{ id: string; status: unknown; title: string; retry_count?: number | bigint }>;
    }>;
  } | null,
): RunPlan {
  if (plan === null) return null;
  return {
    spec_hash: plan.spec_hash,
    phases: plan.phases.map((p) => ({
      tasks: p.tasks.map((t) => ({
        id: t.id,
        status: String(t.status),
        title: t.title,
        retry_count: t.retry_count === undefined ? undefined : Number(t.retry_count),
      })),
    })),
  };
}
