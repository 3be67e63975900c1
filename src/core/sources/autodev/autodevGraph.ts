/**
 * AutoDev's plan as a graph: phases are the groups, tasks the nodes, `depends_on` the edges (a
 * dependency finishes before its dependant). The plan is the one the verified ledger replays to;
 * on a broken ledger the graph falls back to the last plan readable from the tail, marked
 * unverified, so the user still sees the structure while `check` explains the damage.
 */
import { buildPlanGraph, GraphEdge, GraphNode, PlanGraph } from "../../graph/planGraph";
import type { SourceLocation, SourceProblem } from "../stateSource";
import { dependencyFindings } from "../../graph/dependencyFindings";
import { AUTODEV_DIR, LEDGER_REL } from "./autodevPaths";
import { isDoneStatus } from "../taskStatusIcons";
import { loadFromTail, verifyLedger } from "./ledger/ledgerReader";
import { Plan } from "./plan/schemas";
import { errorText } from "../../text/errorText";

/** The graph nodes, edges and phase groups of a plan (pure; for the report and the tests too). */
export function planGraphParts(plan: Plan | null): {
  nodes: GraphNode[];
  edges: Iterable<GraphEdge>;
  groups: { id: string; label: string }[];
} {
  const nodes: GraphNode[] = [];
  const groups: { id: string; label: string }[] = [];
  for (const phase of plan?.phases ?? []) {
    groups.push({ id: phase.id, label: `Phase ${phase.id}: ${phase.title}` });
    for (const t of phase.tasks) {
      const status = String(t.status);
      nodes.push({
        id: t.id,
        label: t.title,
        status,
        phase: phase.id,
        done: isDoneStatus(status),
        blocked: status === "blocked",
        retries: Number(t.retry_count) || 0,
        escalated: t.escalated,
        blockedReason: t.blocked_reason,
        treeNodeId: `autodev|task|${t.id}`,
      });
    }
  }
  return { nodes, edges: planEdges(plan), groups };
}

/** Every `depends_on` of the plan as an edge, one at a time (a plan of millions of them is never copied). */
function* planEdges(plan: Plan | null): Generator<GraphEdge> {
  for (const phase of plan?.phases ?? []) {
    for (const t of phase.tasks) for (const dep of t.depends_on) yield { from: dep, to: t.id };
  }
}

/**
 * The plan's dependency faults as `check` problems, from the graph `graph` draws (one analysis): a
 * repeated task id is an error (a status change reaches only the first task of it); a dependency on
 * a missing task, on itself or in a cycle is a warning, since AutoDev 0.1.1 runs tasks in plan
 * order and never reads `depends_on` (nothing hangs, but the plan says something impossible).
 */
export function dependencyProblemsOf(plan: Plan): SourceProblem[] {
  const graph = buildPlanGraph({ kind: "autodev", path: AUTODEV_DIR, ...planGraphParts(plan) });
  return dependencyFindings(graph).map((f) => ({
    file: LEDGER_REL,
    line: null,
    severity: f.code === "duplicate_task_id" ? "error" : "warning",
    code: f.code,
    message: f.message,
  }));
}

/** The last plans' dependency problems by {@link dependencyShape} (a few folders' worth). */
const dependencyMemo = new Map<string, readonly SourceProblem[]>();
const DEPENDENCY_MEMO_SIZE = 8;

/**
 * All that {@link dependencyProblemsOf} reads of a plan: its task ids in plan order and each one's
 * `depends_on` (duplicates, dangling edges and cycles are found from these alone; statuses and
 * titles are not in the findings).
 */
function dependencyShape(plan: Plan): string {
  return JSON.stringify(plan.phases.map((p) => p.tasks.map((t) => [t.id, t.depends_on])));
}

/**
 * {@link dependencyProblemsOf}, remembered by the plan's dependency shape: an append's refresh (a
 * status changed, a snapshot taken) finds the same problems as the refresh before without
 * analysing the graph again. Each answer is a fresh copy.
 */
export function planDependencyProblems(plan: Plan): SourceProblem[] {
  const key = dependencyShape(plan);
  let problems = dependencyMemo.get(key);
  if (problems) dependencyMemo.delete(key);
  else problems = dependencyProblemsOf(plan);
  dependencyMemo.set(key, problems);
  if (dependencyMemo.size > DEPENDENCY_MEMO_SIZE) dependencyMemo.delete(dependencyMemo.keys().next().value!);
  return problems.map((p) => ({ ...p }));
}

/** The graph of `.autodev/` (never throws for bad data: an unreadable ledger is an empty graph with a note). */
export async function autodevGraph(location: SourceLocation): Promise<PlanGraph> {
  const notes: string[] = [];
  let plan: Plan | null = null;
  let verified: boolean;
  let unreadable = false;
  try {
    const { report, plan: replayed } = await verifyLedger(location.workspace, { replay: true });
    verified = report.ok;
    plan = replayed;
    if (!report.ok) {
      notes.push(
        "the ledger does not verify (run `autodev-state verify`); this is the last plan readable from its tail, unverified.",
      );
      plan = (await loadFromTail(location.workspace)).plan;
      if (!plan) notes.push("no plan could be read from the ledger's tail either.");
    }
  } catch (e) {
    verified = false;
    unreadable = true;
    notes.push(`the ledger could not be read: ${errorText(e)}`);
  }
  const parts = planGraphParts(plan);
  return buildPlanGraph({ kind: "autodev", path: location.relDir, ...parts, verified, unreadable, notes });
}
