/**
 * A virtualized listbox of fixed-height rows: only the rows in view (plus a
 * small overscan) exist in the DOM, recycled by index, positioned with
 * transforms over a spacer as tall as all rows. Keyboard: Up/Down, Page
 * Up/Down, Home/End move the active row (selection follows it), Enter
 * activates. ARIA: role listbox, rows are options with posinset/setsize.
 */
import type { TimelineEntryRow, TimelineRow } from "../../src/protocolTimeline";
import { h, setAttr } from "../dom";
import { ListContext, ROW_HEIGHT, RowView } from "./rowView";

const OVERSCAN = 12;

/** What the list needs from its owner. */
export interface VirtualListOwner {
  rowAt(index: number): TimelineRow | undefined;
  rowId(row: TimelineRow | undefined): number;
  /** The rows [first, last] are about to be shown: fetch what is missing. */
  need(first: number, last: number): void;
  /** An entry row became the selection. */
  select(index: number, row: TimelineEntryRow): void;
  /** Enter or double-click on an entry row. */
  activate(row: TimelineEntryRow): void;
  /** The list scrolled (after rendering). */
  scrolled(): void;
  context(): ListContext;
}

/** The virtual list. */
export class VirtualList {
  readonly el: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private pool: RowView[] = [];
  private count = 0;
  private active = -1;
  private frame = 0;
  private top = 0;

  constructor(
    private readonly owner: VirtualListOwner,
    label: string,
  ) {
    this.spacer = h("div", { cls: "tl-spacer" });
    this.el = h("div", { cls: "tl-list", attrs: { role: "listbox", tabindex: "0", "aria-label": label } }, [
      this.spacer,
    ]);
    this.el.addEventListener("scroll", () => this.schedule());
    this.el.addEventListener("keydown", (e) => this.onKey(e));
    this.el.addEventListener("click", (e) => this.onPointer(e, false));
    this.el.addEventListener("dblclick", (e) => this.onPointer(e, true));
    new ResizeObserver(() => this.schedule()).observe(this.el);
  }

  /** Number of display rows. */
  get total(): number {
    return this.count;
  }

  /** Index of the active (focused/selected) row, -1 for none. */
  get activeIndex(): number {
    return this.active;
  }

  /** Sets the number of rows (the spacer's height) and re-renders. */
  setTotal(n: number): void {
    this.count = n;
    this.spacer.style.height = `${n * ROW_HEIGHT}px`;
    if (this.active >= n) this.active = n - 1;
    this.schedule();
  }

  /** Sets the active row without selecting (e.g. after a jump). */
  setActive(index: number): void {
    this.active = index;
    this.schedule();
  }

  /** Index of the first row at least half in view. */
  topRow(): number {
    return Math.floor((this.el.scrollTop + ROW_HEIGHT / 2) / ROW_HEIGHT);
  }

  /** Rows that fit in the viewport. */
  visibleRows(): number {
    return Math.max(1, Math.floor(this.el.clientHeight / ROW_HEIGHT));
  }

  /** Scroll offset in pixels (reading it forces a layout; see {@link renderedScrollTop}). */
  get scrollTop(): number {
    return this.el.scrollTop;
  }

  /** The scroll offset the last render used. */
  get renderedScrollTop(): number {
    return this.top;
  }

  set scrollTop(px: number) {
    this.el.scrollTop = px;
    this.schedule();
  }

  /** Scrolls so that row `index` is in view (`center`, at the `top`, or just `nearest`). */
  scrollToRow(index: number, align: "center" | "top" | "nearest"): void {
    const top = index * ROW_HEIGHT;
    const height = this.el.clientHeight;
    if (align === "top") this.el.scrollTop = top;
    else if (align === "center") this.el.scrollTop = Math.max(0, top - height / 2 + ROW_HEIGHT / 2);
    else if (top < this.el.scrollTop) this.el.scrollTop = top;
    else if (top + ROW_HEIGHT > this.el.scrollTop + height) this.el.scrollTop = top + ROW_HEIGHT - height;
    this.schedule();
  }

  /** Renders on the next animation frame (coalesced). */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
      this.owner.scrolled();
    });
  }

  /** Renders now: binds the rows in view, asks for missing pages. */
  render(): void {
    this.top = this.el.scrollTop;
    const first = Math.floor(this.top / ROW_HEIGHT);
    const inView = Math.ceil(this.el.clientHeight / ROW_HEIGHT) + 1;
    const start = Math.max(0, first - OVERSCAN);
    const owned = this.owner.context();
    const view = owned.view;
    // No row is drawn before the host said what rows are (its first `init`).
    const end = view === null ? start : Math.min(this.count, first + inView + OVERSCAN);
    const size = Math.max(0, end - start);
    const poolSize = inView + 2 * OVERSCAN;
    while (this.pool.length < poolSize) {
      const v = new RowView();
      this.pool.push(v);
      this.el.appendChild(v.el);
    }
    const used = new Set<RowView>();
    if (view !== null) {
      const ctx = { ...owned, view, total: this.count, activeIndex: this.active };
      for (let i = start; i < end; i++) {
        const rowView = this.pool[i % this.pool.length];
        const row = this.owner.rowAt(i);
        rowView.bind(i, row, ctx, this.owner.rowId(row));
        used.add(rowView);
      }
    }
    for (const v of this.pool) if (!used.has(v)) v.release();
    this.owner.need(Math.max(0, first - OVERSCAN * 4), Math.min(this.count - 1, first + inView + OVERSCAN * 4));
    const activeId = size > 0 && this.active >= start && this.active < end ? `tl-row-${this.active}` : null;
    if (activeId === null) this.el.removeAttribute("aria-activedescendant");
    else if (this.el.getAttribute("aria-activedescendant") !== activeId) {
      setAttr(this.el, "aria-activedescendant", activeId);
    }
  }

  /** Moves the active row to `index` (skipping group headers in `dir`) and selects it. */
  moveTo(index: number, dir: 1 | -1): void {
    if (this.count === 0) return;
    let i = Math.max(0, Math.min(this.count - 1, index));
    while (i >= 0 && i < this.count && this.owner.rowAt(i)?.kind === "group") i += dir;
    if (i < 0 || i >= this.count) i = Math.max(0, Math.min(this.count - 1, index + (dir === 1 ? -1 : 1)));
    this.active = i;
    this.scrollToRow(i, "nearest");
    const row = this.owner.rowAt(i);
    if (row?.kind === "entry") this.owner.select(i, row);
  }

  private onKey(e: KeyboardEvent): void {
    const page = this.visibleRows() - 1;
    const from = this.active < 0 ? this.topRow() - 1 : this.active;
    const keys: Record<string, () => void> = {
      ArrowDown: () => this.moveTo(from + 1, 1),
      ArrowUp: () => this.moveTo(Math.max(0, from - 1), -1),
      PageDown: () => this.moveTo(from + page, 1),
      PageUp: () => this.moveTo(Math.max(0, from - page), -1),
      Home: () => this.moveTo(0, 1),
      End: () => this.moveTo(this.count - 1, -1),
      Enter: () => {
        const row = this.owner.rowAt(this.active);
        if (row?.kind === "entry") this.owner.activate(row);
      },
    };
    const run = keys[e.key];
    if (!run) return;
    e.preventDefault();
    run();
  }

  private onPointer(e: MouseEvent, activate: boolean): void {
    const target = (e.target as Element | null)?.closest(".tl-row");
    if (!(target instanceof HTMLElement) || target.dataset.index === undefined) return;
    const index = Number(target.dataset.index);
    const row = this.owner.rowAt(index);
    if (row?.kind !== "entry") return;
    this.active = index;
    this.owner.select(index, row);
    if (activate) this.owner.activate(row);
    this.schedule();
  }
}
