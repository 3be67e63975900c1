/**
 * Strongly connected components (Tarjan's algorithm) and one cycle through each, on a graph of
 * integer vertices. Iterative throughout — an explicit frame stack, no recursion — because state
 * folders are hostile: a 100 000-task dependency chain must not overflow the call stack. Linear
 * in vertices plus edges.
 */

/** Adjacency lists over vertices 0 … n-1 (`out[v]` = the vertices `v` has an edge to). */
export type Adjacency = readonly (readonly number[])[];

/** Most cycles {@link cyclesOf} lists (a hostile plan can have thousands; each is still marked in-cycle). */
const MAX_LISTED_CYCLES = 100;

/**
 * The strongly connected components of the subgraph of the vertices `keep` accepts (all when
 * omitted), each a list of vertices in ascending order. Components come sinks first: when an edge
 * leads from component A to another component B, B is listed before A (reverse topological order).
 */
export function stronglyConnected(out: Adjacency, keep?: (v: number) => boolean): number[][] {
  const n = out.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const next = new Int32Array(n); // position in out[v] of the next edge to follow
  const stack: number[] = [];
  const frames: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1 || (keep && !keep(s))) continue;
    frames.push(s);
    index[s] = low[s] = counter++;
    stack.push(s);
    onStack[s] = 1;
    while (frames.length > 0) {
      const v = frames[frames.length - 1];
      const edges = out[v];
      if (next[v] < edges.length) {
        const w = edges[next[v]++];
        if (keep && !keep(w)) continue;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push(w);
        } else if (onStack[w] && index[w] < low[v]) low[v] = index[w];
        continue;
      }
      frames.pop();
      if (frames.length > 0) {
        const parent = frames[frames.length - 1];
        if (low[v] < low[parent]) low[parent] = low[v];
      }
      if (low[v] !== index[v]) continue;
      const component: number[] = [];
      let w: number;
      do {
        w = stack.pop()!;
        onStack[w] = 0;
        component.push(w);
      } while (w !== v);
      components.push(component.sort((a, b) => a - b));
    }
  }
  return components;
}

/** True when the component holds a cycle: more than one vertex, or one vertex with an edge to itself. */
export function isCyclic(component: readonly number[], out: Adjacency): boolean {
  return component.length > 1 || out[component[0]].includes(component[0]);
}

/**
 * One simple cycle through the component's first vertex, in edge order (the last vertex has an
 * edge back to the first; the first is not repeated). Breadth-first inside the component, so the
 * cycle is a shortest one through that vertex.
 */
export function cycleThrough(component: readonly number[], out: Adjacency): number[] {
  const start = component[0];
  if (out[start].includes(start)) return [start];
  const members = new Set(component);
  const parent = new Map<number, number>([[start, -1]]);
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    for (const w of out[v]) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path: number[] = [];
        for (let x = v; x !== -1; x = parent.get(x)!) path.push(x);
        return path.reverse();
      }
      if (!parent.has(w)) {
        parent.set(w, v);
        queue.push(w);
      }
    }
  }
  return [...component]; // unreachable for a strongly connected component
}

/** One cycle per cyclic component (at most {@link MAX_LISTED_CYCLES}), each as {@link cycleThrough} gives it, ordered by first vertex. */
export function cyclesOf(out: Adjacency, components: readonly (readonly number[])[]): number[][] {
  return components
    .filter((c) => isCyclic(c, out))
    .sort((a, b) => a[0] - b[0])
    .slice(0, MAX_LISTED_CYCLES)
    .map((c) => cycleThrough(c, out));
}

/** Adjacency lists of string-id edges over `ids` (edges naming an id not in `ids` are left out). */
export function indexEdges(
  ids: readonly string[],
  edges: Iterable<{ readonly from: string; readonly to: string }>,
): { index: Map<string, number>; out: number[][] } {
  const index = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!index.has(id)) index.set(id, i);
  });
  const out: number[][] = ids.map(() => []);
  for (const e of edges) {
    const a = index.get(e.from);
    const b = index.get(e.to);
    if (a !== undefined && b !== undefined) out[a].push(b);
  }
  return { index, out };
}
