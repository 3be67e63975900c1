/**
 * The list beside the details pane (issue 22 item 3). The pane shows only while a row is selected
 * (the list takes the whole width otherwise), has a close button (Escape too), and is as wide as
 * the user drags its splitter (or moves it with the arrow keys; a double-click restores the
 * default); the width survives hide/show. In a narrow view (the sidebar) the pane sits below the
 * list instead and the splitter is not shown (media/timeline.css).
 */
import { button, h, setAttr } from "../dom";
import { l10n } from "../l10n";

/** Narrowest the pane or the list can be dragged to. */
const MIN_WIDTH = 240;
/** Pixels an arrow key moves the splitter. */
const KEY_STEP = 24;

/** What the split tells its owner. */
export interface DetailsSplitEvents {
  /** The user dragged the splitter (the pane's width in pixels, null for the default). */
  resized(width: number | null): void;
  /** The user closed the pane. */
  closed(): void;
}

/** The list, the splitter and the details pane. */
export class DetailsSplit {
  readonly el: HTMLElement;
  private readonly splitter: HTMLElement;
  private readonly pane: HTMLElement;
  private width: number | null = null;

  constructor(
    list: HTMLElement,
    details: HTMLElement,
    width: number | null,
    private readonly events: DetailsSplitEvents,
  ) {
    const close = button("close", l10n.t("Close the details"), { iconOnly: true, cls: "tl-details-close" });
    close.addEventListener("click", () => this.close());
    this.pane = h("div", { cls: "tl-detailswrap" }, [close, details]);
    this.pane.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.close();
    });
    this.splitter = h("div", {
      cls: "tl-splitter",
      attrs: {
        role: "separator",
        tabindex: "0",
        "aria-orientation": "vertical",
        "aria-label": l10n.t("Resize the details"),
        "aria-valuemin": String(MIN_WIDTH),
      },
    });
    this.el = h("div", { cls: "tl-main" }, [list, this.splitter, this.pane]);
    this.setWidth(width);
    this.hide();
    this.splitter.addEventListener("pointerdown", (e) => this.drag(e));
    this.splitter.addEventListener("dblclick", () => this.resize(null));
    this.splitter.addEventListener("keydown", (e) => {
      const step = e.key === "ArrowLeft" ? KEY_STEP : e.key === "ArrowRight" ? -KEY_STEP : 0;
      if (step === 0) return;
      e.preventDefault();
      this.resize((this.width ?? this.pane.getBoundingClientRect().width) + step);
    });
  }

  /** The width the user dragged the pane to (null: the default). */
  get paneWidth(): number | null {
    return this.width;
  }

  /** True while the pane shows. */
  get shown(): boolean {
    return !this.el.classList.contains("no-details");
  }

  /** Shows the pane (a row was selected). */
  show(): void {
    this.el.classList.remove("no-details");
    this.pane.hidden = this.splitter.hidden = false;
  }

  /** Hides the pane: the list takes the whole width. */
  hide(): void {
    this.el.classList.add("no-details");
    this.pane.hidden = this.splitter.hidden = true;
  }

  private close(): void {
    this.hide();
    this.events.closed();
  }

  private drag(start: PointerEvent): void {
    if (start.button !== 0) return;
    start.preventDefault();
    this.splitter.setPointerCapture(start.pointerId);
    this.splitter.classList.add("dragging");
    const from = this.pane.getBoundingClientRect().width;
    const move = (e: PointerEvent) => this.resize(from + start.clientX - e.clientX, false);
    const end = () => {
      this.splitter.removeEventListener("pointermove", move);
      this.splitter.classList.remove("dragging");
      this.events.resized(this.width);
    };
    this.splitter.addEventListener("pointermove", move);
    this.splitter.addEventListener("pointerup", end, { once: true });
    this.splitter.addEventListener("pointercancel", end, { once: true });
  }

  /** Sets the pane's width, kept between MIN_WIDTH and what leaves the list MIN_WIDTH. */
  private resize(width: number | null, report = true): void {
    const max = Math.max(MIN_WIDTH, this.el.getBoundingClientRect().width - MIN_WIDTH);
    this.setWidth(width === null ? null : Math.round(Math.min(max, Math.max(MIN_WIDTH, width))));
    setAttr(this.splitter, "aria-valuemax", String(Math.round(max)));
    if (report) this.events.resized(this.width);
  }

  private setWidth(width: number | null): void {
    this.width = width;
    this.el.classList.toggle("sized", width !== null);
    if (width === null) this.el.style.removeProperty("--tl-details-width");
    else this.el.style.setProperty("--tl-details-width", `${width}px`);
    if (width === null) this.splitter.removeAttribute("aria-valuenow");
    else setAttr(this.splitter, "aria-valuenow", String(width));
  }
}
