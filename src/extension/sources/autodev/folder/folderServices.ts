/**
 * What an AutoDev folder reads and reports through: the state worker, the workspace state, the
 * output log and the adapter's hooks into the tree, the reviewed marks and the timeline.
 */
import type * as vscode from "vscode";
import type { FolderReviewMarks } from "../../../../core/sources/reviewMarkSchema";
import type { OutputLog } from "../../../outputLog";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import type { SourceFolder } from "../../sourceAdapter";

/** What an AutoDev folder reads and reports through. */
export interface FolderServices {
  readonly worker: StateWorkerClient;
  /** The workspace state: verification records and remembered heads survive the window. */
  readonly memento: vscode.Memento;
  readonly log: OutputLog;
  /** Reveals a task of `folder` in the tree; true when the selection changed. */
  revealTask(folder: SourceFolder, taskId: string, focus: boolean): Promise<boolean>;
  /** The reviewed marks of a workspace folder (by its URI string). */
  reviewMarks?(folderUri: string): FolderReviewMarks;
  /** What the timeline says about a task of `folder` ("1/2 reviewed"), or null. */
  taskNote?(folder: SourceFolder, taskId: string): Promise<string | null>;
}
