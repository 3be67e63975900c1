/**
 * The webview's window onto the timeline: display rows by index, fetched
 * from the host in pages as the list scrolls, at most a few thousand kept
 * (the farthest from the viewport are dropped). A new epoch (filter or
 * folder change, live update) makes every page stale: stale rows keep
 * showing — shifted when rows were inserted above — until fresh ones arrive,
 * so a live update never flickers.
 */
import type { TimelinePage, TimelineRow } from "../../src/protocolTimeline";

/** Rows per page request. */
export const PAGE_SIZE = 200;
/** Rows kept in memory at most. */
const MAX_ROWS = 6000;
/** Page requests in flight at most. */
const MAX_PENDING = 4;

/** Asks the host for rows [offset, offset + limit); returns the request id. */
export type PageFetcher = (offset: number, limit: number) => number;

/** Cached rows and pending page requests. */
export class RowCache {
  private rows = new Map<number, TimelineRow>();
  private readonly ids = new WeakMap<TimelineRow, number>();
  private nextId = 1;
  private fresh = new Set<number>();
  private pending = new Map<number, number>();
  private wanted: [number, number] = [0, 0];

  constructor(private readonly fetch: PageFetcher) {}

  /** The row at `index`, possibly stale, or undefined while unknown. */
  get(index: number): TimelineRow | undefined {
    return this.rows.get(index);
  }

  /** A number that changes whenever the row object at an index is replaced. */
  idOf(row: TimelineRow | undefined): number {
    if (!row) return 0;
    let id = this.ids.get(row);
    if (id === undefined) this.ids.set(row, (id = this.nextId++));
    return id;
  }

  /** Makes every page stale; `keepRows` keeps showing the old rows until new ones arrive. */
  reset(keepRows: boolean): void {
    this.fresh.clear();
    this.pending.clear();
    if (!keepRows) this.rows.clear();
  }

  /** Moves every cached row by `delta` indexes (rows were inserted above them). */
  shift(delta: number): void {
    if (delta === 0) return;
    const moved = new Map<number, TimelineRow>();
    for (const [i, r] of this.rows) if (i + delta >= 0) moved.set(i + delta, r);
    this.rows = moved;
  }

  /** Requests the pages that cover rows [first, last] and are not fresh. */
  ensure(first: number, last: number, total: number): void {
    this.wanted = [first, last];
    if (total <= 0 || last < first) return;
    const from = Math.floor(Math.max(0, first) / PAGE_SIZE);
    const to = Math.floor(Math.min(total - 1, last) / PAGE_SIZE);
    for (let p = from; p <= to && this.pending.size < MAX_PENDING; p++) {
      if (this.fresh.has(p) || this.pending.has(p)) continue;
      this.pending.set(p, this.fetch(p * PAGE_SIZE, PAGE_SIZE));
    }
  }

  /** True while any page request is outstanding. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /** Stores a page when it answers a request of the current epoch; returns false for a stale answer. */
  accept(requestId: number, page: TimelinePage): boolean {
    let pageIndex = -1;
    for (const [p, id] of this.pending) if (id === requestId) pageIndex = p;
    if (pageIndex < 0) return false;
    this.pending.delete(pageIndex);
    this.store(page);
    this.fresh.add(pageIndex);
    return true;
  }

  /** Stores the rows of a page that was requested outside the paging (e.g. an anchored query). */
  store(page: TimelinePage): void {
    for (let k = 0; k < page.rows.length; k++) this.rows.set(page.offset + k, page.rows[k]);
    for (const i of [...this.rows.keys()]) if (i >= page.total) this.rows.delete(i);
    if (
      page.offset % PAGE_SIZE === 0 &&
      (page.rows.length === PAGE_SIZE || page.offset + page.rows.length >= page.total)
    ) {
      this.fresh.add(page.offset / PAGE_SIZE);
    }
    this.prune();
  }

  /** Forgets a failed request so the page is asked for again later. */
  fail(requestId: number): void {
    for (const [p, id] of this.pending) if (id === requestId) this.pending.delete(p);
  }

  private prune(): void {
    if (this.rows.size <= MAX_ROWS) return;
    const [first, last] = this.wanted;
    const mid = (first + last) / 2;
    const keys = [...this.rows.keys()].sort((a, b) => Math.abs(b - mid) - Math.abs(a - mid));
    for (const k of keys.slice(0, this.rows.size - MAX_ROWS)) {
      this.rows.delete(k);
      this.fresh.delete(Math.floor(k / PAGE_SIZE));
    }
  }

  /** Rows held (for the memory report). */
  get size(): number {
    return this.rows.size;
  }
}
