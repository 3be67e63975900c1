/**
 * The rows of the timeline page: the virtual list, its row cache, and the
 * page queries behind them (the host filters and pages in the ledger
 * worker). Rows change in three ways: a reload (new folder or filter:
 * totals and facets, then the rows around a seq or a saved anchor), the
 * first paint (a page the host computed while the webview loaded), and a
 * live update — rows inserted above shift the scroll offset by as much, so
 * the rows in view stay put, and an "N new" button counts what arrived.
 */
import type {
  TimelineEntryRow,
  TimelinePage,
  TimelineQuery,
  TimelineRow,
  WebviewMessageOf,
} from "../../src/protocolTimeline";
import { button } from "../dom";
import { count } from "./format";
import { l10n } from "../l10n";
import { PAGE_SIZE, RowCache } from "./rowCache";
import { ListContext, ROW_HEIGHT } from "./rowView";
import { VirtualList } from "./virtualList";

/** Totals of the last page. */
export type PageTotals = Pick<TimelinePage, "generation" | "entries" | "matched" | "total" | "brokenRowId">;

const NO_TOTALS: PageTotals = { generation: 0, entries: 0, matched: 0, total: 0, brokenRowId: null };

/** A row in view to keep in place: its seq, display row and pixel offset from the viewport's top. */
export interface Anchor {
  readonly rowId: number;
  readonly row: number;
  readonly offset: number;
}

/** What the pager needs from the page. */
export interface PagerHost {
  sourceKey(): string | null;
  query(): TimelineQuery;
  requestId(): number;
  post(m: WebviewMessageOf<"query">): void;
  /** A page with totals (and maybe facets) arrived. */
  accepted(p: TimelinePage): void;
  /** Rows were painted after opening or an update. */
  painted(reason: "open" | "update"): void;
  /** A jump or a located reload landed on display row `index` (for entry `seq`). */
  located(index: number, rowId: number | null): void;
  select(row: TimelineEntryRow): void;
  activate(row: TimelineEntryRow): void;
  scrolled(): void;
  context(): ListContext;
}

type Control = (page: TimelinePage) => void;

/** The list, its rows and their paging. */
export class TimelinePager {
  readonly list: VirtualList;
  readonly newPill = button("arrow-up", "", { cls: "tl-newpill" });
  private readonly cache = new RowCache((offset, limit) => this.send(offset, limit, null, null, false));
  /** Requests whose answer goes to a callback, with the source each asked (an answer for another is dropped). */
  private readonly controls = new Map<number, { control: Control; sourceKey: string }>();
  private last: PageTotals = NO_TOTALS;
  private newCount = 0;
  /** The request of the reload or live update in flight (its answer replaces the totals), if any. */
  private reloadId: number | null = null;
  private updateId: number | null = null;
  private updateAgain = false;

  constructor(private readonly host: PagerHost) {
    this.list = new VirtualList(
      {
        rowAt: (i) => this.cache.get(i),
        rowId: (r) => this.cache.idOf(r),
        need: (first, last) => this.cache.ensure(first, last, this.last.total),
        select: (_i, row) => host.select(row),
        activate: (row) => host.activate(row),
        scrolled: () => this.scrolled(),
        context: () => host.context(),
      },
      l10n.t("Timeline rows, newest first"),
    );
    this.newPill.hidden = true;
    this.newPill.addEventListener("click", () => this.list.moveTo(0, 1));
  }

  /** Totals of the last page. */
  get totals(): PageTotals {
    return this.last;
  }

  /** The row at a display index, if loaded. */
  rowAt(index: number): TimelineRow | undefined {
    return this.cache.get(index);
  }

  /** Sends a page query; a `control` callback receives the answer instead of the cache. */
  send(
    offset: number,
    limit: number,
    anchorRowId: number | null,
    locateRowId: number | null,
    facets: boolean,
    control?: Control,
  ): number {
    const requestId = this.host.requestId();
    const sourceKey = this.host.sourceKey();
    if (sourceKey === null) return requestId;
    if (control) this.controls.set(requestId, { control, sourceKey });
    this.host.post({
      type: "query",
      requestId,
      sourceKey,
      query: this.host.query(),
      offset,
      limit,
      anchorRowId,
      locateRowId,
      facets,
    });
    return requestId;
  }

  /** Routes a page from the host; returns false when it answered nothing current. */
  onPage(requestId: number, page: TimelinePage): boolean {
    const asked = this.controls.get(requestId);
    if (asked) {
      // Asked while another source was shown (the page switched before the answer came): its rows
      // are not this source's, so they never paint under its name.
      if (asked.sourceKey !== this.host.sourceKey()) {
        this.fail(requestId);
        return false;
      }
      this.controls.delete(requestId);
      asked.control(page);
      return true;
    }
    if (!this.cache.accept(requestId, page)) return false;
    if (page.generation !== this.last.generation || page.total !== this.last.total) this.liveUpdate();
    else this.list.render();
    return true;
  }

  /** Forgets a failed request (a failed reload or update no longer holds live updates back). */
  fail(requestId: number): void {
    this.cache.fail(requestId);
    this.controls.delete(requestId);
    if (requestId === this.reloadId) this.reloadId = null;
    if (requestId === this.updateId) this.updateId = null;
  }

  /**
   * Forgets every row and the totals at once (another source was chosen): until its first page
   * arrives the list is empty, never the previous source's rows under the new source's name.
   */
  clear(): void {
    this.forgetRequests();
    this.last = NO_TOTALS;
    this.setNew(0);
    this.list.setTotal(0);
    this.list.render();
  }

  /** Starts over (new folder or filter): totals, facets, then the rows around `locateSeq` (selected when `selectIt`) or `anchor`. */
  reload(locateRowId: number | null, anchor: { rowId: number; offset: number } | null = null, selectIt = false): void {
    this.forgetRequests();
    this.setNew(0);
    this.reloadId = this.send(0, PAGE_SIZE, anchor?.rowId ?? null, locateRowId, true, (p) => {
      this.reloadId = null;
      this.accept(p);
      this.list.setTotal(p.total);
      if (p.located !== null) {
        this.list.scrollToRow(p.located, "center");
        this.list.setActive(p.located);
        if (selectIt) this.host.located(p.located, locateRowId);
      } else if (anchor && p.anchorRow !== null) this.list.scrollTop = p.anchorRow * ROW_HEIGHT + anchor.offset;
      else this.list.scrollTop = 0;
      this.list.render();
      this.host.painted("update");
      this.updateLater();
    });
  }

  /** Forgets every request in flight and the pages they would fill (their answers are then dropped). */
  private forgetRequests(): void {
    this.cache.reset(false);
    this.controls.clear();
    this.reloadId = this.updateId = null;
    this.updateAgain = false;
  }

  /** Shows a page the host computed while the webview loaded (no round trip). */
  firstPaint(p: TimelinePage): void {
    // What was asked before the host's first page (e.g. another source's reload) is answered by it.
    this.forgetRequests();
    this.accept(p);
    this.list.setTotal(p.total);
    this.list.scrollTop = 0;
    this.list.render();
    this.host.painted("open");
  }

  /**
   * New entries (or a re-read ledger): keep the rows in view where they are, count what is new.
   * While a reload or another update is in flight this waits for it (it counts against the totals
   * that answer brings, not against the ones it replaces, e.g. another source's).
   */
  liveUpdate(): void {
    if (this.reloadId !== null || this.updateId !== null) {
      this.updateAgain = true;
      return;
    }
    const atTop = this.list.scrollTop < ROW_HEIGHT / 2;
    const anchor = this.anchor();
    const before = this.last;
    this.updateId = this.send(0, atTop ? PAGE_SIZE : 0, anchor?.rowId ?? null, null, true, (p) => {
      this.updateId = null;
      if (p.generation !== before.generation) return this.reload(null, anchor);
      const delta = anchor && p.anchorRow !== null ? p.anchorRow - anchor.row : p.total - before.total;
      this.cache.shift(delta);
      this.cache.reset(true);
      this.accept(p);
      this.list.setTotal(p.total);
      if (this.list.activeIndex >= 0) this.list.setActive(this.list.activeIndex + delta);
      if (!atTop && delta !== 0) {
        this.list.scrollTop = this.list.scrollTop + delta * ROW_HEIGHT;
        this.setNew(this.newCount + Math.max(0, p.matched - before.matched));
      }
      this.list.render();
      this.host.painted("update");
      this.updateLater();
    });
  }

  /** Runs the live update that waited for the request that just answered. */
  private updateLater(): void {
    if (!this.updateAgain) return;
    this.updateAgain = false;
    this.liveUpdate();
  }

  /** Finds entry `seq` under the current filter: `found(index)` or `missing()`. */
  locate(rowId: number, found: (index: number) => void, missing: () => void): void {
    this.send(0, 0, null, rowId, false, (p) => (p.located !== null ? found(p.located) : missing()));
  }

  /** The first entry row in view and its offset from the top of the viewport. */
  anchor(): Anchor | null {
    const scrollTop = this.list.scrollTop;
    const top = Math.floor(scrollTop / ROW_HEIGHT);
    for (let i = top; i < top + this.list.visibleRows() + 1; i++) {
      const r = this.cache.get(i);
      if (r?.kind === "entry") return { rowId: r.rowId, row: i, offset: scrollTop - i * ROW_HEIGHT };
    }
    return null;
  }

  private accept(p: TimelinePage): void {
    this.last = {
      generation: p.generation,
      entries: p.entries,
      matched: p.matched,
      total: p.total,
      brokenRowId: p.brokenRowId,
    };
    if (p.rows.length > 0) this.cache.store(p);
    this.host.accepted(p);
  }

  private scrolled(): void {
    if (this.list.renderedScrollTop < ROW_HEIGHT / 2 && this.newCount > 0) this.setNew(0);
    this.host.scrolled();
  }

  private setNew(n: number): void {
    this.newCount = n;
    this.newPill.hidden = n === 0;
    const label = n === 1 ? l10n.t("1 new entry") : l10n.t("{0} new entries", count(n));
    this.newPill.lastChild!.textContent = label;
    this.newPill.title = l10n.t("{0} above — jump to the newest", label);
  }
}
