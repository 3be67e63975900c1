/**
 * The nodes of the Plan view. Each has a stable id (folder, kind, ids) so
 * expansion and selection survive refreshes and time travel.
 */
import * as vscode from "vscode";
import { Phase, Plan, Task } from "../core/sources/autodev/plan/schemas";
import { AutodevFolder } from "./sources/autodev/autodevFolder";
import type { SourceTreeNode } from "../core/sources/stateSource";
import type { SourceFolderState } from "./sources/sourceFolderState";

/** A node of the Plan tree. */
export type PlanNode =
  | { readonly kind: "root"; readonly id: string; readonly folder: AutodevFolder }
  | {
      readonly kind: "phase";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: PlanNode;
      readonly phase: Phase;
    }
  | {
      readonly kind: "task";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: PlanNode;
      readonly task: Task;
      readonly plan: Plan;
    }
  | {
      readonly kind: "criterion";
      readonly id: string;
      readonly parent: PlanNode;
      readonly text: string;
      readonly met: boolean;
    }
  | {
      readonly kind: "dependency";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: PlanNode;
      readonly taskId: string;
      readonly found: Task | null;
    }
  | {
      readonly kind: "file";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: PlanNode;
      readonly path: string;
    }
  | { readonly kind: "blocked"; readonly id: string; readonly parent: PlanNode; readonly reason: string }
  | {
      readonly kind: "group";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: PlanNode;
      readonly label: string;
      readonly icon: string;
      readonly children: () => Promise<PlanNode[]> | PlanNode[];
    }
  | {
      readonly kind: "info";
      readonly id: string;
      readonly parent: PlanNode | null;
      readonly label: string;
      readonly detail?: string;
      readonly icon: string;
      readonly color?: string;
      readonly command?: vscode.Command;
      readonly tooltip?: string;
    }
  | {
      readonly kind: "extra";
      readonly id: string;
      readonly parent: PlanNode;
      readonly item: vscode.TreeItem;
      readonly children?: () => Promise<PlanNode[]> | PlanNode[];
    }
  | { readonly kind: "sourceRoot"; readonly id: string; readonly state: SourceFolderState }
  | {
      readonly kind: "sourceNode";
      readonly id: string;
      readonly state: SourceFolderState;
      readonly parent: PlanNode;
      readonly node: SourceTreeNode;
    };

/** Stable id of a task node (used to reveal tasks from elsewhere). */
export function taskNodeId(folder: AutodevFolder, taskId: string): string {
  return `${folder.folder.uri.toString()}|task|${taskId}`;
}

/** Stable id of a phase node. */
export function phaseNodeId(folder: AutodevFolder, phaseId: string): string {
  return `${folder.folder.uri.toString()}|phase|${phaseId}`;
}

/** The task's phase-major index map (first task wins), for dependency links. */
export function taskIndex(plan: Plan): Map<string, Task> {
  const m = new Map<string, Task>();
  for (const p of plan.phases) for (const t of p.tasks) if (!m.has(t.id)) m.set(t.id, t);
  return m;
}

/** A one-line, human string of any value (blocked_reason may be any JSON). */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  try {
    return JSON.stringify(v, (_k, x) =>
      typeof x === "bigint" ? x.toString() : x instanceof Map ? Object.fromEntries(x) : x,
    );
  } catch {
    return String(v);
  }
}

/** Makes the children of a task: blocked reason, acceptance criteria, dependencies, files, then `extra` (evidence). */
export function taskChildren(node: Extract<PlanNode, { kind: "task" }>, extra: PlanNode[]): PlanNode[] {
  const { task, folder } = node;
  const out: PlanNode[] = [];
  if (task.status === "blocked" || (task.blocked_reason !== null && task.blocked_reason !== undefined)) {
    const reason = asText(task.blocked_reason);
    if (reason) out.push({ kind: "blocked", id: `${node.id}|blocked`, parent: node, reason });
  }
  task.acceptance.forEach((c, i) =>
    out.push({
      kind: "criterion",
      id: `${node.id}|ac|${i}|${c.id}`,
      parent: node,
      text: c.description || c.id,
      met: c.met,
    }),
  );
  const index = taskIndex(node.plan);
  for (const dep of task.depends_on) {
    out.push({
      kind: "dependency",
      id: `${node.id}|dep|${dep}`,
      folder,
      parent: node,
      taskId: dep,
      found: index.get(dep) ?? null,
    });
  }
  for (const f of task.files) out.push({ kind: "file", id: `${node.id}|file|${f}`, folder, parent: node, path: f });
  out.push(...extra);
  return out;
}
