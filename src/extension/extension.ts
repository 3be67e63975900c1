/**
 * The extension's composition root: builds the worker client, the folder
 * registry, the Plan view, status bar, diagnostics and commands, and wires
 * them together. Everything heavy runs in the ledger worker thread.
 */
import * as vscode from "vscode";
import { shutdownFileLockHelpers } from "../core/sources/autodev/lock/fileLock";
import { AutodevWorkspaces } from "./sources/autodev/autodevWorkspaces";
import { CommandManager } from "./commandManager";
import { DiagnosticsSync } from "./sources/autodev/diagnosticsSync";
import { demoWorkspaceHandlers } from "./demoWorkspaceCommand";
import { FolderPicker } from "./folderPicker";
import { LedgerCommands } from "./sources/autodev/ledgerCommands";
import { LedgerDiagnostics } from "./sources/autodev/ledgerDiagnostics";
import { LedgerWorkerClient } from "./ledgerWorkerClient";
import { OutputLog } from "./outputLog";
import { PlanNode } from "./planTreeNodes";
import { PlanTreeProvider } from "./planTreeProvider";
import { ReadOnlyDocuments } from "./readOnlyDocuments";
import { Settings } from "./settings";
import { StatusBarController } from "./statusBarController";
import { TaskCommands } from "./sources/autodev/taskCommands";
import { registerEvidenceFeatures } from "./sources/autodev/evidenceFeatures";
import { registerTimelineFeatures } from "./timelineFeatures";
import { SourceWorkspaces } from "./sources/sourceWorkspaces";
import { SourceDiagnostics } from "./sources/sourceDiagnostics";
import { RunStateFeatures, registerRunStateFeatures } from "./sources/autodev/runStateFeatures";
import { createSourceWorkspaces, registerSourceFeatures } from "./sources/sourceFeatures";

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
  /** Every state source other than AutoDev, per workspace folder. */
  readonly sources: SourceWorkspaces;
  readonly sourceDiagnostics: SourceDiagnostics;
  /** AutoDev's run state: running, inline suspension, tournaments, knowledge, config, spec. */
  readonly run: RunStateFeatures;
}

/** Activates the extension. */
export function activate(context: vscode.ExtensionContext): AutodevApi {
  const log = new OutputLog();
  const settings = new Settings();
  const worker = new LedgerWorkerClient(log);
  const workspaces = new AutodevWorkspaces(worker, context.workspaceState, log, settings);
  const sources = createSourceWorkspaces(worker, log, settings, workspaces);
  const tree = new PlanTreeProvider(workspaces, sources);
  const treeView = vscode.window.createTreeView("autodev.plan", { treeDataProvider: tree, showCollapseAll: true });
  const diagnostics = new LedgerDiagnostics();
  const statusBar = new StatusBarController(workspaces, sources);
  const docs = new ReadOnlyDocuments();
  const picker = new FolderPicker(workspaces);
  const commands = new CommandManager(log);
  const ledger = new LedgerCommands(workspaces, worker, picker, docs, log, settings, statusBar);
  const tasks = new TaskCommands(workspaces, worker, picker, tree, () => treeView, settings, log);
  const ledgerHandlers = ledger.handlers();
  const refreshLedgers = ledgerHandlers["autodev.refresh"];
  ledgerHandlers["autodev.refresh"] = async (...args: unknown[]) =>
    void (await Promise.all([refreshLedgers(...args), sources.refreshAll()]));
  commands.registerAll({ ...ledgerHandlers, ...tasks.handlers(), ...demoWorkspaceHandlers(context.globalStorageUri) });
  const sync = new DiagnosticsSync(workspaces, worker, diagnostics, settings);
  context.subscriptions.push(
    log,
    worker,
    workspaces,
    sources,
    tree,
    treeView,
    diagnostics,
    statusBar,
    docs,
    commands,
    sync,
  );
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(
      () => void vscode.commands.executeCommand("setContext", "autodev.trusted", true),
    ),
    treeView.onDidChangeVisibility((e) => {
      if (!e.visible) return;
      void workspaces.refreshAll();
      void sources.refreshAll();
    }),
  );
  void vscode.commands.executeCommand("setContext", "autodev.trusted", vscode.workspace.isTrusted);
  registerEvidenceFeatures(context, { workspaces, tree, commands, docs, log, picker });
  const run = registerRunStateFeatures(context, { workspaces, worker, log, tree, commands, docs });
  const { diagnostics: sourceDiagnostics } = registerSourceFeatures(context, {
    sources,
    worker,
    docs,
    tree,
    treeView: () => treeView,
    commands,
  });
  const actions = {
    openLedgerLine: (folderUri: string, line: number) => ledger.openLedgerLine(folderUri, line),
    showPlanAsOf: (folderUri: string, seq: number) => ledger.showPlanAsOf(folderUri, seq),
    backToLive: async (folderUri: string) => void (await (await picker.pick(folderUri))?.travelTo(null)),
    revealTask: (folderUri: string, taskId: string) => tasks.reveal(folderUri, taskId),
  };
  registerTimelineFeatures(context, { workspaces, sources, worker, tree, treeView, commands, log, picker, actions });
  workspaces.sync();
  void sources.sync();
  log.info(`AutoDev State activated (${vscode.workspace.isTrusted ? "trusted" : "untrusted: read-only"} workspace)`);
  return {
    workspaces,
    tree,
    treeView,
    diagnostics,
    commands,
    statusBar,
    tasks,
    ledger,
    sources,
    sourceDiagnostics,
    run,
  };
}

/** Ends idle lock helpers; everything else is disposed through the context's subscriptions. */
export function deactivate(): Promise<void> {
  return shutdownFileLockHelpers();
}
