/**
 * How a graph node looks, in the tree's language (src/core/sources/taskStatusIcons.ts): a codicon,
 * a theme colour and a word. A source's own status names that the shared language does not know
 * (agloop's "done", "failed") take the look of what they mean (complete, blocked), so every
 * source's graph reads the same; anything else is the warning-coloured question mark.
 */
import { taskStatusIcon, taskStatusLabel } from "../sources/taskStatusIcons";
import type { GraphNode } from "./planGraph";
import type { StatusLook } from "./graphViewTypes";

/** The look of a node's status. */
export function statusLook(node: Pick<GraphNode, "status" | "done" | "blocked">): StatusLook {
  const own = taskStatusIcon(node.status);
  if (own.id !== "question") return { icon: own.id, color: own.color ?? null, label: taskStatusLabel(node.status) };
  const meant = node.done ? "complete" : node.blocked ? "blocked" : null;
  if (meant) {
    const m = taskStatusIcon(meant);
    return { icon: m.id, color: m.color ?? null, label: node.status.replace(/_/g, " ").slice(0, 40) };
  }
  return { icon: own.id, color: own.color ?? null, label: `unknown status ${node.status.slice(0, 40)}` };
}

/** The looks of every status that occurs in `nodes`, by status. */
export function statusLooks(nodes: readonly GraphNode[]): Record<string, StatusLook> {
  const out: Record<string, StatusLook> = Object.create(null) as Record<string, StatusLook>;
  for (const n of nodes) if (!Object.prototype.hasOwnProperty.call(out, n.status)) out[n.status] = statusLook(n);
  return out;
}
