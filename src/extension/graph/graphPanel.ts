/**
 * The plan graph as an editor panel (`autodev.showGraph`): at most one, revealed again when asked
 * twice. It shows one workspace folder at a time, reads its graphs in the state worker, redraws
 * when a source of that folder changed (the folder registry's change events, which the tree follows
 * too; a status change keeps the layout, so it is cheap), and
 * turns a click on a task into a reveal in the Plan tree. Every message from the webview is
 * validated with zod (its schemas loaded on the first message); the webview names a task, the host finds its tree node in what it sent.
 */
import type { FolderReviewMarks } from "../../core/sources/reviewMarkSchema";
import * as vscode from "vscode";
import type { GraphViewsResult } from "../../core/graph/graphViewTypes";
import type { SourceSettings } from "../../core/sources/stateSource";
import type { GraphFolder, HostToGraph } from "../../protocolGraph";
import type * as GraphSchemas from "../../protocolGraphSchemas";
import { Disposable } from "../disposable";
import { GRAPH_VIEW_TYPE, graphHtml, graphWebviewOptions } from "./graphHtml";
import type { StateWorkerClient } from "../stateWorkerClient";
import { errorText } from "../../core/text/errorText";

let schemas: typeof GraphSchemas | undefined;
/** The webview messages' schemas, loaded on first use: zod is not loaded while the extension host starts. */
function graphSchemas(): typeof GraphSchemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schemas ??= require("../../protocolGraphSchemas") as typeof GraphSchemas);
}

/** What the graph, the report and the tools ask of the state worker. */
export type ViewClient = Pick<StateWorkerClient, "request">;

/** What the panel needs from the composition root. */
export interface GraphPanelServices {
  /** Each source's settings for a workspace folder (by kind), passed on to detection. */
  settingsOf(folder: vscode.WorkspaceFolder): Record<string, SourceSettings>;
  /** Reveals a task in the state tree (through its source's folder); false when it could not. */
  revealTask(folder: vscode.WorkspaceFolder, kind: string, taskId: string, treeNodeId: string | null): Promise<boolean>;
  log(message: string): void;
  /** The reviewed marks of a workspace folder's sources, by kind (for Export Run Report). */
  reviewMarksOf?(folder: vscode.WorkspaceFolder): Record<string, FolderReviewMarks>;
  /** What the editor knows of a folder's tasks beyond the files ("2/3 reviewed"), by kind, then task id. */
  taskNotesOf?(folder: vscode.WorkspaceFolder): Promise<Record<string, Record<string, string>>>;
  /** Fires when such notes may have changed (a reviewed mark set or cleared). */
  readonly onDidChangeTaskNotes?: vscode.Event<void>;
  /**
   * Fires when a source of a workspace folder was read again, appeared or went (the folder registry's
   * change, which the tree follows too); `undefined`: any folder.
   */
  readonly onDidChangeState?: vscode.Event<vscode.WorkspaceFolder | undefined>;
}

/** Owns the graph panel. */
export class GraphPanel extends Disposable {
  private panel: vscode.WebviewPanel | null = null;
  private folder: vscode.WorkspaceFolder | null = null;
  private last: GraphViewsResult | null = null;
  private ready = false;
  private pendingSelect: { kind: string; taskId: string } | null = null;
  private generation = 0;
  /** A load is running; `again`: a change came meanwhile, so one more follows it. */
  private loading: Promise<void> | null = null;
  private again = false;
  private readonly loaded = this.register(new vscode.EventEmitter<GraphViewsResult>());
  /** Fires after each graph was sent to the webview (tests wait on it). */
  readonly onDidLoad = this.loaded.event;
  private drawn: { kind: string; nodes: number; edges: number } | null = null;
  private notes: Record<string, Record<string, string>> = {};

  /** The task notes last sent, by kind then task id (tests). */
  get taskNotes(): Readonly<Record<string, Readonly<Record<string, string>>>> {
    return this.notes;
  }

  /** What the page last reported it drew (null before it drew anything). */
  get rendered(): { kind: string; nodes: number; edges: number } | null {
    return this.drawn;
  }

  /** The folder shown, if the panel is open. */
  get shownFolder(): vscode.WorkspaceFolder | null {
    return this.panel ? this.folder : null;
  }

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly services: GraphPanelServices,
    private readonly client: ViewClient,
  ) {
    super();
    this.register({ dispose: () => this.close() });
    const notesChanged = services.onDidChangeTaskNotes;
    if (notesChanged) {
      this.register(notesChanged(() => this.panel && this.schedule()));
    }
    const stateChanged = services.onDidChangeState;
    if (stateChanged) {
      this.register(
        stateChanged((wf) => {
          if (this.panel && this.folder && (!wf || wf.uri.toString() === this.folder.uri.toString())) this.schedule();
        }),
      );
    }
  }

  /** The views last sent (tests, and the LM tools' "graph" answers). */
  get current(): GraphViewsResult | null {
    return this.last;
  }

  /** Opens (or reveals) the panel on `folder` (default: the first folder), focusing a task when given. */
  show(folder?: vscode.WorkspaceFolder, select?: { kind: string; taskId: string }): void {
    const target = folder ?? this.folder ?? vscode.workspace.workspaceFolders?.[0] ?? null;
    if (!target) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t("Open a folder with a state folder to see its plan graph."),
      );
      return;
    }
    this.pendingSelect = select ?? null;
    if (!this.panel) {
      this.panel = vscode.window.createWebviewPanel(
        GRAPH_VIEW_TYPE,
        vscode.l10n.t("AutoDev Plan Graph"),
        { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
        { ...graphWebviewOptions(this.extensionUri), retainContextWhenHidden: false },
      );
      this.ready = false;
      this.panel.webview.html = graphHtml(this.panel.webview, this.extensionUri);
      this.panel.webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m));
      this.panel.onDidDispose(() => this.close());
      this.panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.visible) this.ready = false; // the page is rebuilt and says "ready" again
      });
    } else this.panel.reveal(undefined, false);
    if (this.folder?.uri.toString() !== target.uri.toString()) this.setFolder(target);
    else if (this.ready) this.flushSelect();
  }

  private setFolder(folder: vscode.WorkspaceFolder): void {
    this.folder = folder;
    this.last = null;
    this.drawn = null;
    if (this.ready) void this.load();
  }

  /**
   * Loads again after a change: at once when idle, else once after the running load (changes that
   * come during a load need one more; the registry already debounced them).
   */
  private schedule(): void {
    if (!this.loading) {
      void this.load();
      return;
    }
    this.again = true;
  }

  private post(m: HostToGraph): void {
    void this.panel?.webview.postMessage(m);
  }

  private load(): Promise<void> {
    const run = this.loadNow().finally(() => {
      if (this.loading === run) this.loading = null;
      if (this.again && !this.loading) {
        this.again = false;
        void this.load();
      }
    });
    this.loading = run;
    return run;
  }

  private async loadNow(): Promise<void> {
    const folder = this.folder;
    if (!folder || !this.panel) return;
    const gen = ++this.generation;
    this.post({ type: "loading" });
    const t0 = Date.now();
    try {
      const [result, taskNotes] = await Promise.all([
        this.client.request({ type: "graph", cwd: folder.uri.fsPath, settings: this.services.settingsOf(folder) }),
        this.taskNotesOf(folder),
      ]);
      if (gen !== this.generation || !this.panel) return;
      this.last = result;
      this.notes = taskNotes;
      const folders: GraphFolder[] = (vscode.workspace.workspaceFolders ?? []).map((f) => ({
        uri: f.uri.toString(),
        name: f.name,
      }));
      this.post({
        type: "graphs",
        folder: { uri: folder.uri.toString(), name: folder.name },
        folders,
        views: result.views,
        errors: result.errors,
        tookMs: Date.now() - t0,
        taskNotes,
      });
      this.flushSelect();
      this.loaded.fire(result);
    } catch (e) {
      if (gen !== this.generation) return;
      const message = errorText(e);
      this.services.log(`graph: ${message}`);
      this.post({ type: "error", message });
    }
  }

  /** The task notes of `folder`; none when they cannot be had (the graph is drawn without them). */
  private async taskNotesOf(folder: vscode.WorkspaceFolder): Promise<Record<string, Record<string, string>>> {
    try {
      return (await this.services.taskNotesOf?.(folder)) ?? {};
    } catch (e) {
      this.services.log(`graph: task notes: ${errorText(e)}`);
      return {};
    }
  }

  private flushSelect(): void {
    if (this.pendingSelect && this.last) {
      this.post({ type: "select", ...this.pendingSelect });
      this.pendingSelect = null;
    }
  }

  /** Handles one message from the page (public for tests: the same path the webview's clicks take). */
  async handleMessage(raw: unknown): Promise<void> {
    const parsed = graphSchemas().GraphToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.services.log(`graph: ignored a malformed message from the webview (${parsed.error.issues[0]?.message})`);
      return;
    }
    const m = parsed.data;
    if (m.type === "ready") {
      this.ready = true;
      await this.load();
    } else if (m.type === "rendered") this.drawn = { kind: m.kind, nodes: m.nodes, edges: m.edges };
    else if (m.type === "refresh") await this.load();
    else if (m.type === "folder") {
      const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === m.uri);
      if (folder) this.setFolder(folder);
    } else if (m.type === "reveal") {
      const view = this.last?.views.find((v) => v.kind === m.kind);
      const node = view?.graph.nodes.find((n) => n.id === m.taskId);
      if (!view || !node || !this.folder) return;
      if (!(await this.services.revealTask(this.folder, view.kind, node.id, node.treeNodeId))) {
        this.services.log(`graph: ${view.displayName} could not reveal task ${node.id} in the tree`);
      }
    }
  }

  private close(): void {
    this.again = false;
    const p = this.panel;
    this.panel = null;
    this.ready = false;
    this.folder = null;
    this.last = null;
    p?.dispose();
  }
}
