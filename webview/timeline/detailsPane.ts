/**
 * The details of the selected row, in its source's terms: the fields its source names (agloop:
 * time, agent, action, phase, task, status, input, output, metadata), or when it names none the
 * row's own (time, actor, task, status change, line), each labelled in its source's words; then
 * only the parts the row's details carry — hashes with copy buttons and the folded snapshot (a
 * hash chain), integrity findings, what the row changed in the plan, the row's record under the
 * source's word for it. Buttons only where they apply: open the line in the row's file, show the
 * state as of the row in the tree, reveal the task there. Everything from the files is set as text.
 */
import type {
  TimelineDetailRecord,
  TimelineEntryDetail,
  TimelineEntryRow,
  TimelineField,
  TimelinePlanChange,
  TimelineView,
} from "../../src/protocolTimeline";
import { button, clear, h, icon } from "../dom";
import { l10n } from "../l10n";
import { absoluteTime, actionIcon, chainLabel, count, visibleLine, relativeTime, statusLabel, visible } from "./format";
import { renderDiff } from "./planDiffView";

/** What the buttons of the pane ask for. */
export interface DetailsActions {
  travel(rowId: number): void;
  openLine(rowId: number): void;
  revealTask(taskId: string): void;
  /** Copy a value of a row by its source's name for it (a hash). */
  copy(rowId: number, value: string): void;
}

/** The label of a field by name, in its source's words (a name the source has no label for, as it is). */
function fieldLabel(view: TimelineView | null, name: string): string {
  const fields = view?.words.labels.fields;
  return fields && Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : visibleLine(name);
}

/** The details pane. */
export class DetailsPane {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;
  private view: TimelineView | null = null;

  constructor(private readonly actions: DetailsActions) {
    this.body = h("div", { cls: "tl-details-body" });
    this.el = h("section", { cls: "tl-details", attrs: { "aria-label": l10n.t("Entry details"), tabindex: "-1" } }, [
      this.body,
    ]);
    this.empty(this.noSelection());
  }

  /** Takes the current source's view (which fields and buttons apply). */
  setView(view: TimelineView): void {
    this.view = view;
  }

  /** What the pane says while no row is selected. */
  noSelection(): string {
    return this.view?.words.labels.selectHint ?? "";
  }

  /** A message instead of details. */
  empty(message: string): void {
    clear(this.body);
    this.body.appendChild(h("p", { cls: "tl-hint", text: message }));
  }

  /** Loading state for a row. */
  loading(rowId: number): void {
    clear(this.body);
    this.body.appendChild(h("p", { cls: "tl-hint", text: l10n.t("Loading #{0}…", rowId) }));
  }

  /** Renders one row's details. */
  show(d: TimelineEntryDetail, now: number, taskNote: string | null = null): void {
    const r = d.row;
    const view = this.view;
    clear(this.body);
    const title = h("h2", { cls: "tl-details-title" }, [
      icon(view ? actionIcon(r.action, view.words) : "symbol-event"),
      h("span", { text: `#${r.rowId} ${visibleLine(r.action)}` }),
    ]);
    const head = h("div", { cls: "tl-details-head" }, [title]);
    if (r.chain) {
      head.appendChild(
        h("span", { cls: `tl-badge chain-${r.chain.state}`, text: chainLabel(r.chain.state, r.chain.problem) }),
      );
    }
    this.body.append(head, this.buttons(d));
    const rows = [
      ...(d.fields.length > 0 ? this.sourceFields(d.fields, now) : this.rowFields(d, now)),
      ...this.chainFields(d),
    ];
    // The editor's word on the row's task (the source's note, e.g. reviewed marks).
    if (taskNote) {
      const after = rows.findIndex(([k]) => k === fieldLabel(view, "task"));
      const row: [string, Node] = [l10n.t("Review"), h("span", { cls: "tl-task-note", text: visibleLine(taskNote) })];
      rows.splice(after < 0 ? rows.length : after + 1, 0, row);
    }
    const dl = h("dl", { cls: "tl-fields" });
    for (const [k, v] of rows) dl.append(h("dt", { text: k }), h("dd", {}, [v]));
    this.body.appendChild(dl);
    if (d.problems.length > 0) {
      const list = h("ul", { cls: "tl-problems" });
      for (const p of d.problems) list.appendChild(h("li", {}, [icon("error"), h("span", { text: visibleLine(p) })]));
      this.body.append(h("h3", { text: l10n.t("Integrity") }), list);
    }
    if (d.planChange) {
      this.body.append(h("h3", { text: l10n.t("What changed") }), this.diff(d.planChange));
    }
    if (d.record) this.record(d.record);
  }

  /** Open the line; show the state as of the row and reveal its task where the source can. */
  private buttons(d: TimelineEntryDetail): HTMLElement {
    const r = d.row;
    const actions = h("div", { cls: "tl-actions" });
    const travel = this.view?.timeTravel ? this.view.travel : null;
    if (travel) {
      const asOf = button("history", travel.asOf.replace("{0}", String(r.rowId)), { cls: "primary" });
      asOf.addEventListener("click", () => this.actions.travel(r.rowId));
      actions.appendChild(asOf);
    }
    const open = button("go-to-file", l10n.t("Open line {0} in {1}", r.line, visibleLine(d.file)));
    open.addEventListener("click", () => this.actions.openLine(r.rowId));
    actions.appendChild(open);
    if (this.view?.revealTask && r.taskId !== null) {
      const taskId = r.taskId;
      const reveal = button("list-tree", l10n.t("Reveal task {0} in Plan", visibleLine(taskId)));
      reveal.addEventListener("click", () => this.actions.revealTask(taskId));
      actions.appendChild(reveal);
    }
    return actions;
  }

  /** The fields a source names, in its order. */
  private sourceFields(fields: readonly TimelineField[], now: number): [string, Node][] {
    return fields.map((f): [string, Node] => {
      const label = fieldLabel(this.view, f.name);
      if (f.name === "time") {
        return [label, h("span", { text: `${relativeTime(f.value, now)} · ${absoluteTime(f.value)}` })];
      }
      if (f.name === "status") return [label, this.status(f.value)];
      if (f.name === "metadata" || f.value.includes("\n")) {
        return [label, h("pre", { cls: "tl-payload tl-field-block", text: visible(f.value) })];
      }
      return [label, h("span", { cls: "tl-field-text", text: visibleLine(f.value) })];
    });
  }

  /** A row's own fields, for a source that names none: time, actor, task, status (change), line. */
  private rowFields(d: TimelineEntryDetail, now: number): [string, Node][] {
    const r = d.row;
    const label = (name: string) => fieldLabel(this.view, name);
    const rows: [string, Node][] = [
      [label("time"), h("span", { text: `${relativeTime(r.time, now)} · ${absoluteTime(r.time)}` })],
      [this.view?.words.labels.actor ?? label("actor"), h("span", { text: visibleLine(r.actor) })],
    ];
    if (r.taskId !== null) {
      const title = r.taskTitle !== null ? ` — ${visibleLine(r.taskTitle)}` : "";
      rows.push([label("task"), h("span", { text: `${visibleLine(r.taskId)}${title}` })]);
    }
    if (r.toStatus !== null) rows.push([label("status"), this.statusChange(r)]);
    rows.push([label("line"), h("span", { text: String(r.line) })]);
    return rows;
  }

  /** The hash-chain part: the row's hash and the previous one with copy buttons, and a folded snapshot's. */
  private chainFields(d: TimelineEntryDetail): [string, Node][] {
    const r = d.row;
    const names = this.view?.chain;
    if (!r.chain || !d.chain || !names) return [];
    const prevHash = d.chain.prevHash;
    const rows: [string, Node][] = [
      [names.hashName, this.hash(r.chain.hash, () => this.actions.copy(r.rowId, names.hashName))],
      [
        names.prevHashName,
        prevHash
          ? this.hash(prevHash, () => this.actions.copy(r.rowId, names.prevHashName))
          : h("span", { cls: "tl-muted", text: l10n.t("(genesis: empty)") }),
      ],
    ];
    const snapWords = this.view?.snapshot;
    if (r.snapshot && snapWords) {
      const snap = r.snapshot;
      rows.push([
        snapWords.name,
        this.hash(l10n.t("#{0} (line {1}) {2}", snap.rowId, snap.line, snap.hash), () =>
          this.actions.copy(snap.rowId, names.hashName),
        ),
      ]);
    }
    return rows;
  }

  /** One status in its source's words. */
  private status(s: string | null): HTMLElement {
    return h("span", { text: this.view ? statusLabel(s, this.view.words) : visibleLine(s ?? "?") });
  }

  private statusChange(r: TimelineEntryRow): HTMLElement {
    if (!this.view?.statusChanges) return this.status(r.toStatus);
    return h("span", {}, [this.status(r.fromStatus), h("span", { text: " → " }), this.status(r.toStatus)]);
  }

  /** The row's record under its source's word for it ("Payload"). */
  private record(rec: TimelineDetailRecord): void {
    const name = this.view?.words.labels.record ?? "";
    const head = rec.truncated
      ? l10n.t(
          "{0} (first {1} of {2} characters; open the line for all)",
          name,
          count(rec.text.length),
          count(rec.chars),
        )
      : name;
    this.body.append(
      h("h3", { text: head }),
      h("pre", {
        cls: "tl-payload",
        text: visible(rec.text),
        attrs: { tabindex: "0", "aria-label": name },
      }),
    );
  }

  private hash(text: string, copy: () => void): HTMLElement {
    const b = button("copy", l10n.t("Copy"), { iconOnly: true, title: l10n.t("Copy to the clipboard") });
    b.addEventListener("click", copy);
    return h("span", { cls: "tl-hash" }, [h("code", { text: visibleLine(text) }), b]);
  }

  private diff(change: TimelinePlanChange): HTMLElement {
    if (change.error) {
      return h("p", { cls: "tl-muted", text: l10n.t("Plan diff unavailable: {0}", visibleLine(change.error)) });
    }
    if (!change.diff) return h("p", { cls: "tl-muted", text: l10n.t("Nothing: this entry does not touch the plan.") });
    return this.view ? renderDiff(change.diff, this.view.words) : h("p", { cls: "tl-muted" });
  }
}
