/**
 * The details of the selected entry: time, session, task and status change,
 * line, hashes with copy buttons, integrity findings, what the entry changed
 * in the plan (tasks added, removed, or with another status, retry count or
 * escalation), and the payload pretty-printed — all as text. Its buttons
 * open the line in plan-ledger.jsonl, show the plan as of the entry in the
 * Plan view, and reveal the task there.
 */
import type { PlanDiff, TimelineEntryDetail } from "../src/protocol";
import { button, clear, h, icon } from "./dom";
import { l10n } from "./l10n";
import {
  absoluteTime,
  chainLabel,
  count,
  oneLine,
  opIcon,
  relativeTime,
  statusClass,
  statusLabel,
  visible,
} from "./format";

/** What the buttons of the pane ask for. */
export interface DetailsActions {
  showPlanAsOf(seq: number): void;
  openLine(seq: number): void;
  revealTask(taskId: string): void;
  copyHash(seq: number, which: "self" | "prev"): void;
}

/** The details pane. */
export class DetailsPane {
  readonly el: HTMLElement;
  private readonly body: HTMLElement;

  constructor(private readonly actions: DetailsActions) {
    this.body = h("div", { cls: "tl-details-body" });
    this.el = h("section", { cls: "tl-details", attrs: { "aria-label": l10n.t("Entry details"), tabindex: "-1" } }, [
      this.body,
    ]);
    this.empty(l10n.t("Select an entry to see its payload, hashes and what it changed."));
  }

  /** A message instead of details. */
  empty(message: string): void {
    clear(this.body);
    this.body.appendChild(h("p", { cls: "tl-hint", text: message }));
  }

  /** Loading state for `seq`. */
  loading(seq: number): void {
    clear(this.body);
    this.body.appendChild(h("p", { cls: "tl-hint", text: l10n.t("Loading #{0}…", seq) }));
  }

  /** Renders one entry's details. */
  show(d: TimelineEntryDetail, now: number): void {
    const r = d.row;
    clear(this.body);
    const title = h("h2", { cls: "tl-details-title" }, [
      icon(opIcon(r.op)),
      h("span", { text: `#${r.seq} ${oneLine(r.op)}` }),
    ]);
    const chain = h("span", { cls: `tl-badge chain-${r.chain}`, text: chainLabel(r.chain, r.chainKind) });
    this.body.append(h("div", { cls: "tl-details-head" }, [title, chain]));

    const actions = h("div", { cls: "tl-actions" });
    const asOf = button("history", l10n.t("Show plan as of #{0}", r.seq), { cls: "primary" });
    asOf.addEventListener("click", () => this.actions.showPlanAsOf(r.seq));
    const open = button("go-to-file", l10n.t("Open line {0} in plan-ledger.jsonl", r.line));
    open.addEventListener("click", () => this.actions.openLine(r.seq));
    actions.append(asOf, open);
    if (r.taskId !== null) {
      const taskId = r.taskId;
      const reveal = button("list-tree", l10n.t("Reveal task {0} in Plan", oneLine(taskId)));
      reveal.addEventListener("click", () => this.actions.revealTask(taskId));
      actions.appendChild(reveal);
    }
    this.body.appendChild(actions);

    const rows: [string, Node][] = [
      [l10n.t("Time"), h("span", { text: `${relativeTime(r.timestamp, now)} · ${absoluteTime(r.timestamp)}` })],
      [l10n.t("Session"), h("span", { text: oneLine(r.sessionId) })],
    ];
    if (r.taskId !== null) {
      rows.push([
        l10n.t("Task"),
        h("span", { text: `${oneLine(r.taskId)}${r.taskTitle !== null ? ` — ${oneLine(r.taskTitle)}` : ""}` }),
      ]);
    }
    if (r.toStatus !== null) {
      rows.push([
        l10n.t("Status"),
        h("span", {}, [
          h("span", { cls: statusClass(r.fromStatus), text: statusLabel(r.fromStatus) }),
          h("span", { text: " → " }),
          h("span", { cls: statusClass(r.toStatus), text: statusLabel(r.toStatus) }),
        ]),
      ]);
    }
    rows.push([l10n.t("Line"), h("span", { text: String(r.line) })]);
    rows.push(["self_hash", this.hash(r.selfHash, () => this.actions.copyHash(r.seq, "self"))]);
    rows.push([
      "prev_hash",
      d.prevHash
        ? this.hash(d.prevHash, () => this.actions.copyHash(r.seq, "prev"))
        : h("span", { cls: "tl-muted", text: l10n.t("(genesis: empty)") }),
    ]);
    if (r.snapshot) {
      const snap = r.snapshot;
      rows.push([
        l10n.t("Snapshot"),
        this.hash(l10n.t("#{0} (line {1}) {2}", snap.seq, snap.line, snap.selfHash), () =>
          this.actions.copyHash(snap.seq, "self"),
        ),
      ]);
    }
    const dl = h("dl", { cls: "tl-fields" });
    for (const [k, v] of rows) dl.append(h("dt", { text: k }), h("dd", {}, [v]));
    this.body.appendChild(dl);

    if (d.problems.length > 0) {
      const list = h("ul", { cls: "tl-problems" });
      for (const p of d.problems) list.appendChild(h("li", {}, [icon("error"), h("span", { text: oneLine(p) })]));
      this.body.append(h("h3", { text: l10n.t("Integrity") }), list);
    }
    this.body.append(h("h3", { text: l10n.t("What changed") }), this.diff(d));
    const payloadHead = d.truncated
      ? l10n.t(
          "Payload (first {0} of {1} characters; open the line for all)",
          count(d.payload.length),
          count(d.payloadChars),
        )
      : l10n.t("Payload");
    this.body.append(
      h("h3", { text: payloadHead }),
      h("pre", {
        cls: "tl-payload",
        text: visible(d.payload),
        attrs: { tabindex: "0", "aria-label": l10n.t("Payload") },
      }),
    );
  }

  private hash(text: string, copy: () => void): HTMLElement {
    const b = button("copy", l10n.t("Copy"), { iconOnly: true, title: l10n.t("Copy to the clipboard") });
    b.addEventListener("click", copy);
    return h("span", { cls: "tl-hash" }, [h("code", { text: oneLine(text) }), b]);
  }

  private diff(d: TimelineEntryDetail): HTMLElement {
    if (d.diffError) {
      return h("p", { cls: "tl-muted", text: l10n.t("Plan diff unavailable: {0}", oneLine(d.diffError)) });
    }
    if (!d.diff) return h("p", { cls: "tl-muted", text: l10n.t("Nothing: this entry does not touch the plan.") });
    return renderDiff(d.diff);
  }
}

/** The plan diff as lists of text. */
function renderDiff(diff: PlanDiff): HTMLElement {
  const box = h("div", { cls: "tl-diff" });
  box.appendChild(
    h("p", {
      cls: "tl-muted",
      text:
        diff.baseSeq === null
          ? l10n.t("Compared with no plan (first entry).")
          : l10n.t("Compared with the plan after #{0}.", diff.baseSeq),
    }),
  );
  if (diff.planReplaced) box.appendChild(h("p", { text: l10n.t("The plan was replaced (another plan_id).") }));
  const section = (label: string, items: HTMLElement[], cls: string) => {
    if (items.length === 0) return;
    const ul = h("ul", { cls: `tl-diff-list ${cls}` });
    for (const it of items) ul.appendChild(it);
    box.append(h("h4", { text: l10n.t("{0} ({1})", label, items.length) }), ul);
  };
  section(
    l10n.t("Tasks added"),
    diff.added.map((t) => h("li", { text: `+ ${oneLine(t.taskId)} ${oneLine(t.title)} · ${statusLabel(t.status)}` })),
    "added",
  );
  section(
    l10n.t("Tasks removed"),
    diff.removed.map((t) => h("li", { text: `− ${oneLine(t.taskId)} ${oneLine(t.title)} · ${statusLabel(t.status)}` })),
    "removed",
  );
  section(
    l10n.t("Tasks changed"),
    diff.changed.map((c) => {
      const li = h("li", {}, [h("span", { cls: "tl-diff-task", text: `${oneLine(c.taskId)} ${oneLine(c.title)}` })]);
      const fields = h("ul", { cls: "tl-diff-fields" });
      for (const f of c.fields) {
        fields.appendChild(h("li", { text: `${f.field}: ${oneLine(f.from)} → ${oneLine(f.to)}` }));
      }
      li.appendChild(fields);
      return li;
    }),
    "changed",
  );
  section(
    l10n.t("Phases added"),
    diff.phasesAdded.map((p) => h("li", { text: oneLine(p) })),
    "added",
  );
  section(
    l10n.t("Phases removed"),
    diff.phasesRemoved.map((p) => h("li", { text: oneLine(p) })),
    "removed",
  );
  if (diff.omitted > 0) {
    box.appendChild(h("p", { cls: "tl-muted", text: l10n.t("…and {0} more.", count(diff.omitted)) }));
  }
  if (box.childElementCount === 1) {
    box.appendChild(h("p", { text: l10n.t("No task changed (the plan is the same as before this entry).") }));
  }
  return box;
}
