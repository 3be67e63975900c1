/**
 * The timeline page: wires the toolbar, the rows (see {@link TimelinePager}),
 * the details pane and the banners to the host, and handles every message
 * the host sends. Selecting an entry loads its details on demand and, when
 * linked, reveals its task in the Plan tree (or time-travels the tree).
 * Filters, selection and scroll position are saved with setState, so they
 * survive hide/show.
 */
import type {
  FolderChoice,
  HostToWebview,
  IntegritySummary,
  TimelineEntryRow,
  TimelinePage,
  TimelineQuery,
  WebviewMessageOf,
  WebviewToHost,
} from "../src/protocol";
import { DetailsPane } from "./detailsPane";
import { h } from "./dom";
import { FilterBar, ViewOptions } from "./filterBar";
import { HostBridge } from "./hostBridge";
import { l10n } from "./l10n";
import { StatusBanner } from "./statusBanner";
import { TimelinePager } from "./timelinePager";

/** What survives hide/show. */
export interface SavedState {
  readonly folderUri: string | null;
  readonly options: ViewOptions;
  readonly selectedSeq: number | null;
  readonly anchorSeq: number | null;
  readonly anchorOffset: number;
}

/** Defaults; the host warms the worker with the same query (src/extension/timelineController.ts warmUp). */
const DEFAULT_OPTIONS: ViewOptions = {
  filter: { ops: [], taskId: "", sessionId: "", status: "", text: "", changesOnly: false },
  foldSnapshots: true,
  linkTree: true,
  travelOnSelect: false,
};

const noSelection = () => l10n.t("Select an entry to see its payload, hashes and what it changed.");

type WithoutFolder<T> = T extends unknown ? Omit<T, "folderUri"> : never;

/** The page's controller. */
export class TimelineApp {
  private readonly bridge = new HostBridge<SavedState>();
  private readonly pager: TimelinePager;
  private readonly bar: FilterBar;
  private readonly details: DetailsPane;
  private readonly banner: StatusBanner;
  private readonly overlay = h("div", { cls: "tl-overlay", text: l10n.t("Loading the ledger…") });
  private readonly timeZone = safeTimeZone();
  private folderUri: string | null = null;
  private folders: readonly FolderChoice[] = [];
  private travelSeq: number | null = null;
  private integrity: IntegritySummary | null = null;
  private selectedSeq: number | null;
  private pendingAnchor: { seq: number; offset: number } | null;
  private detailsRequest = 0;
  private detailsTimer = 0;
  private saveTimer = 0;
  private opened = false;
  private facetKey = "";

  constructor(
    root: HTMLElement,
    private readonly started: number,
  ) {
    const saved = this.bridge.loadState();
    this.selectedSeq = saved.selectedSeq ?? null;
    this.pendingAnchor = saved.anchorSeq ? { seq: saved.anchorSeq, offset: saved.anchorOffset ?? 0 } : null;
    this.bar = new FilterBar(saved.options ?? DEFAULT_OPTIONS, {
      changed: (_o, filterChanged) =>
        filterChanged ? this.reload(this.selectedSeq) : (this.save(), this.pager.list.render()),
      jump: (seq) => this.jump(seq),
      folder: (uri) => this.switchFolder(uri),
    });
    this.pager = new TimelinePager({
      folderUri: () => this.folderUri,
      query: () => this.query(),
      requestId: () => this.bridge.requestId(),
      post: (m) => this.bridge.post(m),
      accepted: (p) => this.accepted(p),
      painted: (reason) => this.reportRendered(this.opened ? reason : "open"),
      located: (index, seq) => this.selectLocated(index, seq),
      select: (row) => this.select(row),
      activate: (row) => this.post({ type: "showPlanAsOf", seq: row.seq }),
      scrolled: () => {
        clearTimeout(this.saveTimer);
        this.saveTimer = window.setTimeout(() => this.save(), 200);
      },
      context: () => ({ selectedSeq: this.selectedSeq, travelSeq: this.travelSeq, now: Date.now() }),
    });
    this.details = new DetailsPane({
      showPlanAsOf: (seq) => this.post({ type: "showPlanAsOf", seq }),
      openLine: (seq) => this.post({ type: "openLine", seq }),
      revealTask: (taskId) => this.post({ type: "revealTask", taskId, focus: true }),
      copyHash: (seq, which) => this.post({ type: "copyHash", seq, which }),
    });
    this.banner = new StatusBanner({
      backToLive: () => this.post({ type: "backToLive" }),
      jumpTo: (seq) => this.jump(seq),
    });
    const listWrap = h("div", { cls: "tl-listwrap" }, [this.pager.list.el, this.pager.newPill, this.overlay]);
    root.append(this.bar.el, this.banner.el, h("div", { cls: "tl-main" }, [listWrap, this.details.el]));
    this.bridge.listen((m) => this.receive(m));
    window.setInterval(() => this.pager.list.render(), 30_000);
    this.bridge.post({ type: "ready", folderUri: saved.folderUri ?? null });
  }

  private receive(m: HostToWebview): void {
    switch (m.type) {
      case "init":
        this.folders = m.folders;
        this.folderUri = m.folderUri;
        this.travelSeq = m.travelSeq;
        this.integrity = m.integrity;
        this.bar.setFolders(m.folders, m.folderUri);
        this.banner.setTravel(m.travelSeq);
        if (m.focusTask !== null) {
          this.bar.set({ ...this.bar.value, filter: { ...DEFAULT_OPTIONS.filter, taskId: m.focusTask } });
        }
        if (m.folderUri === null) return this.showOverlay(l10n.t("No workspace folder has .autodev/ state."));
        if (m.locateSeq !== null) return this.reload(m.locateSeq, true);
        if (m.firstPage && this.pendingAnchor === null && sameQuery(m.firstPage.query, this.query())) {
          return this.pager.firstPaint(m.firstPage.page);
        }
        return this.reload(this.selectedSeq, false, this.pendingAnchor);
      case "page":
        if (this.pager.onPage(m.requestId, m.page) && !this.opened) this.reportRendered("open");
        return;
      case "details":
        if (m.requestId === this.detailsRequest) {
          if (m.detail) this.details.show(m.detail, Date.now());
          else this.details.empty(l10n.t("That entry is no longer in the ledger."));
        }
        return;
      case "ledgerChanged":
        if (m.folderUri !== this.folderUri) return;
        this.travelSeq = m.travelSeq;
        this.integrity = m.integrity;
        this.banner.setTravel(m.travelSeq);
        this.banner.setIntegrity(m.integrity, this.pager.totals.brokenSeq);
        this.pager.list.render();
        if (m.entries !== this.pager.totals.entries) this.pager.liveUpdate();
        return;
      case "folders":
        this.folders = m.folders;
        this.bar.setFolders(m.folders, this.folderUri);
        if (!m.folders.some((f) => f.uri === this.folderUri)) this.switchFolder(m.folders[0]?.uri ?? null);
        return;
      case "treeTask":
        if (m.folderUri !== this.folderUri || !this.bar.value.linkTree || this.bar.value.filter.taskId === m.taskId) {
          return;
        }
        this.bar.set({ ...this.bar.value, filter: { ...this.bar.value.filter, taskId: m.taskId } });
        return this.reload(this.selectedSeq);
      case "reveal":
        if (m.folderUri !== this.folderUri) this.switchFolder(m.folderUri);
        if (m.taskId !== null) {
          this.bar.set({ ...this.bar.value, filter: { ...DEFAULT_OPTIONS.filter, taskId: m.taskId } });
          return this.reload(m.seq, m.seq !== null);
        }
        if (m.seq !== null) this.jump(m.seq);
        return;
      case "notice":
        return this.banner.notice(m.message);
      case "error":
        if (m.requestId !== null) this.pager.fail(m.requestId);
        return this.banner.notice(l10n.t("Error: {0}", m.message));
    }
  }

  /** Posts a message that names the current folder. */
  private post(
    m: WithoutFolder<WebviewMessageOf<"showPlanAsOf" | "openLine" | "copyHash" | "backToLive" | "revealTask">>,
  ): void {
    if (this.folderUri === null) return;
    this.bridge.post({ ...m, folderUri: this.folderUri } as WebviewToHost);
  }

  private query(): TimelineQuery {
    const o = this.bar.value;
    return { filter: o.filter, foldSnapshots: o.foldSnapshots, timeZone: this.timeZone };
  }

  private reload(
    locateSeq: number | null,
    selectIt = false,
    anchor: { seq: number; offset: number } | null = null,
  ): void {
    this.pendingAnchor = null;
    this.save();
    this.pager.reload(locateSeq, anchor, selectIt);
  }

  /** Counts, facets, the empty-state overlay and the broken-chain banner, from a page's totals. */
  private accepted(p: TimelinePage): void {
    this.bar.setCount(p.matched, p.entries);
    this.banner.setIntegrity(this.integrity, p.brokenSeq);
    if (p.facets) {
      const key = JSON.stringify(
        [p.facets.ops, p.facets.statuses, p.facets.sessions, p.facets.tasks].map((l) => l.map((x) => x.value)),
      );
      if (key !== this.facetKey || !this.opened) this.bar.setFacets(p.facets);
      this.facetKey = key;
    }
    if (p.total === 0) {
      this.showOverlay(
        p.entries === 0 ? l10n.t("No entries yet: the ledger is empty.") : l10n.t("No entry matches the filters."),
      );
    } else this.overlay.hidden = true;
  }

  /** Jumps to entry `seq`; when the filters hide it, clears them first. */
  private jump(seq: number): void {
    this.pager.locate(
      seq,
      (index) => {
        this.bar.jumped();
        this.pager.list.scrollToRow(index, "center");
        this.pager.list.setActive(index);
        this.selectLocated(index, seq);
        this.pager.list.el.focus();
      },
      () => {
        if (JSON.stringify(this.bar.value.filter) === JSON.stringify(DEFAULT_OPTIONS.filter)) {
          return this.banner.notice(l10n.t("There is no entry #{0} in this ledger.", seq));
        }
        this.banner.notice(l10n.t("The filters hid #{0}; they were cleared.", seq));
        this.bar.set({ ...this.bar.value, filter: DEFAULT_OPTIONS.filter });
        this.reload(seq, true);
      },
    );
  }

  /** Selects the row a jump landed on; a folded snapshot selects its entry's row and shows the snapshot's details. */
  private selectLocated(index: number, seq: number | null): void {
    const row = this.pager.rowAt(index);
    if (row?.kind === "entry") return this.select(row, false, seq ?? row.seq);
    if (seq !== null) this.select({ seq } as TimelineEntryRow, true);
  }

  private select(row: TimelineEntryRow, detailsOnly = false, detailsSeq = row.seq): void {
    this.selectedSeq = row.seq;
    this.save();
    this.pager.list.render();
    this.details.loading(detailsSeq);
    clearTimeout(this.detailsTimer);
    this.detailsTimer = window.setTimeout(() => {
      if (this.folderUri === null) return;
      this.detailsRequest = this.bridge.requestId();
      this.bridge.post({ type: "details", requestId: this.detailsRequest, folderUri: this.folderUri, seq: detailsSeq });
    }, 60);
    if (detailsOnly) return;
    if (this.bar.value.linkTree && row.taskId !== null) {
      this.post({ type: "revealTask", taskId: row.taskId, focus: false });
    }
    if (this.bar.value.travelOnSelect) this.post({ type: "showPlanAsOf", seq: row.seq });
  }

  private switchFolder(uri: string | null): void {
    if (uri !== this.folderUri) this.bar.dropFolderFilters();
    this.folderUri = uri;
    this.bar.setFolders(this.folders, uri);
    this.selectedSeq = null;
    this.details.empty(noSelection());
    if (uri === null) return this.showOverlay(l10n.t("No workspace folder has .autodev/ state."));
    this.bridge.post({ type: "setFolder", folderUri: uri });
    this.reload(null);
  }

  private showOverlay(text: string): void {
    this.overlay.textContent = text;
    this.overlay.hidden = false;
  }

  private save(): void {
    const a = this.pager.anchor();
    this.bridge.saveState({
      folderUri: this.folderUri,
      options: this.bar.value,
      selectedSeq: this.selectedSeq,
      anchorSeq: a?.seq ?? null,
      anchorOffset: a?.offset ?? 0,
    });
  }

  /** Tells the host what is on screen (first paint after opening, then after updates). */
  private reportRendered(reason: "open" | "update"): void {
    requestAnimationFrame(() => {
      const shown = [...this.pager.list.el.querySelectorAll<HTMLElement>(".tl-row.entry:not([hidden])")];
      const totals = this.pager.totals;
      if (reason === "open" && (this.opened || (shown.length === 0 && totals.total > 0))) return;
      shown.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
      const firstSeq = shown[0]?.dataset.seq ? Number(shown[0].dataset.seq) : null;
      this.opened = true;
      this.bridge.post({
        type: "rendered",
        reason,
        rows: shown.length,
        total: totals.total,
        matched: totals.matched,
        firstSeq,
        ms: performance.now() - this.started,
      });
    });
  }
}

/** The same query, whatever the key order. */
function sameQuery(a: TimelineQuery, b: TimelineQuery): boolean {
  const f = (q: TimelineQuery) =>
    [
      q.timeZone,
      q.foldSnapshots,
      q.filter.ops.join("\u0000"),
      q.filter.taskId,
      q.filter.sessionId,
      q.filter.status,
      q.filter.text,
      q.filter.changesOnly,
    ].join("\u0001");
  return f(a) === f(b);
}

function safeTimeZone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  return /^[A-Za-z0-9_+\-/]{1,64}$/.test(tz) ? tz : "UTC";
}
