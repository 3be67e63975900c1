/**
 * Registers the AutoDev run-state features: the run view (worker-computed, kept fresh; its nodes
 * are in each folder's core tree), the run status bar item and what answers
 * `autodev.openRunTarget` (its problems are the folder's). Everything is disposed with the extension.
 */
import * as vscode from "vscode";
import type { OutputLog } from "../../../outputLog";
import type { ReadOnlyDocuments } from "../../../readOnlyDocuments";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import type { AutodevFolders } from "../folder/autodevFolders";
import { AutodevRunStateView } from "./runStateView";
import { RunStatusItem } from "./runStatusItem";
import { RunTargetOpener } from "./runTargetOpener";

/** Handles to the run-state features (for tests). */
export interface RunStateFeatures {
  readonly view: AutodevRunStateView;
  readonly status: RunStatusItem;
  readonly opener: RunTargetOpener;
}

/** Registers the run-state view and status item; `opener` answers `autodev.openRunTarget` (the adapter registers it). */
export function registerRunStateFeatures(
  context: vscode.ExtensionContext,
  s: {
    folders: AutodevFolders;
    worker: StateWorkerClient;
    log: OutputLog;
    docs: ReadOnlyDocuments;
  },
): RunStateFeatures {
  const view = new AutodevRunStateView(s.folders, s.worker, s.log);
  const status = new RunStatusItem(view);
  const opener = new RunTargetOpener(s.folders, s.docs, s.worker);
  context.subscriptions.push(view, status);
  return { view, status, opener };
}
