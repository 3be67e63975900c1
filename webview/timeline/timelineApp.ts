/**
 * The timeline page: wires the toolbar, the rows (see {@link TimelinePager}),
 * the details pane and the banners to the host, and handles every message
 * the host sends. Selecting an entry loads its details on demand and, when
 * linked, reveals its task in the Plan tree (or time-travels the tree).
 * Filters, selection and scroll position are saved with setState, so they
 * survive hide/show.
 */
import type {
  HostToWebview,
  IntegritySummary,
  TimelineEntryRow,
  TimelinePage,
  TimelineQuery,
  SourceChoice,
  TimelineView,
  WebviewMessageOf,
  WebviewToHost,
} from "../../src/protocolTimeline";
import { DetailsPane } from "./detailsPane";
import { DetailsSplit } from "./detailsSplit";
import { h } from "../dom";
import { FilterBar, ViewOptions } from "./filterBar";
import { HostBridge } from "./hostBridge";
import { l10n } from "../l10n";
import { StatusBanner } from "./statusBanner";
import { TimelinePager } from "./timelinePager";

/** What survives hide/show. */
export interface SavedState {
  readonly sourceKey: string | null;
  readonly options: ViewOptions;
  readonly selectedRowId: number | null;
  readonly anchorRowId: number | null;
  readonly anchorOffset: number;
  /** The details pane's width the user dragged to (null: the default). */
  readonly detailsWidth?: number | null;
}

/** Defaults; the host warms the worker with the same query (src/extension/timeline/timelineController.ts warmUp). */
const DEFAULT_OPTIONS: ViewOptions = {
  filter: { actions: [], taskId: "", actor: "", status: "", text: "", changesOnly: false },
  foldSnapshots: true,
  linkTree: true,
  travelOnSelect: false,
};

type WithoutSource<T> = T extends unknown ? Omit<T, "sourceKey"> : never;

/** The page's controller. */
export class TimelineApp {
  private readonly bridge = new HostBridge<SavedState>();
  private readonly pager: TimelinePager;
  private readonly bar: FilterBar;
  private readonly details: DetailsPane;
  private readonly banner: StatusBanner;
  private readonly split: DetailsSplit;
  private readonly overlay = h("div", { cls: "tl-overlay", text: l10n.t("Loading…") });
  private readonly timeZone = safeTimeZone();
  private sourceKey: string | null = null;
  private sources: readonly SourceChoice[] = [];
  /** The host's view of a plain log, for while no source is chosen (null until the host's `init`). */
  private plainView: TimelineView | null = null;
  private travelRowId: number | null = null;
  private integrity: IntegritySummary | null = null;
  private selectedRowId: number | null;
  private pendingAnchor: { rowId: number; offset: number } | null;
  private detailsRequest = 0;
  private detailsTimer = 0;
  private saveTimer = 0;
  private opened = false;
  /** The host's `init` came (a `sources` or `reveal` queued before it is superseded by it). */
  private initialized = false;
  private facetKey = "";

  constructor(
    root: HTMLElement,
    private readonly started: number,
  ) {
    const saved = this.bridge.loadState();
    this.selectedRowId = saved.selectedRowId ?? null;
    this.pendingAnchor = saved.anchorRowId ? { rowId: saved.anchorRowId, offset: saved.anchorOffset ?? 0 } : null;
    this.bar = new FilterBar(saved.options ?? DEFAULT_OPTIONS, {
      changed: (_o, filterChanged) =>
        filterChanged ? this.reload(this.selectedRowId) : (this.save(), this.pager.list.render()),
      jump: (rowId) => this.jump(rowId),
      source: (key) => this.switchSource(key),
    });
    this.pager = new TimelinePager({
      sourceKey: () => this.sourceKey,
      query: () => this.query(),
      requestId: () => this.bridge.requestId(),
      post: (m) => this.bridge.post(m),
      accepted: (p) => this.accepted(p),
      painted: (reason) => this.reportRendered(this.opened ? reason : "open"),
      located: (index, rowId) => this.selectLocated(index, rowId),
      select: (row) => this.select(row),
      activate: (row) => this.view?.timeTravel && this.post({ type: "travel", rowId: row.rowId }),
      scrolled: () => {
        clearTimeout(this.saveTimer);
        this.saveTimer = window.setTimeout(() => this.save(), 200);
      },
      context: () => ({
        selectedRowId: this.selectedRowId,
        travelRowId: this.travelRowId,
        now: Date.now(),
        view: this.view,
      }),
    });
    this.details = new DetailsPane({
      travel: (rowId) => this.post({ type: "travel", rowId }),
      openLine: (rowId) => this.post({ type: "openLine", rowId }),
      revealTask: (taskId) => this.post({ type: "revealTask", taskId, focus: true }),
      copy: (rowId, value) => this.post({ type: "copy", rowId, value }),
    });
    this.banner = new StatusBanner({
      backToLive: () => this.post({ type: "backToLive" }),
      jumpTo: (rowId) => this.jump(rowId),
    });
    const listWrap = h("div", { cls: "tl-listwrap" }, [this.pager.list.el, this.pager.newPill, this.overlay]);
    this.split = new DetailsSplit(listWrap, this.details.el, saved.detailsWidth ?? null, {
      resized: () => this.save(),
      closed: () => this.pager.list.el.focus(),
    });
    root.append(this.bar.el, this.banner.el, this.split.el);
    this.bridge.listen((m) => this.receive(m));
    window.setInterval(() => this.pager.list.render(), 30_000);
    this.bridge.post({ type: "ready", sourceKey: saved.sourceKey ?? null });
  }

  private receive(m: HostToWebview): void {
    switch (m.type) {
      case "init":
        this.initialized = true;
        this.plainView = m.plainView;
        this.sources = m.sources;
        this.sourceKey = m.sourceKey;
        this.travelRowId = m.travelRowId;
        this.integrity = m.integrity;
        this.bar.setSources(m.sources, m.sourceKey);
        this.applyView();
        this.banner.setTravel(m.travelRowId, this.view?.travel ?? null);
        if (m.focusTask !== null) {
          this.bar.set({ ...this.bar.value, filter: { ...DEFAULT_OPTIONS.filter, taskId: m.focusTask } });
        }
        if (m.sourceKey === null) return this.showOverlay(l10n.t("No workspace folder has state with a timeline."));
        if (m.locateRowId !== null) return this.reload(m.locateRowId, true);
        if (m.firstPage && this.pendingAnchor === null && sameQuery(m.firstPage.query, this.query())) {
          return this.pager.firstPaint(m.firstPage.page);
        }
        return this.reload(this.selectedRowId, false, this.pendingAnchor);
      case "page":
        if (this.pager.onPage(m.requestId, m.page) && !this.opened) this.reportRendered("open");
        return;
      case "details":
        if (m.requestId === this.detailsRequest) {
          if (m.detail) this.details.show(m.detail, Date.now(), m.taskNote);
          else this.details.empty(l10n.t("That row is no longer in the timeline."));
        }
        return;
      case "sourceChanged":
        if (m.sourceKey !== this.sourceKey) return;
        this.travelRowId = m.travelRowId;
        this.integrity = m.integrity;
        this.banner.setTravel(m.travelRowId, this.view?.travel ?? null);
        this.banner.setIntegrity(m.integrity, this.pager.totals.brokenRowId, this.view?.chain ?? null);
        this.pager.list.render();
        if (m.rows !== this.pager.totals.entries) this.pager.liveUpdate();
        return;
      case "sources":
        if (!this.initialized) return;
        this.sources = m.sources;
        this.bar.setSources(m.sources, this.sourceKey);
        this.applyView();
        if (!m.sources.some((c) => c.key === this.sourceKey)) this.switchSource(m.sources[0]?.key ?? null);
        return;
      case "treeTask":
        if (
          m.sourceKey !== this.sourceKey ||
          !this.view?.revealTask ||
          !this.bar.value.linkTree ||
          this.bar.value.filter.taskId === m.taskId
        ) {
          return;
        }
        this.bar.set({ ...this.bar.value, filter: { ...this.bar.value.filter, taskId: m.taskId } });
        return this.reload(this.selectedRowId);
      case "reveal":
        // Before init the host's init names the source; a task asked for is kept in the filter.
        if (this.initialized && m.sourceKey !== this.sourceKey) this.switchSource(m.sourceKey);
        if (m.taskId !== null) {
          this.bar.set({ ...this.bar.value, filter: { ...DEFAULT_OPTIONS.filter, taskId: m.taskId } });
          return this.reload(m.rowId, m.rowId !== null);
        }
        if (m.rowId !== null) this.jump(m.rowId);
        return;
      case "notice":
        return this.banner.notice(m.message);
      case "error":
        if (m.requestId !== null) this.pager.fail(m.requestId);
        return this.banner.notice(l10n.t("Error: {0}", m.message));
    }
  }

  /** What the current source's rows are and which controls apply (the host's plain log while none is chosen; null before `init`). */
  private get view(): TimelineView | null {
    return this.sources.find((c) => c.key === this.sourceKey)?.view ?? this.plainView;
  }

  /** Shows the current source's fields and only its controls. */
  private applyView(): void {
    const view = this.view;
    if (view === null) return;
    this.bar.setView(view);
    this.details.setView(view);
    this.pager.list.el.classList.toggle("plain", view.chain === null);
    this.pager.list.render();
  }

  /** Posts a message that names the current source. */
  private post(m: WithoutSource<WebviewMessageOf<"travel" | "openLine" | "copy" | "backToLive" | "revealTask">>): void {
    if (this.sourceKey === null) return;
    this.bridge.post({ ...m, sourceKey: this.sourceKey } as WebviewToHost);
  }

  private query(): TimelineQuery {
    const o = this.bar.value;
    return { filter: o.filter, foldSnapshots: o.foldSnapshots, timeZone: this.timeZone };
  }

  private reload(
    locateRowId: number | null,
    selectIt = false,
    anchor: { rowId: number; offset: number } | null = null,
  ): void {
    this.pendingAnchor = null;
    this.save();
    this.pager.reload(locateRowId, anchor, selectIt);
  }

  /** Counts, facets, the empty-state overlay and the broken-chain banner, from a page's totals. */
  private accepted(p: TimelinePage): void {
    this.bar.setCount(p.matched, p.entries, p.folded);
    this.banner.setIntegrity(this.integrity, p.brokenRowId, this.view?.chain ?? null);
    if (p.facets) {
      const key = JSON.stringify(
        [p.facets.actions, p.facets.statuses, p.facets.actors, p.facets.tasks].map((l) => l.map((x) => x.value)),
      );
      if (key !== this.facetKey || !this.opened) this.bar.setFacets(p.facets);
      this.facetKey = key;
    }
    if (p.total === 0) {
      this.showOverlay(
        p.entries === 0 ? l10n.t("Nothing yet: the timeline is empty.") : l10n.t("No entry matches the filters."),
      );
    } else this.overlay.hidden = true;
  }

  /** Jumps to entry `seq`; when the filters hide it, clears them first. */
  private jump(rowId: number): void {
    this.pager.locate(
      rowId,
      (index) => {
        this.bar.jumped();
        this.pager.list.scrollToRow(index, "center");
        this.pager.list.setActive(index);
        this.selectLocated(index, rowId);
        this.pager.list.el.focus();
      },
      () => {
        if (JSON.stringify(this.bar.value.filter) === JSON.stringify(DEFAULT_OPTIONS.filter)) {
          return this.banner.notice(l10n.t("There is no #{0} in this timeline.", rowId));
        }
        this.banner.notice(l10n.t("The filters hid #{0}; they were cleared.", rowId));
        this.bar.set({ ...this.bar.value, filter: DEFAULT_OPTIONS.filter });
        this.reload(rowId, true);
      },
    );
  }

  /** Selects the row a jump landed on; a folded snapshot selects its entry's row and shows the snapshot's details. */
  private selectLocated(index: number, rowId: number | null): void {
    const row = this.pager.rowAt(index);
    if (row?.kind === "entry") return this.select(row, false, rowId ?? row.rowId);
    if (rowId !== null) this.select({ rowId } as TimelineEntryRow, true);
  }

  private select(row: TimelineEntryRow, detailsOnly = false, detailsRowId = row.rowId): void {
    this.selectedRowId = row.rowId;
    this.save();
    this.pager.list.render();
    this.split.show();
    this.details.loading(detailsRowId);
    clearTimeout(this.detailsTimer);
    this.detailsTimer = window.setTimeout(() => {
      if (this.sourceKey === null) return;
      this.detailsRequest = this.bridge.requestId();
      this.bridge.post({
        type: "details",
        requestId: this.detailsRequest,
        sourceKey: this.sourceKey,
        rowId: detailsRowId,
      });
    }, 60);
    if (detailsOnly) return;
    if (this.view?.revealTask && this.bar.value.linkTree && row.taskId !== null) {
      this.post({ type: "revealTask", taskId: row.taskId, focus: false });
    }
    if (this.view?.timeTravel && this.bar.value.travelOnSelect) this.post({ type: "travel", rowId: row.rowId });
  }

  /**
   * Shows another source: nothing of the previous one stays on screen (rows, count, details, a
   * details request in flight or about to be sent) and its late answers are dropped, so what shows
   * once the new source's first page arrives is that source's alone.
   */
  private switchSource(key: string | null): void {
    if (key !== this.sourceKey) this.bar.dropSourceFilters();
    this.sourceKey = key;
    this.pager.clear();
    this.bar.setSources(this.sources, key);
    this.bar.setCount(null);
    this.applyView();
    this.selectedRowId = null;
    clearTimeout(this.detailsTimer);
    this.detailsRequest = -1;
    this.details.empty(this.details.noSelection());
    this.split.hide();
    if (key === null) return this.showOverlay(l10n.t("No workspace folder has state with a timeline."));
    this.showOverlay(l10n.t("Loading…"));
    this.bridge.post({ type: "setSource", sourceKey: key });
    this.reload(null);
  }

  private showOverlay(text: string): void {
    this.overlay.textContent = text;
    this.overlay.hidden = false;
  }

  private save(): void {
    const a = this.pager.anchor();
    this.bridge.saveState({
      sourceKey: this.sourceKey,
      options: this.bar.value,
      selectedRowId: this.selectedRowId,
      anchorRowId: a?.rowId ?? null,
      anchorOffset: a?.offset ?? 0,
      detailsWidth: this.split.paneWidth,
    });
  }

  /** Tells the host what is on screen (first paint after opening, then after updates). */
  private reportRendered(reason: "open" | "update"): void {
    requestAnimationFrame(() => {
      const shown = [...this.pager.list.el.querySelectorAll<HTMLElement>(".tl-row.entry:not([hidden])")];
      const totals = this.pager.totals;
      if (reason === "open" && (this.opened || (shown.length === 0 && totals.total > 0))) return;
      shown.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
      const firstRowId = shown[0]?.dataset.row ? Number(shown[0].dataset.row) : null;
      this.opened = true;
      this.bridge.post({
        type: "rendered",
        sourceKey: this.sourceKey,
        reason,
        rows: shown.length,
        total: totals.total,
        matched: totals.matched,
        firstRowId,
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
      q.filter.actions.join("\u0000"),
      q.filter.taskId,
      q.filter.actor,
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
