/**
 * The extension's composition root: builds the worker client, the folder
 * registry, the Plan view, status bar, diagnostics and commands, and wires
 * them together. Everything heavy runs in the ledger worker thread.
 */
import * as vscode from "vscode";
import { shutdownFileLockHelpers } from "../core/lock/fileLock";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { CommandManager } from "./commandManager";
import { DiagnosticsSync } from "./diagnosticsSync";
import { demoWorkspaceHandlers } from "./demoWorkspaceCommand";
import { FolderPicker } from "./folderPicker";
import { LedgerCommands } from "./ledgerCommands";
import { LedgerDiagnostics } from "./ledgerDiagnostics";
import { LedgerWorkerClient } from "./ledgerWorkerClient";
import { OutputLog } from "./outputLog";
import { PlanNode } from "./planTreeNodes";
import { PlanTreeProvider } from "./planTreeProvider";
import { ReadOnlyDocuments } from "./readOnlyDocuments";
import { Settings } from "./settings";
import { StatusBarController } from "./statusBarController";
import { TaskCommands } from "./taskCommands";
import { registerEvidenceFeatures } from "./evidenceFeatures";
import { registerTimelineFeatures } from "./timelineFeatures";

/** What `activate` returns: handles for integration tests and other extensions. */
export interface AutodevApi {
  readonly workspaces: AutodevWorkspaces;
  readonly tree: PlanTreeProvider;
  readonly treeView: vscode.TreeView<PlanNode>;
  readonly diagnostics: LedgerDiagnostics;
  readonly commands: CommandManager;
  readonly statusBar: StatusBarController;
  readonly tasks: TaskCommands;
  readonly ledger: LedgerCommands;
}

/** Activates the extension. */
export function activate(context: vscode.ExtensionContext): AutodevApi {
  const log = new OutputLog();
  const settings = new Settings();
  const worker = new LedgerWorkerClient(log);
  const workspaces = new AutodevWorkspaces(worker, context.workspaceState, log, settings);
  const tree = new PlanTreeProvider(workspaces);
  const treeView = vscode.window.createTreeView("autodev.plan", { treeDataProvider: tree, showCollapseAll: true });
  const diagnostics = new LedgerDiagnostics();
  const statusBar = new StatusBarController(workspaces);
  const docs = new ReadOnlyDocuments();
  const picker = new FolderPicker(workspaces);
  const commands = new CommandManager(log);
  const ledger = new LedgerCommands(workspaces, worker, picker, docs, log, settings, statusBar);
  const tasks = new TaskCommands(workspaces, worker, picker, tree, () => treeView, settings, log);
  commands.registerAll({ ...ledger.handlers(), ...tasks.handlers(), ...demoWorkspaceHandlers(context.globalStorageUri) });
  const sync = new DiagnosticsSync(workspaces, worker, diagnostics, settings);
  context.subscriptions.push(log, worker, workspaces, tree, treeView, diagnostics, statusBar, docs, commands, sync);
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(() => void vscode.commands.executeCommand("setContext", "autodev.trusted", true)),
    treeView.onDidChangeVisibility((e) => e.visible && void workspaces.refreshAll()),
  );
  void vscode.commands.executeCommand("setContext", "autodev.trusted", vscode.workspace.isTrusted);
  registerEvidenceFeatures(context, { workspaces, tree, commands, docs, log, picker });
  registerTimelineFeatures(context, { workspaces, worker, tree, treeView, commands, log, picker });
  workspaces.sync();
  log.info(`AutoDev State activated (${vscode.workspace.isTrusted ? "trusted" : "untrusted: read-only"} workspace)`);
  return { workspaces, tree, treeView, diagnostics, commands, statusBar, tasks, ledger };
}

/** Ends idle lock helpers; everything else is disposed through the context's subscriptions. */
export function deactivate(): Promise<void> {
  return shutdownFileLockHelpers();
}
