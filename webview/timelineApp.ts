/**
 * The timeline page: wires the toolbar, the virtual list, the details pane
 * and the banners to the host. Rows arrive in pages (the host filters and
 * pages in the ledger worker); a live update keeps the rows in view where
 * they are — rows inserted above shift the scroll offset by as much — and
 * counts what arrived in an "N new" button. Filters, selection and scroll
 * position are saved with setState, so they survive hide/show.
 */
import type { FolderChoice, HostToWebview, IntegritySummary, TimelineEntryRow, TimelinePage, TimelineQuery, TimelineRow, WebviewMessageOf, WebviewToHost } from "../src/protocol";
import { DetailsPane } from "./detailsPane";
import { button, h } from "./dom";
import { FilterBar, ViewOptions } from "./filterBar";
import { count } from "./format";
import { HostBridge } from "./hostBridge";
import { PAGE_SIZE, RowCache } from "./rowCache";
import { ROW_HEIGHT } from "./rowView";
import { StatusBanner } from "./statusBanner";
import { VirtualList } from "./virtualList";

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

type Control = (page: TimelinePage) => void;
type WithoutFolder<T> = T extends unknown ? Omit<T, "folderUri"> : never;

/** The page's controller. */
export class TimelineApp {
  private readonly bridge = new HostBridge<SavedState>();
  private readonly cache = new RowCache((offset, limit) => this.send(offset, limit, null, null, false));
  private readonly list: VirtualList;
  private readonly bar: FilterBar;
  private readonly details: DetailsPane;
  private readonly banner: StatusBanner;
  private readonly newPill = button("arrow-up", "", { cls: "tl-newpill" });
  private readonly overlay = h("div", { cls: "tl-overlay", text: "Loading the ledger…" });
  private readonly controls = new Map<number, Control>();
  private readonly timeZone = safeTimeZone();
  private folderUri: string | null = null;
  private folders: readonly FolderChoice[] = [];
  private travelSeq: number | null = null;
  private integrity: IntegritySummary | null = null;
  private selectedSeq: number | null;
  private page: Pick<TimelinePage, "generation" | "entries" | "matched" | "total" | "brokenSeq"> = { generation: 0, entries: 0, matched: 0, total: 0, brokenSeq: null };
  private newCount = 0;
  private detailsRequest = 0;
  private detailsTimer = 0;
  private saveTimer = 0;
  private opened = false;
  private facetKey = "";
  private pendingAnchor: { seq: number; offset: number } | null;
  private updating = false;
  private updateAgain = false;

  constructor(root: HTMLElement, private readonly started: number) {
    const saved = this.bridge.loadState();
    this.selectedSeq = saved.selectedSeq ?? null;
    this.bar = new FilterBar(saved.options ?? DEFAULT_OPTIONS, {
      changed: (_o, filterChanged) => (filterChanged ? this.reload(this.selectedSeq, false) : (this.save(), this.list.render())),
      jump: (seq) => this.jump(seq, true),
      folder: (uri) => this.switchFolder(uri),
    });
    this.list = new VirtualList(
      {
        rowAt: (i) => this.cache.get(i),
        rowId: (r) => this.cache.idOf(r),
        need: (first, last) => this.cache.ensure(first, last, this.page.total),
        select: (_i, row) => this.select(row),
        activate: (row) => this.post({ type: "showPlanAsOf", seq: row.seq }),
        scrolled: () => this.scrolled(),
        context: () => ({ selectedSeq: this.selectedSeq, travelSeq: this.travelSeq, now: Date.now() }),
      },
      "Ledger entries, newest first",
    );
    this.details = new DetailsPane({
      showPlanAsOf: (seq) => this.post({ type: "showPlanAsOf", seq }),
      openLine: (seq) => this.post({ type: "openLine", seq }),
      revealTask: (taskId) => this.post({ type: "revealTask", taskId, focus: true }),
      copyHash: (seq, which) => this.post({ type: "copyHash", seq, which }),
    });
    this.banner = new StatusBanner({ backToLive: () => this.post({ type: "backToLive" }), jumpTo: (seq) => this.jump(seq, true) });
    this.newPill.hidden = true;
    this.newPill.addEventListener("click", () => this.list.moveTo(0, 1));
    const listWrap = h("div", { cls: "tl-listwrap" }, [this.list.el, this.newPill, this.overlay]);
    root.append(this.bar.el, this.banner.el, h("div", { cls: "tl-main" }, [listWrap, this.details.el]));
    this.bridge.listen((m) => this.receive(m));
    window.setInterval(() => this.list.render(), 30_000);
    this.pendingAnchor = saved.anchorSeq ? { seq: saved.anchorSeq, offset: saved.anchorOffset ?? 0 } : null;
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
        if (m.focusTask !== null) this.bar.set({ ...this.bar.value, filter: { ...DEFAULT_OPTIONS.filter, taskId: m.focusTask } });
        if (m.folderUri === null) return this.showOverlay("No workspace folder has .autodev/ state.");
        if (m.locateSeq !== null) return this.reload(m.locateSeq, true);
        if (m.firstPage && this.pendingAnchor === null && sameQuery(m.firstPage.query, this.query())) return this.firstPaint(m.firstPage.page);
        return this.reload(this.selectedSeq, false, this.pendingAnchor);
      case "page": {
        const control = this.controls.get(m.requestId);
        if (control) {
          this.controls.delete(m.requestId);
          return control(m.page);
        }
        if (!this.cache.accept(m.requestId, m.page)) return;
        if (m.page.generation !== this.page.generation || m.page.total !== this.page.total) return this.liveUpdate();
        this.list.render();
        if (!this.opened) this.reportRendered("open");
        return;
      }
      case "details":
        if (m.requestId === this.detailsRequest) m.detail ? this.details.show(m.detail, Date.now()) : this.details.empty("That entry is no longer in the ledger.");
        return;
      case "ledgerChanged":
        if (m.folderUri !== this.folderUri) return;
        this.travelSeq = m.travelSeq;
        this.integrity = m.integrity;
        this.banner.setTravel(m.travelSeq);
        this.banner.setIntegrity(m.integrity, this.page.brokenSeq);
        this.list.render();
        if (m.entries !== this.page.entries) this.liveUpdate();
        return;
      case "folders":
        this.folders = m.folders;
        this.bar.setFolders(m.folders, this.folderUri);
        if (!m.folders.some((f) => f.uri === this.folderUri)) this.switchFolder(m.folders[0]?.uri ?? null);
        return;
      case "treeTask":
        if (m.folderUri !== this.folderUri || !this.bar.value.linkTree || this.bar.value.filter.taskId === m.taskId) return;
        this.bar.set({ ...this.bar.value, filter: { ...this.bar.value.filter, taskId: m.taskId } });
        return this.reload(this.selectedSeq, false);
      case "reveal":
        if (m.folderUri !== this.folderUri) this.switchFolder(m.folderUri);
        if (m.taskId !== null) {
          this.bar.set({ ...this.bar.value, filter: { ...DEFAULT_OPTIONS.filter, taskId: m.taskId } });
          return this.reload(m.seq, m.seq !== null);
        }
        if (m.seq !== null) this.jump(m.seq, true);
        return;
      case "notice":
        return this.banner.notice(m.message);
      case "error":
        if (m.requestId !== null) {
          this.cache.fail(m.requestId);
          this.controls.delete(m.requestId);
        }
        return this.banner.notice(`Error: ${m.message}`);
    }
  }

  /** Posts a message that names the current folder. */
  private post(m: WithoutFolder<WebviewMessageOf<"showPlanAsOf" | "openLine" | "copyHash" | "backToLive" | "revealTask">>): void {
    if (this.folderUri === null) return;
    this.bridge.post({ ...m, folderUri: this.folderUri } as WebviewToHost);
  }

  private query(): TimelineQuery {
    const o = this.bar.value;
    return { filter: o.filter, foldSnapshots: o.foldSnapshots, timeZone: this.timeZone };
  }

  /** Sends a page query; a `control` callback receives the answer instead of the cache. */
  private send(offset: number, limit: number, anchorSeq: number | null, locateSeq: number | null, facets: boolean, control?: Control): number {
    const requestId = this.bridge.requestId();
    if (this.folderUri === null) return requestId;
    if (control) this.controls.set(requestId, control);
    this.bridge.post({ type: "query", requestId, folderUri: this.folderUri, query: this.query(), offset, limit, anchorSeq, locateSeq, facets });
    return requestId;
  }

  /** Starts over (new folder or filter): totals, facets, then the rows around `locateSeq` or the saved anchor. */
  private reload(locateSeq: number | null, selectIt: boolean, anchor: { seq: number; offset: number } | null = null): void {
    this.cache.reset(false);
    this.controls.clear();
    this.updating = false;
    this.updateAgain = false;
    this.newCount = 0;
    this.showNewPill();
    this.pendingAnchor = null;
    this.save();
    this.send(0, PAGE_SIZE, anchor?.seq ?? null, locateSeq, true, (p) => {
      this.accept(p);
      this.cache.store(p);
      this.list.setTotal(p.total);
      if (p.located !== null) {
        this.list.scrollToRow(p.located, "center");
        this.list.setActive(p.located);
        if (selectIt) this.selectLocated(p.located, locateSeq);
      } else if (anchor && p.anchorRow !== null) this.list.scrollTop = p.anchorRow * ROW_HEIGHT + anchor.offset;
      else this.list.scrollTop = 0;
      this.list.render();
      this.reportRendered(this.opened ? "update" : "open");
    });
  }

  /** Shows the page the host computed while this page loaded (no round trip). */
  private firstPaint(p: TimelinePage): void {
    this.cache.reset(false);
    this.accept(p);
    this.cache.store(p);
    this.list.setTotal(p.total);
    this.list.scrollTop = 0;
    this.list.render();
    this.reportRendered("open");
  }

  /** New entries (or a re-read ledger): keep the rows in view where they are, count what is new. */
  private liveUpdate(): void {
    if (this.updating) {
      this.updateAgain = true;
      return;
    }
    this.updating = true;
    const atTop = this.list.scrollTop < ROW_HEIGHT / 2;
    const anchor = this.anchor();
    const before = this.page;
    this.send(0, atTop ? PAGE_SIZE : 0, anchor?.seq ?? null, null, true, (p) => {
      this.updating = false;
      if (p.generation !== before.generation) {
        this.reload(this.selectedSeq, false, anchor);
      } else {
        const delta = anchor && p.anchorRow !== null ? p.anchorRow - anchor.row : p.total - before.total;
        this.cache.shift(delta);
        this.cache.reset(true);
        this.accept(p);
        if (atTop) this.cache.store(p);
        this.list.setTotal(p.total);
        if (this.list.activeIndex >= 0) this.list.setActive(this.list.activeIndex + delta);
        if (!atTop && delta !== 0) {
          this.list.scrollTop = this.list.scrollTop + delta * ROW_HEIGHT;
          this.newCount += Math.max(0, p.matched - before.matched);
        }
        this.list.render();
        this.reportRendered("update");
      }
      this.showNewPill();
      if (this.updateAgain) {
        this.updateAgain = false;
        this.liveUpdate();
      }
    });
  }

  private accept(p: TimelinePage): void {
    this.page = { generation: p.generation, entries: p.entries, matched: p.matched, total: p.total, brokenSeq: p.brokenSeq };
    this.bar.setCount(p.matched, p.entries);
    this.banner.setIntegrity(this.integrity, p.brokenSeq);
    if (p.facets) {
      const key = JSON.stringify([p.facets.ops, p.facets.statuses, p.facets.sessions, p.facets.tasks].map((l) => l.map((x) => x.value)));
      if (key !== this.facetKey || !this.opened) this.bar.setFacets(p.facets);
      this.facetKey = key;
    }
    if (p.total === 0) this.showOverlay(p.entries === 0 ? "No entries yet: the ledger is empty." : "No entry matches the filters.");
    else this.overlay.hidden = true;
  }

  /** Jumps to entry `seq`; when the filters hide it, clears them first. */
  private jump(seq: number, clearIfHidden: boolean): void {
    this.send(0, 0, null, seq, false, (p) => {
      if (p.located !== null) {
        this.bar.jumped();
        this.list.scrollToRow(p.located, "center");
        this.list.setActive(p.located);
        this.selectLocated(p.located, seq);
        this.list.el.focus();
      } else if (clearIfHidden && JSON.stringify(this.bar.value.filter) !== JSON.stringify(DEFAULT_OPTIONS.filter)) {
        this.banner.notice(`The filters hid #${seq}; they were cleared.`);
        this.bar.set({ ...this.bar.value, filter: DEFAULT_OPTIONS.filter });
        this.reload(seq, true);
      } else this.banner.notice(`There is no entry #${seq} in this ledger.`);
    });
  }

  /** Selects the row a jump landed on; a folded snapshot selects its entry's row and shows the snapshot's details. */
  private selectLocated(index: number, seq: number | null): void {
    const row = this.cache.get(index);
    if (row?.kind === "entry") return this.select(row, false, seq ?? row.seq);
    if (seq !== null) this.select({ seq } as TimelineEntryRow, true);
  }

  private select(row: TimelineEntryRow, detailsOnly = false, detailsSeq = row.seq): void {
    this.selectedSeq = row.seq;
    this.save();
    this.list.render();
    this.details.loading(detailsSeq);
    clearTimeout(this.detailsTimer);
    this.detailsTimer = window.setTimeout(() => {
      if (this.folderUri === null) return;
      this.detailsRequest = this.bridge.requestId();
      this.bridge.post({ type: "details", requestId: this.detailsRequest, folderUri: this.folderUri, seq: detailsSeq });
    }, 60);
    if (detailsOnly) return;
    if (this.bar.value.linkTree && row.taskId !== null) this.post({ type: "revealTask", taskId: row.taskId, focus: false });
    if (this.bar.value.travelOnSelect) this.post({ type: "showPlanAsOf", seq: row.seq });
  }

  private switchFolder(uri: string | null): void {
    this.folderUri = uri;
    this.bar.setFolders(this.folders, uri);
    this.selectedSeq = null;
    this.details.empty("Select an entry to see its payload, hashes and what it changed.");
    if (uri === null) return this.showOverlay("No workspace folder has .autodev/ state.");
    this.bridge.post({ type: "setFolder", folderUri: uri });
    this.reload(null, false);
  }

  /** The first entry row in view and its offset from the top of the viewport. */
  private anchor(): { seq: number; row: number; offset: number } | null {
    const top = Math.floor(this.list.scrollTop / ROW_HEIGHT);
    for (let i = top; i < top + this.list.visibleRows() + 1; i++) {
      const r: TimelineRow | undefined = this.cache.get(i);
      if (r?.kind === "entry") return { seq: r.seq, row: i, offset: this.list.scrollTop - i * ROW_HEIGHT };
    }
    return null;
  }

  private scrolled(): void {
    if (this.list.renderedScrollTop < ROW_HEIGHT / 2 && this.newCount > 0) {
      this.newCount = 0;
      this.showNewPill();
    }
    clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => this.save(), 200);
  }

  private showNewPill(): void {
    this.newPill.hidden = this.newCount === 0;
    const label = `${count(this.newCount)} new ${this.newCount === 1 ? "entry" : "entries"}`;
    this.newPill.lastChild!.textContent = label;
    this.newPill.title = `${label} above — jump to the newest`;
  }

  private showOverlay(text: string): void {
    this.overlay.textContent = text;
    this.overlay.hidden = false;
  }

  private save(): void {
    const a = this.anchor();
    this.bridge.saveState({ folderUri: this.folderUri, options: this.bar.value, selectedSeq: this.selectedSeq, anchorSeq: a?.seq ?? null, anchorOffset: a?.offset ?? 0 });
  }

  /** Tells the host what is on screen (first paint after opening, then after updates). */
  private reportRendered(reason: "open" | "update"): void {
    requestAnimationFrame(() => {
      const shown = [...this.list.el.querySelectorAll<HTMLElement>(".tl-row.entry:not([hidden])")];
      const rows = shown.length;
      if (reason === "open" && rows === 0 && this.page.total > 0) return;
      if (reason === "open" && this.opened) return;
      shown.sort((a, b) => Number(a.dataset.index) - Number(b.dataset.index));
      const firstSeq = shown[0]?.dataset.seq ? Number(shown[0].dataset.seq) : null;
      this.opened = true;
      this.bridge.post({ type: "rendered", reason, rows, total: this.page.total, matched: this.page.matched, firstSeq, ms: performance.now() - this.started });
    });
  }
}

/** The same query, whatever the key order. */
function sameQuery(a: TimelineQuery, b: TimelineQuery): boolean {
  const f = (q: TimelineQuery) => [q.timeZone, q.foldSnapshots, q.filter.ops.join("\u0000"), q.filter.taskId, q.filter.sessionId, q.filter.status, q.filter.text, q.filter.changesOnly].join("\u0001");
  return f(a) === f(b);
}

function safeTimeZone(): string {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC";
  return /^[A-Za-z0-9_+\-/]{1,64}$/.test(tz) ? tz : "UTC";
}
