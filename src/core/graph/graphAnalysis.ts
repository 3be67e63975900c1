/**
 * What a plan graph says about the run: the dependency cycles (no task of one can ever start), the
 * critical path of what is not done (the longest chain of unfinished tasks, cycles condensed to one
 * step each, so it is defined on any graph), and the blocked chains (the unfinished tasks that
 * wait, directly or not, on a blocked task). Linear in nodes plus edges; no recursion.
 */
import { Adjacency, cyclesOf, indexEdges, isCyclic, stronglyConnected } from "./graphCycles";
import type { PlanGraph } from "./planGraph";

/** Unfinished tasks waiting on one blocked task (each task is listed under the first blocked task, in plan order, it waits on). */
export interface BlockedChain {
  /** The blocked task. */
  readonly root: string;
  /** The unfinished tasks downstream of it, nearest first. */
  readonly waiting: readonly string[];
}

/** The analysis of one graph (ids only; plain data). */
export interface GraphAnalysis {
  /** One cycle per group of tasks that depend on each other, in edge order (the last leads back to the first). */
  readonly cycles: readonly (readonly string[])[];
  /** Every task on some cycle (a cycle of more than {@link cycles} lists is still here). */
  readonly inCycle: readonly string[];
  /** The longest chain of unfinished tasks, first to last (empty when everything is done). */
  readonly criticalPath: readonly string[];
  readonly blockedChains: readonly BlockedChain[];
}

/** Analyses a graph built by `buildPlanGraph`. */
export function analyzeGraph(graph: PlanGraph): GraphAnalysis {
  const ids = graph.nodes.map((n) => n.id);
  const { out } = indexEdges(ids, graph.edges);
  const components = stronglyConnected(out);
  const cyclic = components.filter((c) => isCyclic(c, out));
  const inCycle = cyclic
    .flat()
    .sort((a, b) => a - b)
    .map((v) => ids[v]);
  const notDone = (v: number): boolean => !graph.nodes[v].done;
  return {
    cycles: cyclesOf(out, components).map((c) => c.map((v) => ids[v])),
    inCycle,
    criticalPath: longestPath(out, notDone).map((v) => ids[v]),
    blockedChains: blockedChains(
      out,
      graph.nodes.map((n) => n.blocked && !n.done),
      notDone,
    ).map((c) => ({ root: ids[c.root], waiting: c.waiting.map((v) => ids[v]) })),
  };
}

/**
 * The longest path, counted in vertices, through the vertices `keep` accepts, after condensing
 * each strongly connected component to one step that lists all of its vertices. Ties go to the
 * chain that ends first in plan (vertex) order.
 */
export function longestPath(out: Adjacency, keep: (v: number) => boolean): number[] {
  const components = stronglyConnected(out, keep);
  const componentOf = new Int32Array(out.length).fill(-1);
  components.forEach((c, i) => c.forEach((v) => (componentOf[v] = i)));
  // Tarjan lists sinks first; walking the list backwards visits each component after all its predecessors.
  const best = new Float64Array(components.length);
  const via = new Int32Array(components.length).fill(-1);
  for (let i = components.length - 1; i >= 0; i--) {
    best[i] += components[i].length;
    for (const v of components[i]) {
      for (const w of out[v]) {
        const j = componentOf[w];
        if (j === -1 || j === i) continue;
        if (best[i] > best[j] || (best[i] === best[j] && via[j] !== -1 && components[i][0] < components[via[j]][0])) {
          best[j] = best[i];
          via[j] = i;
        }
      }
    }
  }
  let end = -1;
  for (let i = 0; i < components.length; i++) {
    if (end === -1 || best[i] > best[end] || (best[i] === best[end] && components[i][0] < components[end][0])) end = i;
  }
  const chain: number[] = [];
  for (let i = end; i !== -1; i = via[i]) for (const id of [...components[i]].reverse()) chain.push(id); // no spread into a call: a component can be huge
  return chain.reverse();
}

/**
 * For each root (a blocked vertex, in vertex order), the vertices `keep` accepts that are
 * reachable from it and not claimed by an earlier root, breadth-first.
 */
function blockedChains(
  out: Adjacency,
  isRoot: readonly boolean[],
  keep: (v: number) => boolean,
): { root: number; waiting: number[] }[] {
  const claimed = new Uint8Array(out.length);
  isRoot.forEach((r, v) => r && (claimed[v] = 1));
  const chains: { root: number; waiting: number[] }[] = [];
  for (let root = 0; root < out.length; root++) {
    if (!isRoot[root]) continue;
    const waiting: number[] = [];
    const queue = [root];
    for (let head = 0; head < queue.length; head++) {
      for (const w of out[queue[head]]) {
        if (claimed[w] || !keep(w)) continue;
        claimed[w] = 1;
        waiting.push(w);
        queue.push(w);
      }
    }
    chains.push({ root, waiting });
  }
  return chains;
}
