/**
 * One recycled row element of the virtual list: an entry (chain state, row id, op icon, task,
 * status change, title, session, folded snapshot marker, short hash, relative time with the
 * absolute time on hover — what the source's view says its rows have: a log that is no hash chain
 * shows its action, task, status word, summary and agent instead), a group header (day, and the
 * session when rows are grouped by actor), or a placeholder while its page loads. Every string
 * from the files is set as text (through {@link oneLine}), never as markup.
 */
import type { TimelineEntryRow, TimelineGroupRow, TimelineRow, TimelineView } from "../src/protocolTimeline";
import { clear, h, icon, setAttr, setIcon, setText } from "./dom";
import { l10n } from "./l10n";
import {
  absoluteTime,
  chainLabel,
  clockTime,
  dayLabel,
  oneLine,
  opIcon,
  relativeTime,
  shortHash,
  statusClass,
  statusIcon,
  statusLabel,
} from "./format";

/** Height of every row in pixels (the virtual list's arithmetic relies on it). */
export const ROW_HEIGHT = 22;

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
    const look = `${v.chain}${v.statusChanges}${v.groupByActor}${v.actor}`;
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
          text: oneLine(row.sessionId),
          title: actorTitle(ctx.view, row.sessionId),
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
    const selected = row.rowId === ctx.selectedRowId;
    const travel = row.rowId === ctx.travelRowId;
    setAttr(this.el, "role", "option");
    setAttr(this.el, "aria-selected", String(selected));
    setAttr(this.el, "aria-posinset", String(index + 1));
    setAttr(this.el, "aria-setsize", String(ctx.total));
    this.el.dataset.row = String(row.rowId);
    this.el.classList.toggle("selected", selected);
    this.el.classList.toggle("travel", travel);
    this.el.classList.toggle("quiet", row.op === "snapshot");
    this.el.classList.toggle("broken", row.chain === "broken");
    this.el.classList.toggle("unverified", row.chain === "unverified");
    setIcon(p.mark, travel ? "history" : "blank", "c-mark");
    p.mark.title = travel ? l10n.t("The Plan view shows the plan as of this entry") : "";
    setIcon(
      p.chain,
      row.chain === "ok" ? "pass" : row.chain === "broken" ? "error" : "warning",
      `c-chain chain-${row.chain}`,
    );
    p.chain.title = chainLabel(row.chain, row.chainKind);
    setText(p.rowId, `#${row.rowId}`);
    setIcon(p.opIcon, opIcon(row.op, ctx.view.chain), "c-opicon");
    setText(p.op, oneLine(row.op));
    setText(p.task, row.taskId === null ? "" : oneLine(row.taskId));
    p.task.title = row.taskId === null ? "" : l10n.t("task {0}", oneLine(row.taskId));
    this.bindChange(row, p, ctx.view);
    const title = row.summary || row.taskTitle;
    setText(p.title, title ? oneLine(title) : "");
    p.title.title = title ? oneLine(title) : "";
    setText(p.session, oneLine(row.sessionId));
    p.session.title = actorTitle(ctx.view, row.sessionId);
    setIcon(p.snap, row.snapshot ? "device-camera" : "blank", "c-snap");
    p.snap.title = row.snapshot ? l10n.t("snapshot #{0} written right after this entry", row.snapshot.rowId) : "";
    setText(p.hash, shortHash(row.selfHash));
    p.hash.title = l10n.t("self_hash {0} — {1}", oneLine(row.selfHash), chainLabel(row.chain, row.chainKind));
    setText(p.time, relativeTime(row.timestamp, ctx.now));
    p.time.title = absoluteTime(row.timestamp);
    // What a screen reader says: "#12 update_task_status, task 1.2, coded to reviewed, session s1, 5 min ago, chain ok".
    const said = [
      `#${row.rowId} ${oneLine(row.op)}`,
      row.taskId !== null ? l10n.t("task {0}", oneLine(row.taskId)) : "",
    ];
    if (row.toStatus !== null && !ctx.view.statusChanges) said.push(statusLabel(row.toStatus));
    else if (row.toStatus !== null) {
      said.push(
        row.fromStatus !== row.toStatus
          ? l10n.t("{0} to {1}", statusLabel(row.fromStatus), statusLabel(row.toStatus))
          : l10n.t("still {0}", statusLabel(row.toStatus)),
      );
      said.push(
        row.retryCount !== null ? l10n.t("retry {0}", row.retryCount) : "",
        row.escalated ? l10n.t("escalated") : "",
      );
    }
    said.push(
      ctx.view.chain ? "" : oneLine(row.summary ?? ""),
      actorTitle(ctx.view, row.sessionId),
      relativeTime(row.timestamp, ctx.now),
      ctx.view.chain ? chainLabel(row.chain, row.chainKind) : "",
      travel ? l10n.t("shown in the Plan view") : "",
    );
    setAttr(this.el, "aria-label", said.filter(Boolean).join(", "));
  }

  /** A log row's status: one word with its icon (no "from → to": a log reports an outcome). */
  private bindOutcome(row: TimelineEntryRow, p: EntryParts): void {
    setIcon(p.fromIcon, "blank", "c-sicon");
    setText(p.from, "");
    setText(p.arrow, "");
    setIcon(p.toIcon, statusIcon(row.toStatus, false), `c-sicon ${statusClass(row.toStatus)}`);
    setText(p.to, row.toStatus === null ? "" : statusLabel(row.toStatus));
    p.to.className = `c-to ${statusClass(row.toStatus)}`;
    p.from.className = "c-from";
  }

  private bindChange(row: TimelineEntryRow, p: EntryParts, view: TimelineView): void {
    if (!view.statusChanges) return this.bindOutcome(row, p);
    const hasStatus = row.toStatus !== null;
    // A retry or an escalation keeps the status: show what happened, not "coded → coded".
    const moved = hasStatus && row.fromStatus !== row.toStatus;
    setIcon(
      p.fromIcon,
      moved && row.fromStatus !== null ? statusIcon(row.fromStatus) : "blank",
      `c-sicon ${statusClass(row.fromStatus)}`,
    );
    setText(p.from, moved ? statusLabel(row.fromStatus) : "");
    setText(p.arrow, moved ? "→" : "");
    setIcon(p.toIcon, hasStatus ? statusIcon(row.toStatus) : "blank", `c-sicon ${statusClass(row.toStatus)}`);
    const marks = [
      row.retryCount !== null ? l10n.t("retry {0}", row.retryCount) : "",
      row.escalated ? l10n.t("escalated") : "",
    ].filter(Boolean);
    let to = hasStatus
      ? [moved || marks.length === 0 ? statusLabel(row.toStatus) : "", ...marks].filter(Boolean).join(" · ")
      : "";
    if (!hasStatus) to = changeNote(row);
    setText(p.to, to);
    p.to.className = `c-to ${hasStatus ? statusClass(row.toStatus) : "c-note"}`;
    p.from.className = `c-from ${statusClass(row.fromStatus)}`;
  }
}

/** "session s1" or "agent coordinator": who wrote a row, in the source's word. */
function actorTitle(view: TimelineView, actor: string): string {
  return view.actor === "agent" ? l10n.t("agent {0}", oneLine(actor)) : l10n.t("session {0}", oneLine(actor));
}

/** What an entry without a status change did: "plan created", "snapshot", "evidence recorded"… ("" for nothing). */
function changeNote(row: TimelineEntryRow): string {
  if (row.change === "plan") return row.op === "init_plan" ? l10n.t("plan created") : l10n.t("plan replaced");
  if (row.change === "snapshot") return l10n.t("snapshot");
  if (row.change === "evidence") return l10n.t("evidence recorded");
  return row.change === "audit" ? l10n.t("tournament result") : "";
}
