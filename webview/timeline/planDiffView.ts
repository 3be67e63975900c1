/**
 * What an AutoDev ledger entry changed in the plan, as lists of text: tasks added, removed, or with
 * another status, retry count or escalation, and phases added or removed (every value from the
 * ledger set as text, never as markup).
 */
import type { PlanDiff, TimelineWords } from "../../src/protocolTimeline";
import { h } from "../dom";
import { count, visibleLine, statusLabel } from "./format";
import { l10n } from "../l10n";

/** The plan diff as lists of text. */
export function renderDiff(diff: PlanDiff, words: TimelineWords): HTMLElement {
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
    diff.added.map((t) =>
      h("li", { text: `+ ${visibleLine(t.taskId)} ${visibleLine(t.title)} · ${statusLabel(t.status, words)}` }),
    ),
    "added",
  );
  section(
    l10n.t("Tasks removed"),
    diff.removed.map((t) =>
      h("li", { text: `− ${visibleLine(t.taskId)} ${visibleLine(t.title)} · ${statusLabel(t.status, words)}` }),
    ),
    "removed",
  );
  section(
    l10n.t("Tasks changed"),
    diff.changed.map((c) => {
      const li = h("li", {}, [
        h("span", { cls: "tl-diff-task", text: `${visibleLine(c.taskId)} ${visibleLine(c.title)}` }),
      ]);
      const fields = h("ul", { cls: "tl-diff-fields" });
      for (const f of c.fields) {
        fields.appendChild(h("li", { text: `${f.field}: ${visibleLine(f.from)} → ${visibleLine(f.to)}` }));
      }
      li.appendChild(fields);
      return li;
    }),
    "changed",
  );
  section(
    l10n.t("Phases added"),
    diff.phasesAdded.map((p) => h("li", { text: visibleLine(p) })),
    "added",
  );
  section(
    l10n.t("Phases removed"),
    diff.phasesRemoved.map((p) => h("li", { text: visibleLine(p) })),
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
