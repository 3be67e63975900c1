/**
 * Registers the AutoDev run-state features: the run view (worker-computed, kept fresh), its
 * nodes above and below each plan in the Plan view, its Problems, the run status bar item and
 * `autodev.openRunTarget`. Everything is disposed with the extension.
 */
import * as vscode from "vscode";
import { CommandManager } from "../../commandManager";
import { LedgerWorkerClient } from "../../ledgerWorkerClient";
import { OutputLog } from "../../outputLog";
import { PlanTreeProvider } from "../../planTreeProvider";
import { ReadOnlyDocuments } from "../../readOnlyDocuments";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { RunStateDiagnostics } from "./runStateDiagnostics";
import { runStateNodes } from "./runStateNodes";
import { AutodevRunStateView } from "./runStateView";
import { RunStatusItem } from "./runStatusItem";
import { RunTargetOpener } from "./runTargetOpener";

/** Handles to the run-state features (for tests). */
export interface RunStateFeatures {
  readonly view: AutodevRunStateView;
  readonly diagnostics: RunStateDiagnostics;
  readonly status: RunStatusItem;
  readonly opener: RunTargetOpener;
}

/** Registers the run-state view, tree nodes, problems, status item and open command. */
export function registerRunStateFeatures(
  context: vscode.ExtensionContext,
  s: {
    workspaces: AutodevWorkspaces;
    worker: LedgerWorkerClient;
    log: OutputLog;
    tree: PlanTreeProvider;
    commands: CommandManager;
    docs: ReadOnlyDocuments;
  },
): RunStateFeatures {
  const view = new AutodevRunStateView(s.workspaces, s.worker, s.log);
  const diagnostics = new RunStateDiagnostics(view);
  const status = new RunStatusItem(view);
  const opener = new RunTargetOpener(s.workspaces, s.docs);
  s.commands.registerAll({ "autodev.openRunTarget": (folderUri, target) => opener.open(folderUri, target) });
  s.tree.setRunContributor((folder, root) => runStateNodes(view, folder, root), view.onDidChange);
  context.subscriptions.push(view, diagnostics, status);
  return { view, diagnostics, status, opener };
}
