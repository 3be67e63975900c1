/**
 * A plan graph as Graphviz DOT and as a Mermaid flowchart, for docs and pull requests. Titles,
 * ids and statuses are hostile text, so nothing from the state files reaches either syntax raw:
 * vertices get synthetic names (n0, n1, …), labels are quoted and escaped (DOT) or spelled with
 * Mermaid's `#code;` entities, and styles come from a fixed list, never from a status string.
 * Every label says the status in words, so the output reads without colour.
 */
import { blankHidden } from "../text/untrustedText";
import type { GraphAnalysis } from "./graphAnalysis";
import type { GraphNode, PlanGraph } from "./planGraph";

/** Styles by how far a task is; a status outside these is drawn as "other". */
const STATUS_CLASS: Record<string, string> = {
  pending: "pending",
  in_progress: "active",
  coded: "active",
  auto_gated: "active",
  reviewed: "active",
  tested: "active",
  tournamented: "active",
  complete: "done",
  done: "done",
  skipped: "skipped",
  blocked: "blocked",
  failed: "blocked",
};

const CLASS_STYLE: Record<string, { fill: string; stroke: string; dashed?: boolean }> = {
  pending: { fill: "#ffffff", stroke: "#6a737d" },
  active: { fill: "#dbeafe", stroke: "#1d4ed8" },
  done: { fill: "#dcfce7", stroke: "#15803d" },
  skipped: { fill: "#f3f4f6", stroke: "#6b7280", dashed: true },
  blocked: { fill: "#fef3c7", stroke: "#b45309" },
  other: { fill: "#fee2e2", stroke: "#b91c1c", dashed: true },
};

/** The fixed style class of a node ("pending", "active", "done", "skipped", "blocked", "other"). */
function statusClass(node: Pick<GraphNode, "status" | "done" | "blocked">): string {
  if (Object.prototype.hasOwnProperty.call(STATUS_CLASS, node.status)) return STATUS_CLASS[node.status];
  return node.done ? "done" : node.blocked ? "blocked" : "other";
}

/** The text a node shows: id, title, status in words, retry and escalation marks. */
function nodeText(n: GraphNode, critical: boolean, cyclic: boolean): string {
  const marks = [
    n.status,
    n.retries > 0 ? `retried ${n.retries}×` : "",
    n.escalated ? "escalated" : "",
    cyclic ? "in a cycle" : "",
    critical ? "critical path" : "",
  ].filter(Boolean);
  const title = n.label && n.label !== n.id ? ` ${n.label}` : "";
  return blankHidden(`${n.id}${title} (${marks.join(", ")})`);
}

/** A DOT quoted string: `"` and `\` escaped, so the text cannot end the string or start an escape. */
function dotString(text: string): string {
  return `"${blankHidden(text).replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A Mermaid label: letters, digits, spaces and `.,_-/:()+=?!@'` as they are, every other character as
 * a `#code;` entity (so no quote, bracket, pipe, backtick, `<`, `&`, `#` or `%%` can end the label or become markup).
 */
export function mermaidLabel(text: string): string {
  let out = "";
  for (const ch of blankHidden(text)) {
    out += /^[\p{L}\p{N} .,_\-/:()+=?!@']$/u.test(ch) ? ch : `#${ch.codePointAt(0)};`;
  }
  return `"${out}"`;
}

/** The fixed warning an unverified graph carries in every format (null when verified or not checkable). */
export function unverifiedWarning(graph: Pick<PlanGraph, "verified" | "unreadable">): string | null {
  if (graph.verified !== false) return null;
  return graph.unreadable
    ? "NOT VERIFIED: the state could not be read, nothing is drawn (run autodev-state verify)"
    : "NOT VERIFIED: the ledger does not verify; this is the last plan readable from its tail (run autodev-state verify)";
}

function marks(graph: PlanGraph, analysis: GraphAnalysis) {
  const critical = new Set(analysis.criticalPath);
  const cyclic = new Set(analysis.inCycle);
  const name = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const onPath = new Set<string>();
  for (let i = 1; i < analysis.criticalPath.length; i++) {
    onPath.add(JSON.stringify([analysis.criticalPath[i - 1], analysis.criticalPath[i]]));
  }
  return { critical, cyclic, name, isPathEdge: (from: string, to: string) => onPath.has(JSON.stringify([from, to])) };
}

/** The graph as Graphviz DOT: one cluster per phase, cycle edges red, the critical path bold. */
export function graphToDot(graph: PlanGraph, analysis: GraphAnalysis): string {
  const m = marks(graph, analysis);
  const lines = [
    "digraph plan {",
    "  rankdir=LR;",
    '  node [shape=box, style="rounded,filled", fontname="Helvetica"];',
    `  label=${dotString(`${graph.kind} ${graph.path}`)};`,
  ];
  const warning = unverifiedWarning(graph);
  if (warning) {
    lines.splice(1, 0, `  // ${warning}`);
    lines[lines.length - 1] = `  label=${dotString(`${graph.kind} ${graph.path} — ${warning}`)};`;
    lines.push("  labelloc=t;", '  fontcolor="#b91c1c";');
    lines.push(
      `  unverified [shape=note, style=filled, fillcolor="#fee2e2", color="#b91c1c", label=${dotString(warning)}];`,
    );
  }
  const nodeLine = (n: GraphNode): string => {
    const cls = statusClass(n);
    const s = CLASS_STYLE[cls];
    const style = ["rounded", "filled", s.dashed ? "dashed" : "", m.critical.has(n.id) ? "bold" : ""].filter(Boolean);
    const attrs = [
      `label=${dotString(nodeText(n, m.critical.has(n.id), m.cyclic.has(n.id)))}`,
      `style=${dotString(style.join(","))}`,
      `fillcolor="${s.fill}"`,
      `color="${m.cyclic.has(n.id) ? "#dc2626" : s.stroke}"`,
      m.critical.has(n.id) ? "penwidth=2.5" : "",
    ].filter(Boolean);
    return `${m.name.get(n.id)} [${attrs.join(", ")}];`;
  };
  const grouped = new Set<string>();
  graph.groups.forEach((g, gi) => {
    const members = graph.nodes.filter((n) => n.phase === g.id);
    if (members.length === 0) return;
    lines.push(`  subgraph cluster_${gi} {`, `    label=${dotString(g.label || g.id)};`);
    for (const n of members) {
      grouped.add(n.id);
      lines.push(`    ${nodeLine(n)}`);
    }
    lines.push("  }");
  });
  for (const n of graph.nodes) if (!grouped.has(n.id)) lines.push(`  ${nodeLine(n)}`);
  for (const e of graph.edges) {
    const cyc = m.cyclic.has(e.from) && m.cyclic.has(e.to);
    const attrs = [cyc ? 'color="#dc2626"' : "", m.isPathEdge(e.from, e.to) ? "penwidth=2.5" : ""].filter(Boolean);
    lines.push(`  ${m.name.get(e.from)} -> ${m.name.get(e.to)}${attrs.length ? ` [${attrs.join(", ")}]` : ""};`);
  }
  lines.push("}");
  return lines.join("\n") + "\n";
}

/** The graph as a Mermaid flowchart: one subgraph per phase, a class per status family, cycle and critical-path links styled. */
export function graphToMermaid(graph: PlanGraph, analysis: GraphAnalysis): string {
  const m = marks(graph, analysis);
  const lines = ["flowchart LR"];
  const warning = unverifiedWarning(graph);
  if (warning) lines.push(`  %% ${warning}`, `  unverified[${mermaidLabel(warning)}]:::other`);
  const nodeLine = (n: GraphNode): string =>
    `${m.name.get(n.id)}[${mermaidLabel(nodeText(n, m.critical.has(n.id), m.cyclic.has(n.id)))}]:::${statusClass(n)}`;
  const grouped = new Set<string>();
  graph.groups.forEach((g, gi) => {
    const members = graph.nodes.filter((n) => n.phase === g.id);
    if (members.length === 0) return;
    lines.push(`  subgraph g${gi}[${mermaidLabel(g.label || g.id)}]`);
    for (const n of members) {
      grouped.add(n.id);
      lines.push(`    ${nodeLine(n)}`);
    }
    lines.push("  end");
  });
  for (const n of graph.nodes) if (!grouped.has(n.id)) lines.push(`  ${nodeLine(n)}`);
  const cycleLinks: number[] = [];
  const pathLinks: number[] = [];
  graph.edges.forEach((e, i) => {
    lines.push(`  ${m.name.get(e.from)} --> ${m.name.get(e.to)}`);
    if (m.cyclic.has(e.from) && m.cyclic.has(e.to)) cycleLinks.push(i);
    else if (m.isPathEdge(e.from, e.to)) pathLinks.push(i);
  });
  for (const [cls, s] of Object.entries(CLASS_STYLE)) {
    lines.push(`  classDef ${cls} fill:${s.fill},stroke:${s.stroke}${s.dashed ? ",stroke-dasharray:4 3" : ""}`);
  }
  if (cycleLinks.length > 0) lines.push(`  linkStyle ${cycleLinks.join(",")} stroke:#dc2626,stroke-width:2px`);
  if (pathLinks.length > 0) lines.push(`  linkStyle ${pathLinks.join(",")} stroke-width:3px`);
  return lines.join("\n") + "\n";
}
