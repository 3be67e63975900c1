/**
 * AutoDev's nodes in the state tree: a folder's root, phases, tasks and what hangs under a task.
 * Each has a stable id (folder, kind, ids) so expansion and selection survive refreshes and time
 * travel.
 */
import * as vscode from "vscode";
import { Phase, Plan, Task } from "../../../core/sources/autodev/plan/schemas";
import type { AutodevFolder } from "./folder/autodevFolder";

/** A node of AutoDev's part of the state tree. */
export type AutodevNode =
  | { readonly kind: "root"; readonly id: string; readonly folder: AutodevFolder }
  | {
      readonly kind: "phase";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: AutodevNode;
      readonly phase: Phase;
    }
  | {
      readonly kind: "task";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: AutodevNode;
      readonly task: Task;
      readonly plan: Plan;
    }
  | {
      readonly kind: "criterion";
      readonly id: string;
      readonly parent: AutodevNode;
      readonly text: string;
      readonly met: boolean;
    }
  | {
      readonly kind: "dependency";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: AutodevNode;
      readonly taskId: string;
      readonly found: Task | null;
    }
  | {
      readonly kind: "file";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: AutodevNode;
      readonly path: string;
    }
  | { readonly kind: "blocked"; readonly id: string; readonly parent: AutodevNode; readonly reason: string }
  | {
      readonly kind: "group";
      readonly id: string;
      readonly folder: AutodevFolder;
      readonly parent: AutodevNode;
      readonly label: string;
      readonly icon: string;
      readonly children: () => Promise<AutodevNode[]> | AutodevNode[];
    }
  | {
      readonly kind: "info";
      readonly id: string;
      readonly parent: AutodevNode | null;
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
      readonly parent: AutodevNode;
      readonly item: vscode.TreeItem;
      readonly children?: () => Promise<AutodevNode[]> | AutodevNode[];
    };

/** Stable id of a task node (used to reveal tasks from elsewhere). */
export function taskNodeId(folder: AutodevFolder, taskId: string): string {
  return taskNodeIdIn(folder.folder.uri.toString(), taskId);
}

/** Stable id of a task node, from the workspace folder's URI string. */
export function taskNodeIdIn(folderUri: string, taskId: string): string {
  return `${folderUri}|task|${taskId}`;
}

/** Stable id of a phase node. */
export function phaseNodeId(folder: AutodevFolder, phaseId: string): string {
  return `${folder.folder.uri.toString()}|phase|${phaseId}`;
}

/** The task's phase-major index map (first task wins), for dependency links. */
function taskIndex(plan: Plan): Map<string, Task> {
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
export function taskChildren(node: Extract<AutodevNode, { kind: "task" }>, extra: AutodevNode[]): AutodevNode[] {
  const { task, folder } = node;
  const out: AutodevNode[] = [];
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
