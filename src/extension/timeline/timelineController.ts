/**
 * The host side of one timeline webview (panel or view): validates every message with the zod
 * schemas of src/protocolTimelineSchemas.ts (loaded on the first message, not while the host starts), answers page and details requests through the worker's
 * source-neutral timeline requests (rows are filtered and paged there), runs what the webview asks
 * for (open a row's line, copy a value, time travel, reveal a task — always looking the data up
 * itself, and only where the source offers it), pushes live changes, and follows the state tree's
 * selection. A timeline shows one source of one workspace folder at a time, named by its key.
 */
import * as vscode from "vscode";
import type {
  HostToWebview,
  TimelinePage,
  TimelineQuery,
  WebviewMessageOf,
  WebviewToHost,
} from "../../protocolTimeline";
import type * as TimelineSchemas from "../../protocolTimelineSchemas";
import { EMPTY_FILTER } from "../../core/timeline/timelineQuery";
import { Disposable } from "../disposable";
import type { SourceFolder } from "../sources/sourceAdapter";
import { plainTimelineView, timelineChoices, timelineSourceOf } from "./timelineSources";
import type { TimelineServices } from "./timelineServices";
import { errorText } from "../../core/text/errorText";

let schemas: typeof TimelineSchemas | undefined;
/** The webview messages' schemas, loaded on first use: zod is not loaded while the extension host starts. */
function timelineSchemas(): typeof TimelineSchemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schemas ??= require("../../protocolTimelineSchemas") as typeof TimelineSchemas);
}

/** Rows of the warm-up page (the webview's page size). */
const WARM_ROWS = 200;

/** What a command asked the timeline to show first (a source key, or a folder URI for its first timeline). */
export interface TimelineIntent {
  readonly sourceKey?: string;
  readonly rowId?: number;
  readonly taskId?: string;
}

/** One webview's controller. */
export class TimelineController extends Disposable {
  private sourceKey: string | null = null;
  private intent: TimelineIntent;
  private readonly openedAt = Date.now();
  /** When the webview said ready, and when the first page went back (ms after opening). */
  private readonly marks: { ready?: number; page?: number; pageWorkerMs?: number } = {};
  /** The default query's first page, once the warm-up request answered. */
  private warm: { sourceKey: string; query: TimelineQuery; page: TimelinePage } | null = null;
  private changeTimer: NodeJS.Timeout | undefined;
  /** Task id this timeline revealed in the tree (its selection echo is ignored once). */
  private echoTask: string | null = null;
  /** A folder the user asked for before it had a timeline (no ledger yet): shown once it has one. */
  private awaited: string | null = null;
  private readonly renderedEmitter = this.register(new vscode.EventEmitter<WebviewMessageOf<"rendered">>());
  /** Fires when the webview reports rows on screen (tests and timing). */
  readonly onDidRender = this.renderedEmitter.event;
  /** Milliseconds from creation to the first rows on screen (null until then). */
  openMs: number | null = null;
  /** The webview's last report of what it shows. */
  lastRendered: WebviewMessageOf<"rendered"> | null = null;
  /** Messages refused by validation. */
  rejected = 0;

  constructor(
    private readonly webview: vscode.Webview,
    private readonly services: TimelineServices,
    intent: TimelineIntent,
  ) {
    super();
    this.intent = intent;
    this.register(webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw)));
    this.register(services.folders.onDidChange((f) => this.onSourceChange(f)));
    this.warmUp(intent.sourceKey ?? timelineChoices(services.folders)[0]?.key);
  }

  /** The source `key` names (a folder URI names its first source with a timeline); throws when gone. */
  private source(key: string): SourceFolder & { timeline: NonNullable<SourceFolder["timeline"]> } {
    const s = timelineSourceOf(this.services.folders, key);
    if (!s) throw new Error(vscode.l10n.t("that state source has no timeline in this workspace (any more)"));
    return s;
  }

  /**
   * While the webview loads, has the worker build the default view (no filter, snapshots folded,
   * this machine's time zone) and its facets, so the webview's first page request finds them ready.
   * Keep the query equal to the webview's defaults (webview/timeline/timelineApp.ts DEFAULT_OPTIONS).
   */
  private warmUp(key: string | undefined): void {
    const s = key ? timelineSourceOf(this.services.folders, key) : undefined;
    if (!s) return;
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
    const query: TimelineQuery = { filter: EMPTY_FILTER, foldSnapshots: true, timeZone };
    void this.services.worker
      .request({
        ...this.address(s),
        type: "timelinePage",
        query,
        offset: 0,
        limit: WARM_ROWS,
        anchorRowId: null,
        locateRowId: null,
        facets: true,
      })
      .then((page) => (this.warm = { sourceKey: s.key, query, page }))
      .catch(() => undefined);
  }

  private address(s: SourceFolder) {
    return { cwd: s.cwd, kind: s.kind, settings: s.settings };
  }

  /** The source this timeline shows (its key), once known. */
  get currentFolderUri(): string | null {
    return this.sourceKey;
  }

  /** Shows a source, a row or a task's rows (from a command while already open). */
  reveal(intent: TimelineIntent): void {
    const asked = this.askedKey(intent.sourceKey);
    this.noticeAwaited();
    const sourceKey = asked ?? this.sourceKey;
    if (!sourceKey) return;
    this.post({ type: "reveal", sourceKey, rowId: intent.rowId ?? null, taskId: intent.taskId ?? null });
  }

  /**
   * The key of the source a command asked for (a key or a folder URI) when it has a timeline now.
   * When it has none yet (a folder whose agent has not written its first entry), it is awaited:
   * the page says so and switches to it once it has one ({@link showAwaited}).
   */
  private askedKey(asked: string | undefined): string | null {
    if (!asked) return null;
    const key = this.timelineKey(asked);
    this.awaited = key ? null : asked;
    return key;
  }

  /** Tells the page that the source asked for has no timeline yet (after it shows another one, or none). */
  private noticeAwaited(): void {
    if (!this.awaited) return;
    const asked = this.awaited;
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === asked)?.name;
    this.post({
      type: "notice",
      message: vscode.l10n.t("{0} has no state with a timeline yet: it shows here once it has.", folder ?? asked),
    });
  }

  /** The key of the source `key` (or a folder URI) names, when it has a timeline; else null. */
  private timelineKey(key: string | null | undefined): string | null {
    return (key ? timelineSourceOf(this.services.folders, key)?.key : undefined) ?? null;
  }

  /** The state tree selected a task of a source: the timeline filters to it (unless this timeline caused it). */
  treeSelectedTask(sourceKey: string, taskId: string): void {
    if (this.echoTask === taskId) {
      this.echoTask = null;
      return;
    }
    this.post({ type: "treeTask", sourceKey: sourceKey, taskId });
  }

  /** Handles one raw message from the webview; exported behaviour for tests. */
  async receive(raw: unknown): Promise<void> {
    const parsed = timelineSchemas().parseWebviewMessage(raw);
    if (!parsed.ok) {
      this.rejected++;
      this.services.log.warn(`timeline: refused a message from the webview (${parsed.error})`);
      return;
    }
    try {
      await this.handle(parsed.message);
    } catch (e) {
      const message = errorText(e);
      const requestId = "requestId" in parsed.message ? parsed.message.requestId : null;
      this.services.log.error(`timeline: ${parsed.message.type} failed`, e);
      this.post({ type: "error", requestId, message });
    }
  }

  private async handle(m: WebviewToHost): Promise<void> {
    switch (m.type) {
      case "ready":
        this.marks.ready ??= Date.now() - this.openedAt;
        return this.init(m.sourceKey);
      case "query": {
        const s = this.source(m.sourceKey);
        this.sourceKey = s.key;
        const asked = Date.now();
        const result = await this.services.worker.request({
          ...this.address(s),
          type: "timelinePage",
          query: m.query,
          offset: m.offset,
          limit: m.limit,
          anchorRowId: m.anchorRowId,
          locateRowId: m.locateRowId,
          facets: m.facets,
        });
        if (this.marks.page === undefined) {
          this.marks.page = Date.now() - this.openedAt;
          this.marks.pageWorkerMs = Date.now() - asked;
        }
        return this.post({ type: "page", requestId: m.requestId, page: result });
      }
      case "details": {
        const s = this.source(m.sourceKey);
        const detail = await this.services.worker.request({
          ...this.address(s),
          type: "timelineDetail",
          rowId: m.rowId,
        });
        const taskId = detail?.row.taskId ?? null;
        const taskNote = taskId !== null && s.timeline?.taskNote ? await s.timeline.taskNote(taskId) : null;
        return this.post({ type: "details", requestId: m.requestId, detail, taskNote });
      }
      case "setSource":
        this.sourceKey = this.source(m.sourceKey).key;
        return;
      case "copy":
        return this.copy(this.source(m.sourceKey), m.rowId, m.value);
      case "openLine": {
        const s = this.source(m.sourceKey);
        const ref = await this.services.worker.request({ ...this.address(s), type: "timelineRef", rowId: m.rowId });
        if (ref) await this.services.openFile(s, ref.file, ref.line);
        return;
      }
      case "travel":
      case "backToLive": {
        const s = this.source(m.sourceKey);
        if (!s.timeline.travel) {
          return this.post({ type: "notice", message: vscode.l10n.t("{0} has no time travel.", s.displayName) });
        }
        return s.timeline.travel(m.type === "travel" ? m.rowId : null);
      }
      case "revealTask":
        return this.revealTask(this.source(m.sourceKey), m.taskId, m.focus);
      case "rendered":
        return this.rendered(m);
    }
  }

  /** Copies a value of a row the host looks up itself (a hash). */
  private async copy(s: SourceFolder, rowId: number, name: string): Promise<void> {
    const ref = await this.services.worker.request({ ...this.address(s), type: "timelineRef", rowId });
    // The name comes from the webview: only the row's own values, never an inherited property.
    const value = ref && Object.prototype.hasOwnProperty.call(ref.copy, name) ? ref.copy[name] : undefined;
    if (ref && Object.keys(ref.copy).length === 0) {
      return this.post({ type: "notice", message: vscode.l10n.t("{0} rows have no hashes.", s.displayName) });
    }
    if (!value) return this.post({ type: "notice", message: vscode.l10n.t("No {0} for #{1}.", name, rowId) });
    await vscode.env.clipboard.writeText(value);
    return this.post({ type: "notice", message: vscode.l10n.t("Copied the {0} of #{1}.", name, rowId) });
  }

  private async revealTask(s: SourceFolder, taskId: string, focus: boolean): Promise<void> {
    const reveal = s.timeline?.revealTask;
    if (!reveal) return;
    if (!focus) this.echoTask = taskId;
    try {
      if (!(await reveal(taskId, focus))) this.echoTask = null;
    } catch (e) {
      this.echoTask = null;
      throw e;
    }
  }

  private onSourceChange(s: SourceFolder | undefined): void {
    if (this.showAwaited()) return;
    if (s === undefined) return this.post({ type: "sources", sources: timelineChoices(this.services.folders) });
    if (s.key !== this.sourceKey || !s.timeline) return;
    // A throttle, not a debounce: a folder refreshed every few tens of ms (a writer's burst) must
    // not hold the timeline back until it pauses; the message reads the source when it is sent.
    if (this.changeTimer !== undefined) return;
    this.changeTimer = setTimeout(() => {
      this.changeTimer = undefined;
      const t = s.timeline;
      if (!t) return;
      this.post({
        type: "sourceChanged",
        sourceKey: s.key,
        rows: t.rows,
        travelRowId: t.travelRowId,
        integrity: t.integrity,
      });
    }, 50);
  }

  private init(saved: string | null): void {
    const sources = timelineChoices(this.services.folders);
    this.sourceKey = this.askedKey(this.intent.sourceKey) ?? this.timelineKey(saved) ?? sources[0]?.key ?? null;
    const s = this.sourceKey ? timelineSourceOf(this.services.folders, this.sourceKey) : undefined;
    const warm =
      this.warm && this.warm.sourceKey === this.sourceKey && s && this.warm.page.entries === s.timeline.rows
        ? this.warm
        : null;
    this.post({
      type: "init",
      sources,
      plainView: plainTimelineView(),
      sourceKey: this.sourceKey,
      travelRowId: s?.timeline.travelRowId ?? null,
      integrity: s?.timeline.integrity ?? null,
      focusTask: this.intent.taskId ?? null,
      locateRowId: this.intent.rowId ?? null,
      firstPage: warm ? { query: warm.query, page: warm.page } : null,
    });
    this.noticeAwaited();
    this.intent = {};
    this.warm = null;
  }

  /** The folder asked for earlier has a timeline now: the page gets the new choices and shows it. */
  private showAwaited(): boolean {
    const key = this.timelineKey(this.awaited);
    if (!key) return false;
    this.awaited = null;
    this.sourceKey = key;
    this.post({ type: "sources", sources: timelineChoices(this.services.folders) });
    this.post({ type: "reveal", sourceKey: key, rowId: null, taskId: null });
    return true;
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
