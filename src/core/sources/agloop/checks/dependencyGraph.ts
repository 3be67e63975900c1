/**
 * Cycles in a task dependency graph (state.json's depends_on, plan.yaml's depends_on and
 * dag_edges), for the checks: one report per group of tasks that depend on each other, with the
 * edge that closes it (so the problem points at a line). Built on the generic graph engine's
 * iterative Tarjan components, so a hostile graph of any depth cannot overflow the stack.
 */
import { cyclesOf, indexEdges, stronglyConnected } from "../../../graph/graphCycles";

/** An edge `from` → `to` ("from depends on to", or a DAG edge), with where it is written. */
export interface DependencyEdge {
  readonly from: string;
  readonly to: string;
  readonly path: (string | number)[];
}

/** A cycle: its task ids in order (first repeated at the end) and the edge that closes it. */
export interface DependencyCycle {
  readonly ids: readonly string[];
  readonly closing: DependencyEdge;
}

/** One cycle per strongly connected tangle of tasks (a task depending on itself counts). */
export function findCycles(edges: readonly DependencyEdge[]): DependencyCycle[] {
  const ids: string[] = [];
  const seen = new Set<string>();
  for (const e of edges) {
    for (const id of [e.from, e.to]) {
      if (!seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
    }
  }
  const { out } = indexEdges(ids, edges);
  const cycles: DependencyCycle[] = [];
  for (const cycle of cyclesOf(out, stronglyConnected(out))) {
    const names = cycle.map((v) => ids[v]);
    const last = names[names.length - 1];
    const closing = edges.find((e) => e.from === last && e.to === names[0]);
    if (closing) cycles.push({ ids: [...names, names[0]], closing });
  }
  return cycles;
}
