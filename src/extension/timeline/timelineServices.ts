/**
 * What the timeline (controller, panel, sidebar view) needs from the rest of the extension, in a
 * file of its own so the timeline classes depend on it and not on timelineFeatures.ts (which
 * creates them: no import cycle). Everything a timeline shows comes from the sources' folders and
 * the worker's source-neutral timeline requests.
 */
import type * as vscode from "vscode";
import type { OutputLog } from "../outputLog";
import type { SourceFolder, StateNode } from "../sources/sourceAdapter";
import type { StateFolders } from "../sources/stateFolders";
import type { StateTreeProvider } from "../stateTreeProvider";
import type { StateWorkerClient } from "../stateWorkerClient";

/** Services the timeline uses. */
export interface TimelineServices {
  readonly folders: StateFolders;
  readonly worker: StateWorkerClient;
  readonly tree: StateTreeProvider;
  readonly treeView: vscode.TreeView<StateNode>;
  readonly log: OutputLog;
  /** Opens a file of a source's folder at a line (refused outside the folder). */
  openFile(folder: SourceFolder, file: string, line: number): Promise<void>;
}
