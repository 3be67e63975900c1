/**
 * What the timeline (controller, panel, sidebar view) needs from the rest of
 * the extension, in a file of its own so the timeline classes depend on it
 * and not on timelineFeatures.ts (which creates them: no import cycle).
 */
import * as vscode from "vscode";
import type { AutodevWorkspaces } from "./sources/autodev/autodevWorkspaces";
import type { CommandManager } from "./commandManager";
import type { FolderPicker } from "./folderPicker";
import type { LedgerWorkerClient } from "./ledgerWorkerClient";
import type { OutputLog } from "./outputLog";
import type { PlanNode } from "./planTreeNodes";
import type { PlanTreeProvider } from "./planTreeProvider";
import type { SourceWorkspaces } from "./sources/sourceWorkspaces";

/** AutoDev actions the timeline webview asks for, called directly (not through command ids). */
export interface TimelineActions {
  /** Opens the ledger of a folder at a line. */
  openLedgerLine(folderUri: string, line: number): Promise<void>;
  /** Shows a folder's plan as of entry `seq` in the Plan view. */
  showPlanAsOf(folderUri: string, seq: number): Promise<void>;
  /** Returns a folder's Plan view to the live plan. */
  backToLive(folderUri: string): Promise<void>;
  /** Reveals and focuses a task in the Plan view. */
  revealTask(folderUri: string, taskId: string): Promise<void>;
}

/** Services the timeline uses. */
export interface TimelineServices {
  readonly workspaces: AutodevWorkspaces;
  /** The other state sources (their timelines are offered next to the AutoDev folders). */
  readonly sources?: SourceWorkspaces;
  readonly worker: LedgerWorkerClient;
  readonly tree: PlanTreeProvider;
  readonly treeView: vscode.TreeView<PlanNode>;
  readonly commands: CommandManager;
  readonly log: OutputLog;
  readonly picker: FolderPicker;
  readonly actions: TimelineActions;
}
