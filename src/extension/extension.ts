/**
 * The extension's composition root: builds the worker client, the one folder registry and
 * watcher, the state tree, Problems, the status bar and the timeline, makes every source's
 * adapter (sources/sourceAdapters.ts) and wires them together. Everything heavy runs in the state
 * worker thread; nothing here names a source.
 */
import * as vscode from "vscode";
import { AfterFirstPaint } from "./afterFirstPaint";
import { CommandManager } from "./commandManager";
import { demoWorkspaceHandlers, focusDemoViewOnce } from "./demoWorkspaceCommand";
import { OutputLog } from "./outputLog";
import { ReadOnlyDocuments } from "./readOnlyDocuments";
import { SettingsReader } from "./settings/settings";
import type { AdapterHost, TreeHost } from "./sources/adapterHost";
import { revealInTree } from "./treeReveal";
import type { SourceAdapter, StateNode } from "./sources/sourceAdapter";
import type { SourceActionCommands } from "./sources/sourceActionCommands";
import { createAdapters } from "./sources/sourceAdapters";
import { StateDiagnostics } from "./sources/sourceDiagnostics";
import { CATCH_UP_MS, StateFolders } from "./sources/stateFolders";
import { StateWatcher } from "./watch/stateWatcher";
import { StatusBarController } from "./statusBarController";
import { StateTreeProvider } from "./stateTreeProvider";
import { StateWorkerClient } from "./stateWorkerClient";
import { registerTimelineFeatures } from "./timeline/timelineFeatures";
import { setL10nBundle } from "../core/text/coreL10n";
import { registerGraphFeatures } from "./graph/graphFeatures";
import type { GraphPanel } from "./graph/graphPanel";
import type { TimelinePanel } from "./timeline/timelinePanel";
import { openFileAt } from "./workspaceFiles";
import { WaitingNotifier } from "./waitingNotifier";

/** What the loader (extensionEntry.ts) tells the extension about its own start, for the output log. */
export interface StartupFacts {
  /** The compile cache's state in words ("enabled", "unavailable: …"; `startCompileCache`). */
  readonly compileCache: string;
  /** Milliseconds loading dist/extensionMain.js took (compile or cache read, and its top level). */
  readonly loadMs: number;
}

/** What `activate` returns: handles for integration tests and other extensions. */
export interface StateApi {
  /** Every source of every workspace folder. */
  readonly folders: StateFolders;
  readonly tree: StateTreeProvider;
  readonly treeView: vscode.TreeView<StateNode>;
  /** Problems of every source. */
  readonly diagnostics: StateDiagnostics;
  readonly statusBar: StatusBarController;
  readonly commands: CommandManager;
  readonly timeline: TimelinePanel;
  /** The plan-graph panel (its graphs, Export Run Report and the language-model tools are state worker requests). */
  readonly graph: GraphPanel;
  /** The view's badge and the notifications of runs that wait on a person. */
  readonly waiting: WaitingNotifier;
  /** What each source's adapter exposes, by kind (AutoDev: its `AutodevApi`). */
  readonly adapters: Readonly<Record<string, unknown>>;
  /** The sources' palette commands that run an action on a picked node (agloop: Recover from Checkpoint…). */
  readonly sourceActions: SourceActionCommands;
  /** Milliseconds `activate` took (the output log says it too). */
  readonly activationMs: number;
  /** What the loader (extensionEntry.ts) did before `activate`: the compile cache's state, the bundle's load time. */
  readonly startup?: StartupFacts;
  /**
   * Settles once the first detection of every folder's sources ended (what the tree's first paint
   * shows) and the start-up work held back until that paint ran (watches, context keys, providers).
   */
  readonly firstPaint: Promise<void>;
}

let deactivators: Array<() => Promise<void>> = [];

/** Activates the extension; `startup`: what the loader (extensionEntry.ts) did before, for the log. */
export function activate(context: vscode.ExtensionContext, startup?: StartupFacts): StateApi {
  const t0 = performance.now();
  // src/core's words (tree, timeline, hovers, tools) in the UI language; the worker gets the same bundle.
  setL10nBundle(vscode.l10n.bundle);
  const log = new OutputLog();
  const settings = new SettingsReader();
  const worker = new StateWorkerClient(log, () => settings.maxLineBytes());
  // The watcher's looks at files watched by name: one state worker request for all of them.
  const watcher = new StateWatcher(undefined, (files) =>
    worker.request({
      type: "signatures",
      cwd: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "",
      files: files.map((f) => f.fsPath),
    }),
  );
  let adapterOf: (kind: string) => SourceAdapter = (kind) => {
    throw new Error(vscode.l10n.t("the adapter of {0} is not made yet", kind));
  };
  // The watches, the context keys and what only commands need wait for the tree's first paint.
  const afterPaint = new AfterFirstPaint((m) => log.info(`start-up work after the first paint failed: ${m}`));
  const folders = new StateFolders(worker, log, settings, watcher, (kind) => adapterOf(kind), CATCH_UP_MS, false);
  const tree = new StateTreeProvider(
    folders,
    (kind) => adapterOf(kind),
    () => afterPaint.painted(),
  );
  afterPaint.later(() => folders.startWatching());
  // Each checkbox is its own (a reviewed mark on one diff says nothing about its neighbours).
  const treeView = vscode.window.createTreeView("autodev.plan", {
    treeDataProvider: tree,
    showCollapseAll: true,
    manageCheckboxStateManually: true,
  });
  const docs = new ReadOnlyDocuments();
  const commands = new CommandManager(log);
  const treeHost: TreeHost = {
    refresh: (node) => tree.refresh(node),
    children: (node) => tree.getChildren(node),
    reveal: (node, options) => revealInTree(treeView, node, options),
    get visible() {
      return treeView.visible;
    },
    get selectedId() {
      return treeView.selection[0]?.id;
    },
    onDidSelect: (listener, thisArg, disposables) =>
      treeView.onDidChangeSelection((e) => listener.call(thisArg, e.selection[0]), undefined, disposables),
    onDidChangeCheckbox: (listener, thisArg, disposables) =>
      treeView.onDidChangeCheckboxState(
        (e) =>
          listener.call(
            thisArg,
            e.items.map(([node, state]) => ({ node, checked: state === vscode.TreeItemCheckboxState.Checked })),
          ),
        undefined,
        disposables,
      ),
  };
  const host: AdapterHost = {
    context,
    worker,
    log,
    settings,
    commands,
    docs,
    folders,
    tree: treeHost,
    afterPaint: (work) => afterPaint.later(work),
  };
  const made = createAdapters(host);
  adapterOf = made.adapterOf;
  deactivators = made.made.flatMap((a) => (a.deactivate ? [a.deactivate] : []));
  const diagnostics = new StateDiagnostics(folders);
  const statusBar = new StatusBarController(folders, adapterOf, settings);
  const waiting = new WaitingNotifier(folders, treeView, settings);
  commands.registerAll({
    "autodev.refresh": () => folders.refreshAll(),
    ...demoWorkspaceHandlers(context, (m) => log.info(m)),
  });
  context.subscriptions.push(
    afterPaint,
    log,
    worker,
    folders,
    watcher,
    tree,
    treeView,
    diagnostics,
    statusBar,
    waiting,
    docs,
    commands,
  );
  context.subscriptions.push(
    vscode.workspace.onDidGrantWorkspaceTrust(
      () => void vscode.commands.executeCommand("setContext", "autodev.trusted", true),
    ),
    treeView.onDidChangeVisibility((e) => e.visible && void folders.refreshAll()),
  );
  afterPaint.later(
    () => void vscode.commands.executeCommand("setContext", "autodev.trusted", vscode.workspace.isTrusted),
  );
  const timeline = registerTimelineFeatures(
    context,
    {
      folders,
      worker,
      tree,
      treeView,
      log,
      openFile: (folder, file, line) => openFileAt(worker, folder.cwd, file, line),
    },
    commands,
  );
  const graph = registerGraphFeatures(
    context,
    commands,
    {
      settingsOf: (wf) => Object.fromEntries(folders.of(wf).map((f) => [f.kind, f.settings])),
      reviewMarksOf: (wf) =>
        Object.fromEntries(folders.of(wf).flatMap((f) => (f.reviewMarks ? [[f.kind, f.reviewMarks]] : []))),
      taskNotesOf: async (wf) =>
        Object.fromEntries(
          await Promise.all(folders.of(wf).map(async (f) => [f.kind, (await adapterOf(f.kind)?.taskNotes?.(f)) ?? {}])),
        ),
      onDidChangeTaskNotes: (listener, thisArg, disposables) => {
        const subs = made.made.flatMap((a) =>
          a.onDidChangeTaskNotes ? [a.onDidChangeTaskNotes(listener, thisArg)] : [],
        );
        const all = vscode.Disposable.from(...subs);
        disposables?.push(all);
        return all;
      },
      // Through the source's own reveal where it has one; else its node by id, as a "reveal" click target does.
      revealTask: async (wf, kind, taskId, treeNodeId) => {
        const f = folders.of(wf).find((x) => x.kind === kind);
        if (!f) return false;
        if (f.timeline?.revealTask) return f.timeline.revealTask(taskId, true);
        if (!treeNodeId) return false;
        await vscode.commands.executeCommand("autodev.openSourceTarget", f.key, { kind: "reveal", nodeId: treeNodeId });
        return true;
      },
      onDidChangeState: (listener, thisArg, disposables) =>
        folders.onDidChange((f) => listener.call(thisArg, f?.folder), undefined, disposables),
      log: (m) => log.info(m),
    },
    worker,
  );
  const detected = folders.sync().finally(() => afterPaint.detected());
  const firstPaint = Promise.all([detected, afterPaint.done]).then(
    () => undefined,
    () => undefined,
  );
  void focusDemoViewOnce(context).then(
    (shown) => shown && log.info("the demo workspace opened: AutoDev view shown"),
    (e: unknown) => log.info(`could not show the AutoDev view in the demo workspace: ${String(e)}`),
  );
  const activationMs = performance.now() - t0;
  log.info(
    `AutoDev State activated in ${activationMs.toFixed(1)} ms (${vscode.workspace.isTrusted ? "trusted" : "untrusted: read-only"} workspace${startup ? `; bundle loaded in ${startup.loadMs.toFixed(1)} ms, compile cache ${startup.compileCache}` : ""})`,
  );
  const adapters = Object.fromEntries(made.made.map((a) => [a.kind, a.api]));
  const sourceActions = made.defaults.actions;
  return {
    folders,
    tree,
    treeView,
    diagnostics,
    statusBar,
    commands,
    timeline,
    graph,
    waiting,
    adapters,
    sourceActions,
    activationMs,
    startup,
    firstPaint,
  };
}

/** Ends what the adapters keep outside the disposables (idle lock helpers). */
export async function deactivate(): Promise<void> {
  await Promise.all(deactivators.map((d) => d()));
}
