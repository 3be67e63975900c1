/**
 * The run-state nodes of an AutoDev root in the state tree: the worker's {@link SourceTreeNode}s
 * (waiting on top, then the phase contract of the current step; tournaments, knowledge, config and
 * spec below the plan; under each task its delegations and responses) wrapped as Plan nodes, each
 * click running `autodev.openRunTarget` with the folder and the node's target — except a task's
 * pending step, whose click opens its delegation as a Markdown preview (`autodev.openDelegation`:
 * frontmatter, prompt and injected lessons in one click).
 */
import * as vscode from "vscode";
import type { SourceTreeNode } from "../../../../core/sources/stateSource";
import type { AutodevNode } from "../autodevNodes";
import { nodeTooltip, themeIcon } from "../../sourceTreeItems";
import { contractTreeNode } from "../../../../core/sources/phaseContract";
import type { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevRunStateView } from "./runStateView";

type RootNode = Extract<AutodevNode, { kind: "root" }>;
type TaskNode = Extract<AutodevNode, { kind: "task" }>;

/**
 * The task's own step AutoDev waits on: its click opens the delegation as a preview. (The waiting node's
 * "Delegation" row keeps opening the file itself; its inline button is the preview.)
 */
const PENDING_DELEGATION: ReadonlySet<string> = new Set(["autodevStep.waiting"]);

function wrap(folder: AutodevFolder, node: SourceTreeNode, parent: AutodevNode): AutodevNode {
  const C = vscode.TreeItemCollapsibleState;
  const item = new vscode.TreeItem(
    node.label,
    node.children === undefined ? C.None : node.expanded ? C.Expanded : C.Collapsed,
  );
  item.description = node.description;
  if (node.tooltip || node.tooltipTimes?.length) item.tooltip = nodeTooltip(node);
  item.iconPath = themeIcon(node.icon);
  item.contextValue = node.contextValue ?? "autodevRun";
  if (PENDING_DELEGATION.has(item.contextValue)) {
    item.command = {
      command: "autodev.openDelegation",
      title: vscode.l10n.t("Open Delegation"),
      arguments: [folder.folder.uri.toString()],
    };
  } else if (node.target) {
    item.command = {
      command: "autodev.openRunTarget",
      title: vscode.l10n.t("Open"),
      arguments: [folder.folder.uri.toString(), node.target],
    };
  }
  const self: AutodevNode = {
    kind: "extra",
    id: `${folder.folder.uri.toString()}|${node.id}`,
    parent,
    item,
    children: node.children ? () => node.children!.map((c) => wrap(folder, c, self)) : undefined,
  };
  return self;
}

/** The nodes above (`top`) and below (`bottom`) the plan of `root`, empty until the first read. */
export function runStateNodes(
  view: AutodevRunStateView,
  folder: AutodevFolder,
  root: RootNode,
): { top: AutodevNode[]; bottom: AutodevNode[] } {
  const v = view.of(folder);
  if (!v) return { top: [], bottom: [] };
  const contract =
    folder.contract && !folder.timeTravel ? [contractTreeNode("autodev/contract", folder.contract.view)] : [];
  return {
    top: [...v.top, ...contract].map((n) => wrap(folder, n, root)),
    bottom: v.bottom.map((n) => wrap(folder, n, root)),
  };
}

/** The task's "Delegations" node (every delegation and response with where it stands), or none. */
export function taskRunNodes(view: AutodevRunStateView, folder: AutodevFolder, task: TaskNode): AutodevNode[] {
  const v = view.of(folder);
  if (!v || folder.timeTravel) return [];
  return v.taskHistory.filter((h) => h.taskId === task.task.id).map((h) => wrap(folder, h.node, task));
}
