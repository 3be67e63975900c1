/**
 * The dependency faults of a plan, from the same graph and analysis `graph` draws: a task that
 * depends on a task the plan does not have, on itself, or on a task that depends back on it (a
 * cycle of any length), and an id two tasks share. A source's `check` turns them into problems, so
 * `check` and `graph` can never disagree about a plan's dependencies.
 */
import { analyzeGraph } from "./graphAnalysis";
import type { PlanGraph } from "./planGraph";

/** One dependency fault (plain data; the source words the file and line). */
export interface DependencyFinding {
  readonly code: "unknown_dependency" | "dependency_cycle" | "duplicate_task_id";
  /** The task the fault is about (the dependant, the first task of a cycle, the repeated id). */
  readonly taskId: string;
  readonly message: string;
}

/** Most findings of one kind listed (a hostile plan has no bound; `check` caps per file as well). */
const MAX_FINDINGS = 1000;

const q = (id: string): string => JSON.stringify(id.length > 80 ? `${id.slice(0, 79)}…` : id);

/** The faults of `graph` (built by `buildPlanGraph`, which keeps the repeated ids and missing-task edges). */
export function dependencyFindings(graph: PlanGraph): DependencyFinding[] {
  const out: DependencyFinding[] = [];
  for (const id of graph.duplicateIds.slice(0, MAX_FINDINGS)) {
    out.push({
      code: "duplicate_task_id",
      taskId: id,
      message: `task id ${q(id)} is used by more than one task; a status change reaches only the first, and dependencies on it are ambiguous. Give each task its own id (a replan).`,
    });
  }
  for (const e of graph.dangling.slice(0, MAX_FINDINGS)) {
    out.push({
      code: "unknown_dependency",
      taskId: e.to,
      message: `task ${q(e.to)} depends on ${q(e.from)}, which is not a task of the plan; it can never start. Remove the dependency or add the task (a replan).`,
    });
  }
  for (const cycle of analyzeGraph(graph).cycles.slice(0, MAX_FINDINGS)) {
    const message =
      cycle.length === 1
        ? `task ${q(cycle[0])} depends on itself; it can never start. Remove the dependency (a replan).`
        : `the plan's dependencies form a cycle: ${[...cycle, cycle[0]].map(q).join(" → ")}; no task of it can start. Remove one dependency (a replan).`;
    out.push({ code: "dependency_cycle", taskId: cycle[0], message });
  }
  return out;
}
