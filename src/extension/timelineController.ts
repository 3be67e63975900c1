/**
 * The host side of one timeline webview (panel or view): validates every
 * message with the zod schemas of src/protocol.ts, answers page and details
 * requests through the ledger worker (rows are filtered and paged there),
 * runs the commands the webview asks for (open line, plan as of, reveal
 * task, copy a hash — always looking the data up itself), pushes live
 * changes, and links the timeline with the Plan tree's selection.
 */
import * as vscode from "vscode";
import type {
  FolderChoice,
  HostToWebview,
  IntegritySummary,
  TimelinePage,
  TimelineQuery,
  WebviewMessageOf,
  WebviewToHost,
} from "../protocol";
import { parseWebviewMessage } from "../protocol";
import { EMPTY_FILTER } from "../core/timeline/timelineQuery";
import { AutodevFolder } from "./sources/autodev/autodevFolder";
import { Disposable } from "./disposable";
import type { TimelineServices } from "./timelineServices";
import { SourceTimelineBridge, sourceIntegrityOf, timelineKeyOf } from "./sources/sourceTimelineBridge";
import type { SourceFolderState } from "./sources/sourceFolderState";

/** Rows of the warm-up page (the webview's page size). */
const WARM_ROWS = 200;

/** What a command asked the timeline to show first. */
export interface TimelineIntent {
  readonly folderUri?: string;
  readonly seq?: number;
  readonly taskId?: string;
}

/** One webview's controller. */
export class TimelineController extends Disposable {
  private folderUri: string | null = null;
  private intent: TimelineIntent;
  private readonly openedAt = Date.now();
  /** When the webview said ready, and when the first page went back (ms after opening). */
  private readonly marks: { ready?: number; page?: number; pageWorkerMs?: number } = {};
  /** The default query's first page, once the warm-up request answered. */
  private warm: { folderUri: string; query: TimelineQuery; page: TimelinePage } | null = null;
  private changeTimer: NodeJS.Timeout | undefined;
  /** Task id this timeline revealed in the tree (its selection echo is ignored once). */
  private echoTask: string | null = null;
  private readonly renderedEmitter = this.register(new vscode.EventEmitter<WebviewMessageOf<"rendered">>());
  /** Fires when the webview reports rows on screen (tests and timing). */
  readonly onDidRender = this.renderedEmitter.event;
  /** Milliseconds from creation to the first rows on screen (null until then). */
  openMs: number | null = null;
  /** The webview's last report of what it shows. */
  lastRendered: WebviewMessageOf<"rendered"> | null = null;
  /** Messages refused by validation. */
  rejected = 0;
  /** Timelines of sources other than AutoDev (keys `<folder uri>#source=<kind>`). */
  private readonly bridge: SourceTimelineBridge;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly services: TimelineServices,
    intent: TimelineIntent,
  ) {
    super();
    this.intent = intent;
    this.register(webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
    this.bridge = new SourceTimelineBridge(services.sources, services.worker);
    this.register(services.workspaces.onDidChange((f) => this.onFolderChange(f)));
    if (services.sources) this.register(services.sources.onDidChange((s) => this.onSourceChange(s)));
    this.warmUp(intent.folderUri ?? services.workspaces.folders[0]?.folder.uri.toString());
  }

  /**
   * While the webview loads, has the worker build the default view (no filter, snapshots folded,
   * this machine's time zone) and its facets, so the webview's first page request finds them ready.
   * Keep the query equal to the webview's defaults (webview/timelineApp.ts DEFAULT_OPTIONS).
   */
  private warmUp(folderUri: string | undefined): void {
    const f = folderUri
      ? this.services.workspaces.folders.find((x) => x.folder.uri.toString() === folderUri)
      : undefined;
    if (!f) return;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
    const query: TimelineQuery = { filter: EMPTY_FILTER, foldSnapshots: true, timeZone };
    void this.services.worker
      .request({
        type: "timelinePage",
        cwd: f.cwd,
        query,
        offset: 0,
        limit: WARM_ROWS,
        anchorSeq: null,
        locateSeq: null,
        facets: true,
      })
      .then((page) => (this.warm = { folderUri: folderUri!, query, page }))
      .catch(() => undefined);
  }

  /** The folder this timeline shows (its URI string), once known. */
  get currentFolderUri(): string | null {
    return this.folderUri;
  }

  /** Shows a folder, an entry or a task's entries (from a command while already open). */
  reveal(intent: TimelineIntent): void {
    const folderUri = intent.folderUri ?? this.folderUri;
    if (!folderUri) return;
    this.post({ type: "reveal", folderUri, seq: intent.seq ?? null, taskId: intent.taskId ?? null });
  }

  /** The Plan tree selected a task: the timeline filters to it (unless this timeline caused it). */
  treeSelectedTask(folder: AutodevFolder, taskId: string): void {
    if (this.echoTask === taskId) {
      this.echoTask = null;
      return;
    }
    this.post({ type: "treeTask", folderUri: folder.folder.uri.toString(), taskId });
  }

  /** Handles one raw message from the webview; exported behaviour for tests. */
  async receive(raw: unknown): Promise<void> {
    const parsed = parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.rejected++;
      this.services.log.warn(`timeline: refused a message from the webview (${parsed.error})`);
      return;
    }
    try {
      await this.handle(parsed.message);
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const requestId = "requestId" in parsed.message ? parsed.message.requestId : null;
      this.services.log.error(`timeline: ${parsed.message.type} failed`, e);
      this.post({ type: "error", requestId, message });
    }
  }

  private async handle(m: WebviewToHost): Promise<void> {
    if ("folderUri" in m && m.folderUri && this.bridge.isSourceKey(m.folderUri) && m.type !== "ready") {
      return this.handleSource(m, m.folderUri);
    }
    switch (m.type) {
      case "ready":
        this.marks.ready ??= Date.now() - this.openedAt;
        return this.init(m.folderUri);
      case "query": {
        const f = this.folder(m.folderUri);
        this.folderUri = m.folderUri;
        const asked = Date.now();
        const page = await this.services.worker.request({
          type: "timelinePage",
          cwd: f.cwd,
          query: m.query,
          offset: m.offset,
          limit: m.limit,
          anchorSeq: m.anchorSeq,
          locateSeq: m.locateSeq,
          facets: m.facets,
        });
        if (this.marks.page === undefined) {
          this.marks.page = Date.now() - this.openedAt;
          this.marks.pageWorkerMs = Date.now() - asked;
        }
        return this.post({ type: "page", requestId: m.requestId, page });
      }
      case "details": {
        const f = this.folder(m.folderUri);
        const detail = await this.services.worker.request({ type: "timelineDetail", cwd: f.cwd, seq: m.seq });
        return this.post({ type: "details", requestId: m.requestId, detail });
      }
      case "setFolder":
        this.folder(m.folderUri);
        this.folderUri = m.folderUri;
        return;
      case "copyHash": {
        const ref = await this.services.worker.request({
          type: "timelineEntry",
          cwd: this.folder(m.folderUri).cwd,
          seq: m.seq,
        });
        const hash = m.which === "self" ? ref?.selfHash : ref?.prevHash;
        if (!hash) {
          return this.post({ type: "notice", message: vscode.l10n.t("No {0} for #{1}.", `${m.which}_hash`, m.seq) });
        }
        await vscode.env.clipboard.writeText(hash);
        return this.post({
          type: "notice",
          message: vscode.l10n.t("Copied the {0} of #{1}.", `${m.which}_hash`, m.seq),
        });
      }
      case "openLine": {
        const ref = await this.services.worker.request({
          type: "timelineEntry",
          cwd: this.folder(m.folderUri).cwd,
          seq: m.seq,
        });
        if (ref) await this.services.actions.openLedgerLine(m.folderUri, ref.line);
        return;
      }
      case "showPlanAsOf":
        this.folder(m.folderUri);
        await this.services.actions.showPlanAsOf(m.folderUri, m.seq);
        return;
      case "backToLive":
        this.folder(m.folderUri);
        await this.services.actions.backToLive(m.folderUri);
        return;
      case "revealTask":
        return this.revealTask(this.folder(m.folderUri), m.taskId, m.focus);
      case "rendered":
        return this.rendered(m);
    }
  }

  /** A message about a source timeline (not an AutoDev ledger). */
  private async handleSource(m: WebviewToHost, key: string): Promise<void> {
    switch (m.type) {
      case "query":
        this.folderUri = key;
        return this.post({ type: "page", requestId: m.requestId, page: await this.bridge.page(m) });
      case "details":
        return this.post({ type: "details", requestId: m.requestId, detail: await this.bridge.detail(key, m.seq) });
      case "setFolder":
        this.bridge.state(key);
        this.folderUri = key;
        return;
      case "openLine":
        return this.bridge.openLine(key, m.seq);
      case "copyHash":
        return this.post({
          type: "notice",
          message: vscode.l10n.t("{0} rows have no hashes.", this.bridge.state(key).displayName),
        });
      case "showPlanAsOf":
      case "backToLive":
        return this.post({ type: "notice", message: vscode.l10n.t("Time travel is for the AutoDev ledger.") });
      case "revealTask":
      case "rendered":
      case "ready":
        return m.type === "rendered" ? this.rendered(m) : undefined;
    }
  }

  private onSourceChange(s: SourceFolderState | undefined): void {
    if (s === undefined) return this.post({ type: "folders", folders: this.choices() });
    const key = timelineKeyOf(s);
    if (key !== this.folderUri || !s.source.hasTimeline) return;
    this.post({
      type: "ledgerChanged",
      folderUri: key,
      entries: s.timelineRows ?? 0,
      travelSeq: null,
      integrity: sourceIntegrityOf(s),
    });
  }

  private init(saved: string | null): void {
    const folders = this.choices();
    const known = (uri: string | null | undefined) => (uri && folders.some((c) => c.uri === uri) ? uri : null);
    this.folderUri = known(this.intent.folderUri) ?? known(saved) ?? folders[0]?.uri ?? null;
    const f = this.folderUri
      ? this.services.workspaces.folders.find((x) => x.folder.uri.toString() === this.folderUri)
      : undefined;
    const src =
      this.folderUri && this.bridge.isSourceKey(this.folderUri) ? this.bridge.state(this.folderUri) : undefined;
    const warm =
      this.warm && this.warm.folderUri === this.folderUri && f && this.warm.page.entries === f.entries
        ? this.warm
        : null;
    this.post({
      type: "init",
      folders,
      folderUri: this.folderUri,
      travelSeq: f?.timeTravel?.seq ?? null,
      integrity: f ? integrityOf(f) : src ? sourceIntegrityOf(src) : null,
      focusTask: this.intent.taskId ?? null,
      locateSeq: this.intent.seq ?? null,
      firstPage: warm ? { query: warm.query, page: warm.page } : null,
    });
    this.intent = {};
    this.warm = null;
  }

  private async revealTask(folder: AutodevFolder, taskId: string, focus: boolean): Promise<void> {
    if (focus) {
      await this.services.actions.revealTask(folder.folder.uri.toString(), taskId);
      return;
    }
    const view = this.services.treeView;
    if (!view.visible) return;
    const node = await this.services.tree.findTaskNode(folder, taskId);
    const selected = view.selection[0];
    if (!node || (selected && selected.id === node.id)) return;
    this.echoTask = taskId;
    try {
      await view.reveal(node, { select: true, focus: false, expand: false });
    } catch (e) {
      this.echoTask = null;
      throw e;
    }
  }

  private rendered(m: WebviewMessageOf<"rendered">): void {
    this.lastRendered = m;
    if (m.reason === "open" && this.openMs === null && m.rows > 0) {
      this.openMs = Date.now() - this.openedAt;
      const k = this.marks;
      this.services.log.info(
        `timeline: first ${m.rows} rows of ${m.total} on screen ${this.openMs} ms after opening ` +
          `(webview ready at ${k.ready ?? "?"} ms, ` +
          (k.page === undefined
            ? "first page sent with init (computed while the webview loaded); "
            : `first page sent at ${k.page} ms of which ${k.pageWorkerMs} ms in the worker; `) +
          `webview script ran ${Math.round(m.ms)} ms until the rows were painted)`,
      );
    }
    this.renderedEmitter.fire(m);
  }

  private onFolderChange(f: AutodevFolder | undefined): void {
    if (f === undefined) {
      this.post({ type: "folders", folders: this.choices() });
      return;
    }
    if (f.folder.uri.toString() !== this.folderUri) return;
    clearTimeout(this.changeTimer);
    this.changeTimer = setTimeout(() => {
      this.post({
        type: "ledgerChanged",
        folderUri: f.folder.uri.toString(),
        entries: f.entries,
        travelSeq: f.timeTravel?.seq ?? null,
        integrity: integrityOf(f),
      });
    }, 50);
  }

  private choices(): FolderChoice[] {
    const ledgers = this.services.workspaces.folders.map((f) => ({
      uri: f.folder.uri.toString(),
      name: f.folder.name,
    }));
    return [
      ...ledgers,
      ...this.bridge.choices((vscode.workspace.workspaceFolders?.length ?? 0) > 1 || ledgers.length > 0),
    ];
  }

  private folder(uri: string): AutodevFolder {
    const f = this.services.workspaces.folders.find((x) => x.folder.uri.toString() === uri);
    if (!f) throw new Error(vscode.l10n.t("that folder has no .autodev/ state (any more)"));
    return f;
  }

  /** Posts a typed message to the webview (dropped when it is gone). */
  post(message: HostToWebview): void {
    if (this.isDisposed) return;
    void Promise.resolve(this.webview.postMessage(message)).catch(() => undefined);
  }

  override dispose(): void {
    clearTimeout(this.changeTimer);
    super.dispose();
  }
}

/** Integrity at a glance, from a folder's last report. */
export function integrityOf(f: AutodevFolder): IntegritySummary | null {
  const r = f.report;
  if (!r) return null;
  const first = r.errors[0];
  return { ok: r.ok, brokenLine: first ? first.atLine : null, message: first ? first.message : null };
}
