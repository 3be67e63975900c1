/**
 * What the graph page derives from one {@link GraphView} before drawing: per task its position,
 * its marks (critical path, cycle, waiting on a blocked task), its neighbours for keyboard moves,
 * and its screen-reader sentence. Pure; no DOM.
 */
import type { GraphNode, GraphView, PlacedNode, StatusLook } from "../../src/protocolGraph";
import { l10n } from "../l10n";

/** One task as the page draws it. */
export interface NodeModel {
  readonly node: GraphNode;
  readonly at: PlacedNode;
  readonly look: StatusLook;
  readonly critical: boolean;
  readonly cyclic: boolean;
  /** The blocked task this one waits on, or null. */
  readonly waitsOn: string | null;
  readonly prerequisites: readonly string[];
  readonly dependants: readonly string[];
  /** What the editor adds about the task (its diffs' reviewed marks, "2/3 reviewed"), or null. */
  readonly note: string | null;
  /** What a screen reader says for the task. */
  readonly ariaLabel: string;
}

/** The derived model of a view. */
export interface ViewModel {
  readonly view: GraphView;
  readonly nodes: ReadonlyMap<string, NodeModel>;
  /** Task ids in reading order: by column (x), then top to bottom. */
  readonly order: readonly string[];
}

const UNKNOWN_LOOK: StatusLook = { icon: "question", color: "problemsWarningIcon.foreground", label: "unknown" };

function listIds(ids: readonly string[], max = 5): string {
  return ids.length <= max
    ? ids.join(", ")
    : l10n.t("{0} and {1} more", ids.slice(0, max).join(", "), ids.length - max);
}

/** Builds the model of a view (`notes`: the editor's word on some of its tasks, by task id). */
export function modelOf(view: GraphView, notes: Readonly<Record<string, string>> = {}): ViewModel {
  const g = view.graph;
  const a = view.analysis;
  const critical = new Set(a.criticalPath);
  const cyclic = new Set(a.inCycle);
  const waits = new Map<string, string>();
  for (const c of a.blockedChains) for (const w of c.waiting) waits.set(w, c.root);
  const pre = new Map<string, string[]>();
  const post = new Map<string, string[]>();
  for (const e of g.edges) {
    (post.get(e.from) ?? post.set(e.from, []).get(e.from)!).push(e.to);
    (pre.get(e.to) ?? pre.set(e.to, []).get(e.to)!).push(e.from);
  }
  const at = new Map(view.layout.nodes.map((p) => [p.id, p]));
  const nodes = new Map<string, NodeModel>();
  for (const n of g.nodes) {
    const look = Object.prototype.hasOwnProperty.call(view.looks, n.status) ? view.looks[n.status] : UNKNOWN_LOOK;
    const prerequisites = pre.get(n.id) ?? [];
    const dependants = post.get(n.id) ?? [];
    const note = Object.prototype.hasOwnProperty.call(notes, n.id) ? notes[n.id] : null;
    const parts = [
      n.label ? l10n.t("Task {0}, {1}", n.id, n.label) : l10n.t("Task {0}", n.id),
      look.label,
      note ?? "",
      n.retries > 0 ? l10n.t("retried {0} times", n.retries) : "",
      n.escalated ? l10n.t("escalated") : "",
      n.blockedReason ? l10n.t("blocked: {0}", n.blockedReason) : "",
      cyclic.has(n.id) ? l10n.t("in a dependency cycle") : "",
      waits.has(n.id) ? l10n.t("waits on blocked task {0}", waits.get(n.id)!) : "",
      critical.has(n.id) ? l10n.t("on the critical path") : "",
      prerequisites.length ? l10n.t("depends on {0}", listIds(prerequisites)) : "",
      dependants.length ? l10n.t("needed by {0}", listIds(dependants)) : "",
    ];
    nodes.set(n.id, {
      node: n,
      at: at.get(n.id) ?? { id: n.id, x: 0, y: 0 },
      look,
      critical: critical.has(n.id),
      cyclic: cyclic.has(n.id),
      waitsOn: waits.get(n.id) ?? null,
      prerequisites,
      dependants,
      note,
      ariaLabel: parts.filter(Boolean).join(", "),
    });
  }
  const order = [...nodes.values()].sort((p, q) => p.at.x - q.at.x || p.at.y - q.at.y).map((m) => m.node.id);
  return { view, nodes, order };
}

/** The task a key moves to from `id` (null: stay). Right/Left follow dependencies; Up/Down the column. */
export function moveFrom(model: ViewModel, id: string, key: string): string | null {
  const here = model.nodes.get(id);
  if (!here) return model.order[0] ?? null;
  const nearest = (ids: readonly string[]) =>
    ids
      .map((x) => model.nodes.get(x)!)
      .filter(Boolean)
      .sort((p, q) => Math.abs(p.at.y - here.at.y) - Math.abs(q.at.y - here.at.y))[0]?.node.id ?? null;
  switch (key) {
    case "ArrowRight":
      return nearest(here.dependants);
    case "ArrowLeft":
      return nearest(here.prerequisites);
    case "ArrowDown":
    case "ArrowUp": {
      const column = [...model.nodes.values()]
        .filter((m) => Math.abs(m.at.x - here.at.x) < 1)
        .sort((p, q) => p.at.y - q.at.y)
        .map((m) => m.node.id);
      const i = column.indexOf(id) + (key === "ArrowDown" ? 1 : -1);
      if (i >= 0 && i < column.length) return column[i];
      const j = model.order.indexOf(id) + (key === "ArrowDown" ? 1 : -1);
      return model.order[j] ?? null;
    }
    case "Home":
      return model.order[0] ?? null;
    case "End":
      return model.order[model.order.length - 1] ?? null;
    default:
      return null;
  }
}

/** One line about the view: counts, the critical path, cycles, blocked tasks. */
export function summaryOf(model: ViewModel): string {
  const g = model.view.graph;
  const a = model.view.analysis;
  const done = g.nodes.filter((n) => n.done).length;
  const parts = [l10n.t("{0} tasks, {1} done", g.nodes.length, done)];
  if (a.criticalPath.length > 0) {
    parts.push(l10n.t("critical path of {0}: {1}", a.criticalPath.length, listIds(a.criticalPath, 6)));
  }
  if (a.cycles.length > 0) parts.push(l10n.t("dependency cycles: {0}", a.cycles.length));
  const blocked = a.blockedChains.length;
  if (blocked > 0) {
    const waiting = a.blockedChains.reduce((n, c) => n + c.waiting.length, 0);
    parts.push(l10n.t("{0} blocked, holding up {1}", blocked, waiting));
  }
  if (g.verified === false) parts.push(l10n.t("NOT verified"));
  return parts.join(" · ");
}
