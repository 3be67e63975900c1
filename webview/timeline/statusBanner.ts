/**
 * The strip above the list: which plan the Plan view shows (time travel,
 * with a one-click way back to live), whether the ledger's chain is broken
 * (with a jump to the break), and short notices (copied, not found…).
 */
import type { IntegritySummary, TimelineChainFeature, TimelineTravelWords } from "../../src/protocolTimeline";
import { button, clear, h, icon, setText } from "../dom";
import { visibleLine } from "./format";
import { l10n } from "../l10n";

/** What the banner's buttons ask for. */
export interface BannerActions {
  backToLive(): void;
  jumpTo(rowId: number): void;
}

/** Time travel, integrity and notices. */
export class StatusBanner {
  readonly el: HTMLElement;
  readonly live: HTMLElement;
  private readonly travel = h("div", { cls: "tl-banner travel" });
  private readonly broken = h("div", { cls: "tl-banner broken" });
  private noticeTimer = 0;

  constructor(private readonly actions: BannerActions) {
    this.live = h("div", { cls: "tl-notice", attrs: { role: "status", "aria-live": "polite" } });
    this.el = h("div", { cls: "tl-banners" }, [this.travel, this.broken, this.live]);
    this.travel.hidden = true;
    this.broken.hidden = true;
    this.live.hidden = true;
  }

  /** Shows or hides the time-travel strip, in the source's words (hidden when it has none). */
  setTravel(rowId: number | null, words: TimelineTravelWords | null): void {
    clear(this.travel);
    this.travel.hidden = rowId === null || words === null;
    if (rowId === null || words === null) return;
    const back = button("debug-continue", l10n.t("Back to live"));
    back.addEventListener("click", () => this.actions.backToLive());
    const go = button("target", l10n.t("Go to #{0}", rowId));
    go.addEventListener("click", () => this.actions.jumpTo(rowId));
    this.travel.append(
      icon("history"),
      h("span", { cls: "grow", text: words.shown.replace("{0}", String(rowId)) }),
      go,
      back,
    );
  }

  /** Shows or hides the broken-chain strip, in the words of the source's chain (hidden when its rows are not chained). */
  setIntegrity(
    integrity: IntegritySummary | null,
    brokenRowId: number | null,
    chain: TimelineChainFeature | null,
  ): void {
    clear(this.broken);
    const bad = integrity !== null && !integrity.ok && chain !== null;
    this.broken.hidden = !bad;
    if (!bad || chain === null) return;
    // The finding comes from src/core (English, as the CLI prints it).
    const why = visibleLine(integrity.message ?? l10n.t("integrity check failed"));
    const text =
      integrity.brokenLine !== null
        ? chain.brokenAt.replace("{0}", String(integrity.brokenLine)).replace("{1}", () => why)
        : chain.broken.replace("{0}", () => why);
    this.broken.append(
      icon("error"),
      h("span", { cls: "grow", text: text.length > 400 ? `${text.slice(0, 400)}…` : text }),
    );
    if (brokenRowId !== null) {
      const go = button("target", l10n.t("Go to #{0}", brokenRowId));
      go.addEventListener("click", () => this.actions.jumpTo(brokenRowId));
      this.broken.appendChild(go);
    }
  }

  /** A short message that disappears after a few seconds. */
  notice(message: string): void {
    setText(this.live, visibleLine(message));
    this.live.hidden = false;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = window.setTimeout(() => {
      this.live.hidden = true;
      setText(this.live, "");
    }, 4000);
  }
}
