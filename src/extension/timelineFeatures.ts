/**
 * Registers the ledger timeline webview. Filled in by the timeline work; for now nothing.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { CommandManager } from "./commandManager";
import { FolderPicker } from "./folderPicker";
import { LedgerWorkerClient } from "./ledgerWorkerClient";
import { OutputLog } from "./outputLog";
import { PlanNode } from "./planTreeNodes";
import { PlanTreeProvider } from "./planTreeProvider";

/** Services the timeline uses. */
export interface TimelineServices {
  readonly workspaces: AutodevWorkspaces;
  readonly worker: LedgerWorkerClient;
  readonly tree: PlanTreeProvider;
  readonly treeView: vscode.TreeView<PlanNode>;
  readonly commands: CommandManager;
  readonly log: OutputLog;
  readonly picker: FolderPicker;
}

/** Registers the timeline panel/view and its commands. */
export function registerTimelineFeatures(_context: vscode.ExtensionContext, _services: TimelineServices): void {}
