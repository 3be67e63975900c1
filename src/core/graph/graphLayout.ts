/**
 * Positions for a plan graph, computed with `@dagrejs/dagre` (layered layout: prerequisites left,
 * dependants right, phases as boxes around their tasks). Runs in Node — the worker thread for the
 * editor, the CLI for `--format svg` — so the webview only draws numbers and needs neither `eval`
 * nor workers; dagre breaks cycles itself, so a hostile plan lays out too. Plain data out.
 */
import { graphlib, layout } from "@dagrejs/dagre";
import type { PlanGraph } from "./planGraph";
import type { GraphLayout, PlacedGroup } from "./graphViewTypes";

/** Width of a task box, in layout units (CSS pixels at zoom 1). */
export const NODE_WIDTH = 200;
/** Height of a task box. */
export const NODE_HEIGHT = 52;

const round = (v: number | undefined): number => Math.round((v ?? 0) * 10) / 10;

/** Lays the graph out left to right; phases become clusters when `groups` is true (the default). */
export function layoutGraph(graph: PlanGraph, options: { groups?: boolean } = {}): GraphLayout {
  const useGroups = options.groups !== false && graph.groups.length > 1;
  const g = new graphlib.Graph({ multigraph: false, compound: useGroups });
  g.setGraph({ rankdir: "LR", nodesep: 18, ranksep: 56, edgesep: 10, marginx: 16, marginy: 16, ranker: "tight-tree" });
  g.setDefaultEdgeLabel(() => ({}));
  // Vertex names are synthetic: a task id like "__proto__" must not reach graphlib's keys.
  const name = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const groupName = new Map(graph.groups.map((p, i) => [p.id, `g${i}`]));
  if (useGroups) for (const p of graph.groups) g.setNode(groupName.get(p.id)!, {});
  for (const n of graph.nodes) {
    const v = name.get(n.id)!;
    g.setNode(v, { width: NODE_WIDTH, height: NODE_HEIGHT });
    const parent = n.phase === null ? undefined : groupName.get(n.phase);
    if (useGroups && parent !== undefined) g.setParent(v, parent);
  }
  for (const e of graph.edges) {
    if (e.from !== e.to) g.setEdge(name.get(e.from)!, name.get(e.to)!);
  }
  layout(g);
  const nodes = graph.nodes.map((n) => {
    const p = g.node(name.get(n.id)!);
    return { id: n.id, x: round(p.x), y: round(p.y) };
  });
  const edges = graph.edges.map((e) => {
    if (e.from === e.to) {
      const p = g.node(name.get(e.from)!);
      const [x, y] = [p.x ?? 0, (p.y ?? 0) - NODE_HEIGHT / 2];
      return {
        from: e.from,
        to: e.to,
        points: [
          { x: x - 20, y },
          { x, y: y - 24 },
          { x: x + 20, y },
        ],
      };
    }
    const points = g.edge(name.get(e.from)!, name.get(e.to)!)?.points ?? [];
    return {
      from: e.from,
      to: e.to,
      points: points.map((p: { x: number; y: number }) => ({ x: round(p.x), y: round(p.y) })),
    };
  });
  const groups: PlacedGroup[] = [];
  if (useGroups) {
    for (const p of graph.groups) {
      const box = g.node(groupName.get(p.id)!);
      if (!box || !box.width) continue;
      groups.push({
        id: p.id,
        x: round((box.x ?? 0) - box.width / 2),
        y: round((box.y ?? 0) - (box.height ?? 0) / 2),
        width: round(box.width),
        height: round(box.height),
      });
    }
  }
  const label = g.graph();
  return { width: round(label.width), height: round(label.height), nodes, edges, groups };
}
