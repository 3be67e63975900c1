/**
 * Everything the graph view shows for one workspace folder: each state source's graph with its
 * analysis and its layout. Runs where files may be read and time may be spent — the state worker
 * thread, the CLI — never on the editor's main thread. Layouts are cached by the graph's
 * structure (tasks, dependencies, phases; not statuses), so the common live update (a status
 * changed) reuses the last layout and costs only the read and the analysis.
 */
import { createHash } from "node:crypto";
import { STATE_SOURCES } from "../sources/sourceRegistry";
import type { SourceSettings, StateSource } from "../sources/stateSource";
import { analyzeGraph } from "./graphAnalysis";
import { layoutGraph } from "./graphLayout";
import type { PlanGraph } from "./planGraph";
import { statusLooks } from "./statusLook";
import type { GraphLayout, GraphView, GraphViewsResult } from "./graphViewTypes";
import { errorText } from "../text/errorText";

/** How many layouts are remembered (one per structure). */
const LAYOUT_CACHE_SIZE = 16;
const layouts = new Map<string, GraphLayout>();

/** A key of what the layout depends on: node ids and phases in order, edges, groups. */
export function structureKey(g: PlanGraph): string {
  const h = createHash("sha256");
  h.update(JSON.stringify(g.groups.map((x) => x.id)));
  for (const n of g.nodes) h.update(JSON.stringify([n.id, n.phase]));
  h.update("|");
  for (const e of g.edges) h.update(JSON.stringify([e.from, e.to]));
  return h.digest("hex").slice(0, 32);
}

/** The layout of `g`, from the cache when its structure was laid out before. */
export function cachedLayout(g: PlanGraph): { layout: GraphLayout; key: string } {
  const key = structureKey(g);
  let layout = layouts.get(key);
  if (layout) layouts.delete(key);
  else layout = layoutGraph(g);
  layouts.set(key, layout);
  while (layouts.size > LAYOUT_CACHE_SIZE) layouts.delete(layouts.keys().next().value as string);
  return { layout, key };
}

/** Reads, analyses and lays out the graph of every source found in `workspace` that has one. */
export async function graphViewsOf(
  workspace: string,
  sources: readonly StateSource[] = STATE_SOURCES,
  options: { settings?: Readonly<Record<string, SourceSettings>> } = {},
): Promise<GraphViewsResult> {
  const views: GraphView[] = [];
  const errors: { kind: string; message: string }[] = [];
  for (const source of sources) {
    if (!source.graph) continue;
    try {
      const settings =
        options.settings && Object.prototype.hasOwnProperty.call(options.settings, source.kind)
          ? options.settings[source.kind]
          : undefined;
      const location = await source.detect(workspace, settings ? { settings } : {});
      if (!location) continue;
      const graph = await source.graph(location);
      const { layout, key } = cachedLayout(graph);
      views.push({
        kind: source.kind,
        displayName: source.displayName,
        graph,
        analysis: analyzeGraph(graph),
        layout,
        structureKey: key,
        looks: statusLooks(graph.nodes),
      });
    } catch (e) {
      errors.push({ kind: source.kind, message: errorText(e) });
    }
  }
  return { views, errors };
}
