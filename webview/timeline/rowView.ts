/**
 * One recycled row element of the virtual list: an entry (row id, action icon, task, status
 * change or outcome, title or summary, actor, relative time with the absolute time on hover, and
 * the parts its source's view declares: chain state and short hash, retry and escalation marks, a
 * folded snapshot marker), a group header (day, and the actor when rows are grouped by actor), or
 * a placeholder while its page loads. Icons and words come from the source's words. Every string
 * from the files is set as text (through {@link visibleLine}), never as markup.
 */
import type { TimelineEntryRow, TimelineGroupRow, TimelineRow, TimelineView } from "../../src/protocolTimeline";
import { clear, h, icon, setAttr, setIcon, setText } from "../dom";
import { l10n } from "../l10n";
import {
  absoluteTime,
  actionIcon,
  chainLabel,
  clockTime,
  dayLabel,
  visibleLine,
  relativeTime,
  shortHash,
  statusColor,
  statusIcon,
  statusLabel,
} from "./format";

/** Height of every row in pixels (the virtual list's arithmetic relies on it). */
export const ROW_HEIGHT = 22;

/** What the page tells the list: a row's context but the list's own parts, the view null until the host sent one. */
export type ListContext = Omit<RowContext, "total" | "activeIndex" | "view"> & { readonly view: TimelineView | null };

/** What the list tells a row besides its data. */
export interface RowContext {
  readonly total: number;
  readonly selectedRowId: number | null;
  readonly activeIndex: number;
  readonly travelRowId: number | null;
  readonly now: number;
  /** What the current source's rows are. */
  readonly view: TimelineView;
}

interface EntryParts {
  readonly mark: HTMLElement;
  readonly chain: HTMLElement;
  readonly rowId: HTMLElement;
  readonly opIcon: HTMLElement;
  readonly op: HTMLElement;
  readonly task: HTMLElement;
  readonly fromIcon: HTMLElement;
  readonly from: HTMLElement;
  readonly arrow: HTMLElement;
  readonly toIcon: HTMLElement;
  readonly to: HTMLElement;
  readonly title: HTMLElement;
  readonly session: HTMLElement;
  readonly snap: HTMLElement;
  readonly hash: HTMLElement;
  readonly time: HTMLElement;
}

/** A pooled row element. */
export class RowView {
  readonly el: HTMLDivElement;
  private kind: "entry" | "group" | "placeholder" | null = null;
  private parts: EntryParts | null = null;
  private stamp = "";
  private index = -1;

  constructor() {
    this.el = h("div", { cls: "tl-row" });
  }

  /** Binds the row at `index` (or a placeholder when it is not loaded yet). */
  bind(index: number, row: TimelineRow | undefined, ctx: RowContext, rowId: number): void {
    this.el.hidden = false;
    if (index !== this.index) {
      this.index = index;
      this.el.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
      this.el.dataset.index = String(index);
      setAttr(this.el, "id", `tl-row-${index}`);
    }
    const v = ctx.view;
    const look = `${v.chain !== null}${v.statusChanges}${v.groupByActor}${v.words.labels.actorTitle}`;
    const stamp = `${index}|${rowId}|${ctx.selectedRowId}|${ctx.activeIndex === index}|${ctx.travelRowId}|${ctx.total}|${Math.floor(ctx.now / 30_000)}|${look}`;
    if (stamp === this.stamp && row !== undefined) return;
    this.stamp = row === undefined ? "" : stamp;
    if (row === undefined) this.bindPlaceholder();
    else if (row.kind === "group") this.bindGroup(row, ctx);
    else this.bindEntry(row, index, ctx);
    this.el.classList.toggle("active", ctx.activeIndex === index);
    if (row?.kind !== "entry") delete this.el.dataset.row;
  }

  /** Takes the row out of view: hidden, with no id, seq or role left behind. */
  release(): void {
    if (this.el.hidden) return;
    this.el.hidden = true;
    this.stamp = "";
    this.index = -1;
    this.el.removeAttribute("id");
    this.el.removeAttribute("aria-selected");
    delete this.el.dataset.row;
    delete this.el.dataset.index;
    setAttr(this.el, "role", "presentation");
  }

  private become(kind: "entry" | "group" | "placeholder"): void {
    if (this.kind === kind) return;
    this.kind = kind;
    this.parts = null;
    clear(this.el);
    this.el.className = `tl-row ${kind}`;
  }

  private bindPlaceholder(): void {
    this.become("placeholder");
    if (!this.el.firstChild) this.el.appendChild(h("span", { cls: "tl-loading", text: l10n.t("Loading…") }));
    setAttr(this.el, "role", "presentation");
    this.el.removeAttribute("aria-selected");
  }

  private bindGroup(row: TimelineGroupRow, ctx: RowContext): void {
    this.become("group");
    clear(this.el);
    setAttr(this.el, "role", "presentation");
    this.el.removeAttribute("aria-selected");
    const range = `${clockTime(row.oldest)} – ${clockTime(row.newest)}`;
    this.el.append(icon("calendar", "g-icon"), h("span", { cls: "g-day", text: dayLabel(row.day, ctx.now) }));
    if (ctx.view.groupByActor) {
      this.el.append(
        icon("account", "g-icon"),
        h("span", {
          cls: "g-session",
          text: visibleLine(row.actor),
          title: actorTitle(ctx.view, row.actor),
        }),
      );
    }
    this.el.append(
      h("span", { cls: "g-count", text: row.entries === 1 ? l10n.t("1 entry") : l10n.t("{0} entries", row.entries) }),
      h("span", { cls: "g-range", text: range }),
    );
  }

  private entryParts(): EntryParts {
    if (this.parts) return this.parts;
    const span = (cls: string) => h("span", { cls });
    const p: EntryParts = {
      mark: icon("blank", "c-mark"),
      chain: icon("pass", "c-chain"),
      rowId: span("c-seq"),
      opIcon: icon("question", "c-opicon"),
      op: span("c-op"),
      task: span("c-task"),
      fromIcon: icon("blank"),
      from: span("c-from"),
      arrow: span("c-arrow"),
      toIcon: icon("blank"),
      to: span("c-to"),
      title: span("c-title"),
      session: span("c-session"),
      snap: icon("blank", "c-snap"),
      hash: span("c-hash"),
      time: span("c-time"),
    };
    const change = h("span", { cls: "c-change" }, [p.fromIcon, p.from, p.arrow, p.toIcon, p.to]);
    const opCell = h("span", { cls: "c-opcell" }, [p.opIcon, p.op]);
    const hashCell = h("span", { cls: "c-hashcell" }, [p.chain, p.hash]);
    this.el.append(
      p.mark,
      h("span", { cls: "c-seqcell" }, [p.rowId]),
      opCell,
      p.task,
      change,
      p.title,
      p.session,
      p.snap,
      hashCell,
      p.time,
    );
    this.parts = p;
    return p;
  }

  private bindEntry(row: TimelineEntryRow, index: number, ctx: RowContext): void {
    this.become("entry");
    const p = this.entryParts();
    const v = ctx.view;
    const words = v.words;
    const selected = row.rowId === ctx.selectedRowId;
    const travel = row.rowId === ctx.travelRowId;
    const chain = row.chain;
    setAttr(this.el, "role", "option");
    setAttr(this.el, "aria-selected", String(selected));
    setAttr(this.el, "aria-posinset", String(index + 1));
    setAttr(this.el, "aria-setsize", String(ctx.total));
    this.el.dataset.row = String(row.rowId);
    this.el.classList.toggle("selected", selected);
    this.el.classList.toggle("travel", travel);
    this.el.classList.toggle("quiet", row.change === "snapshot");
    this.el.classList.toggle("broken", chain?.state === "broken");
    this.el.classList.toggle("unverified", chain?.state === "unverified");
    setIcon(p.mark, travel ? "history" : "blank", "c-mark");
    p.mark.title = travel ? (v.travel?.row ?? "") : "";
    const chainText = chain ? chainLabel(chain.state, chain.problem) : "";
    setIcon(
      p.chain,
      !chain ? "blank" : chain.state === "ok" ? "pass" : chain.state === "broken" ? "error" : "warning",
      chain ? `c-chain chain-${chain.state}` : "c-chain",
    );
    p.chain.title = chainText;
    setText(p.rowId, `#${row.rowId}`);
    setIcon(p.opIcon, actionIcon(row.action, words), "c-opicon");
    setText(p.op, visibleLine(row.action));
    setText(p.task, row.taskId === null ? "" : visibleLine(row.taskId));
    p.task.title = row.taskId === null ? "" : l10n.t("task {0}", visibleLine(row.taskId));
    this.bindChange(row, p, v);
    const title = row.summary || row.taskTitle;
    setText(p.title, title ? visibleLine(title) : "");
    p.title.title = title ? visibleLine(title) : "";
    setText(p.session, visibleLine(row.actor));
    p.session.title = actorTitle(v, row.actor);
    setIcon(p.snap, row.snapshot ? "device-camera" : "blank", "c-snap");
    p.snap.title = row.snapshot && v.snapshot ? v.snapshot.mark.replace("{0}", String(row.snapshot.rowId)) : "";
    setText(p.hash, chain ? shortHash(chain.hash) : "");
    p.hash.title =
      chain && v.chain ? l10n.t("{0} {1} — {2}", v.chain.hashName, visibleLine(chain.hash), chainText) : "";
    setText(p.time, relativeTime(row.time, ctx.now));
    p.time.title = absoluteTime(row.time);
    // What a screen reader says: "#12 update_task_status, task 1.2, coded to reviewed, session s1, 5 min ago, chain ok".
    const said = [
      `#${row.rowId} ${visibleLine(row.action)}`,
      row.taskId !== null ? l10n.t("task {0}", visibleLine(row.taskId)) : "",
    ];
    if (row.toStatus !== null && !v.statusChanges) said.push(statusLabel(row.toStatus, words));
    else if (row.toStatus !== null) {
      said.push(
        row.fromStatus !== row.toStatus
          ? l10n.t("{0} to {1}", statusLabel(row.fromStatus, words), statusLabel(row.toStatus, words))
          : l10n.t("still {0}", statusLabel(row.toStatus, words)),
        ...retryMarks(row),
      );
    } else said.push(row.note);
    said.push(
      chain ? "" : visibleLine(row.summary),
      actorTitle(v, row.actor),
      relativeTime(row.time, ctx.now),
      chainText,
      travel ? l10n.t("shown in the Plan view") : "",
    );
    setAttr(this.el, "aria-label", said.filter(Boolean).join(", "));
  }

  /** A status icon coloured as its source's words say. */
  private statusIconOf(el: HTMLElement, status: string | null, view: TimelineView): void {
    setIcon(el, status === null ? "blank" : statusIcon(status, view.words), "c-sicon");
    el.style.color = statusColor(status, view.words);
  }

  /** A log row's status: one word with its icon (no "from → to": a log reports an outcome). */
  private bindOutcome(row: TimelineEntryRow, p: EntryParts, view: TimelineView): void {
    this.statusIconOf(p.fromIcon, null, view);
    setText(p.from, "");
    setText(p.arrow, "");
    this.statusIconOf(p.toIcon, row.toStatus, view);
    setText(p.to, row.toStatus === null ? row.note : statusLabel(row.toStatus, view.words));
    p.to.className = row.toStatus === null ? "c-to c-note" : "c-to";
  }

  private bindChange(row: TimelineEntryRow, p: EntryParts, view: TimelineView): void {
    if (!view.statusChanges) return this.bindOutcome(row, p, view);
    const words = view.words;
    const hasStatus = row.toStatus !== null;
    // A retry or an escalation keeps the status: show what happened, not "coded → coded".
    const moved = hasStatus && row.fromStatus !== row.toStatus;
    this.statusIconOf(p.fromIcon, moved ? row.fromStatus : null, view);
    setText(p.from, moved ? statusLabel(row.fromStatus, words) : "");
    setText(p.arrow, moved ? "→" : "");
    this.statusIconOf(p.toIcon, row.toStatus, view);
    const marks = retryMarks(row);
    const to = hasStatus
      ? [moved || marks.length === 0 ? statusLabel(row.toStatus, words) : "", ...marks].filter(Boolean).join(" · ")
      : row.note;
    setText(p.to, to);
    p.to.className = hasStatus ? "c-to" : "c-to c-note";
  }
}

/** "retry 2", "escalated": the retry part of a row, when its source has one. */
function retryMarks(row: TimelineEntryRow): string[] {
  const r = row.retry;
  if (!r) return [];
  return [r.count !== null ? l10n.t("retry {0}", r.count) : "", r.escalated ? l10n.t("escalated") : ""].filter(Boolean);
}

/** "session s1" or "agent coordinator": who wrote a row, in the source's word. */
function actorTitle(view: TimelineView, actor: string): string {
  return view.words.labels.actorTitle.replace("{0}", visibleLine(actor));
}
