// Helpers of the reviewed-marks tests (this window's and the next one's).
import * as vscode from "vscode";
import type { PatchSource } from "../../../src/core/sources/autodev/evidence/evidenceNames";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { taskNodeId } from "../../../src/extension/sources/autodev/autodevNodes";
import type { StateNode } from "../../../src/extension/sources/sourceAdapter";
import { autodevOf, childrenOf } from "../helpers";
import { pollUntil } from "../../helpers/poll";

/** The file (in the workspace folder) where the first window says what the next must find. */
export const RELOAD_EXPECTATION = "it-reviewed-marks.json";

/** A diff row of a task in the Plan view: its source, node, checkbox and spoken label. */
export interface DiffRow {
  readonly source: PatchSource;
  readonly node: StateNode;
  readonly checked: boolean;
  readonly spoken: string;
}

/** The rows of a task (below it, and below its bundles) that carry a reviewed mark's checkbox. */
export async function diffRows(a: StateApi, folder: AutodevFolder, taskId: string): Promise<DiffRow[]> {
  const task = await autodevOf(a).findTaskNode(folder, taskId);
  if (!task) throw new Error(`task ${taskId} is not in the tree`);
  const out: DiffRow[] = [];
  const visit = async (nodes: StateNode[], depth: number) => {
    for (const node of nodes) {
      const target = autodevOf(a).evidence.contributor.targetOf(node);
      const item = a.tree.getTreeItem(node);
      const box = item.checkboxState;
      if (target?.source && box !== undefined && typeof box === "object") {
        out.push({
          source: target.source,
          node,
          checked: box.state === vscode.TreeItemCheckboxState.Checked,
          spoken: box.accessibilityInformation?.label ?? "",
        });
      } else if (target?.kind === "tournament" && depth === 0) await visit(await childrenOf(a, node), 1);
    }
  };
  await visit(await childrenOf(a, task), 0);
  return out;
}

/** The description of a task's row, as the tree renders it now. */
export function taskDescription(a: StateApi, folder: AutodevFolder, taskId: string): string {
  const node = autodevOf(a).tree.nodeById(taskNodeId(folder, taskId));
  return node ? String(a.tree.getTreeItem(node).description ?? "") : "(not rendered)";
}

/** Polls an async `check` every 200 ms until it returns true or `timeoutMs` passes. */
export async function eventuallyAsync(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  return pollUntil(check, timeoutMs, 200);
}
