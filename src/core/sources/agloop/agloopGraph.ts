/**
 * agloop's plan as a graph: the tasks of state.json (with their status and retries) plus those only
 * plan.yaml lists (not yet taken over: pending), and the edges of both files — each task's
 * `depends_on` and plan.yaml's `dag_edges` ([from, to]: `to` depends on `from`). Read from one
 * snapshot, so the graph and `check` agree; edges to unknown tasks are left for `check` to report.
 */
import { buildPlanGraph, GraphEdge, GraphNode, PlanGraph } from "../../graph/planGraph";
import type { SourceLocation } from "../stateSource";
import { loadAgloopSnapshot } from "./agloopSnapshot";
import { asArray, asRecord, asString } from "./agloopText";

/** agloop's finished status. */
const DONE = "done";
/** agloop's stuck status: what depends on a failed task waits on a blocked chain. */
const FAILED = "failed";

function dependencies(task: Record<string, unknown> | undefined): string[] {
  return asArray(task?.depends_on).filter((d): d is string => typeof d === "string");
}

/** The graph of parsed state.json and plan.yaml values (either may be undefined). */
export function agloopGraphOf(
  relDir: string,
  state: Record<string, unknown> | undefined,
  plan: unknown,
  notes: readonly string[] = [],
): PlanGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const known = new Set<string>();
  const retries = asRecord(state?.retry_count);
  const node = (id: string, title: string, status: string): GraphNode => {
    const r = retries && Object.prototype.hasOwnProperty.call(retries, id) ? retries[id] : 0;
    return {
      id,
      label: title,
      status,
      phase: null,
      done: status === DONE,
      blocked: status === FAILED,
      retries: typeof r === "number" && Number.isSafeInteger(r) && r > 0 ? r : 0,
      escalated: false,
      blockedReason: null,
      treeNodeId: `agloop/task/${id}`,
    };
  };
  for (const t of asArray(state?.tasks).map(asRecord)) {
    const id = asString(t?.id);
    if (id === undefined) continue;
    known.add(id);
    nodes.push(node(id, asString(t?.title) ?? "", asString(t?.status) ?? "unknown"));
    for (const dep of dependencies(t)) edges.push({ from: dep, to: id });
  }
  const root = asRecord(plan);
  for (const t of asArray(root?.tasks).map(asRecord)) {
    const id = asString(t?.id);
    if (id === undefined) continue;
    if (!known.has(id)) {
      known.add(id);
      nodes.push(node(id, asString(t?.title) ?? "", "pending"));
    }
    for (const dep of dependencies(t)) edges.push({ from: dep, to: id });
  }
  for (const pair of asArray(root?.dag_edges).map(asArray)) {
    const [from, to] = [asString(pair[0]), asString(pair[1])];
    if (from !== undefined && to !== undefined) edges.push({ from, to });
  }
  return buildPlanGraph({ kind: "agloop", path: relDir, nodes, edges, verified: null, notes });
}

/** The graph of `.agloop/` (never throws for bad data). */
export async function agloopGraph(location: SourceLocation): Promise<PlanGraph> {
  const snapshot = await loadAgloopSnapshot(location);
  const notes: string[] = [];
  if (snapshot.state.kind === "refused" || snapshot.state.kind === "invalid") {
    notes.push("state.json could not be read; statuses are unknown (see `check`).");
  }
  if (snapshot.plan.kind === "invalid" || snapshot.plan.kind === "refused") {
    notes.push("plan.yaml could not be read; only state.json's dependencies are drawn (see `check`).");
  }
  return agloopGraphOf(
    location.relDir,
    snapshot.stateValue,
    snapshot.plan.kind === "ok" ? snapshot.plan.value : undefined,
    notes,
  );
}
