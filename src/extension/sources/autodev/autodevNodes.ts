/**
 * AutoDev's nodes in the state tree: a folder's root, the nodes of the core tree the worker
 * composed (tree/stateTree.ts: phases, tasks and everything else, wrapped with the folder and a
 * parent), and what only the editor adds — info rows (time travel, a rewritten history, loading),
 * groups and contributed items (evidence, reviewed marks). Each has a stable id (folder URI and the
 * core node's id) so expansion and selection survive refreshes and time travel.
 */
import type * as vscode from "vscode";
import type { SourceTreeNode } from "../../../core/sources/stateSource";
import type { Task } from "../../../core/sources/autodev/plan/schemas";
import { taskNodeKey } from "../../../core/sources/autodev/tree/planSummary";
import type { AutodevFolder } from "./folder/autodevFolder";

/** A node of the core tree as the editor shows it: a phase, a task (with its plan task) or any other. */
interface Wrapped {
  readonly id: string;
  readonly folder: AutodevFolder;
  readonly parent: AutodevNode;
  readonly node: SourceTreeNode;
}

/** A node of AutoDev's part of the state tree. */
export type AutodevNode =
  | { readonly kind: "root"; readonly id: string; readonly folder: AutodevFolder }
  | (Wrapped & { readonly kind: "phase" })
  | (Wrapped & { readonly kind: "task"; readonly task: Task })
  | (Wrapped & { readonly kind: "node" })
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
  return `${folderUri}|${taskNodeKey(taskId)}`;
}

/** The root node's id of a folder. */
export function rootNodeId(folder: AutodevFolder): string {
  return `${folder.folder.uri.toString()}|root`;
}
