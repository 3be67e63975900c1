/**
 * Cycles in a task dependency graph (state.json's depends_on, plan.yaml's depends_on and
 * dag_edges). Iterative, so a hostile graph of any depth cannot overflow the stack.
 */

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

/** Every elementary cycle found by one depth-first pass (one report per back edge). */
export function findCycles(edges: readonly DependencyEdge[]): DependencyCycle[] {
  const out = new Map<string, DependencyEdge[]>();
  for (const e of edges) {
    const list = out.get(e.from) ?? [];
    list.push(e);
    out.set(e.from, list);
  }
  const state = new Map<string, 1 | 2>(); // 1 = on the stack, 2 = done
  const cycles: DependencyCycle[] = [];
  const seen = new Set<string>();
  for (const start of out.keys()) {
    if (state.has(start)) continue;
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const edgesOut = out.get(top.id) ?? [];
      if (top.next >= edgesOut.length) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const edge = edgesOut[top.next++];
      const mark = state.get(edge.to);
      if (mark === undefined) {
        state.set(edge.to, 1);
        stack.push({ id: edge.to, next: 0 });
      } else if (mark === 1) {
        const from = stack.findIndex((f) => f.id === edge.to);
        const ids = stack.slice(from).map((f) => f.id);
        const key = [...ids].sort().join(",");
        if (!seen.has(key)) {
          seen.add(key);
          cycles.push({ ids: [...ids, edge.to], closing: edge });
        }
      }
    }
  }
  return cycles;
}
