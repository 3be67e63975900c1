/**
 * The timeline's toolbar: source choice (several folders or sources), free-text find, op,
 * resulting status, task and session filters, the "changes only", "fold
 * snapshots", "link with Plan view" and "time-travel on select" toggles,
 * jump to seq, clear, and the match count. Facet values come from the
 * ledger and are inserted as option text only.
 */
import type { SourceChoice, TimelineFacets, TimelineFilter, TimelineView } from "../../src/protocolTimeline";
import { button, clear, h, option, setAttr, setPressed, setText, toggle } from "../dom";
import { count, visibleLine, statusLabel } from "./format";
import { l10n } from "../l10n";

/** The options the toolbar edits. */
export interface ViewOptions {
  readonly filter: TimelineFilter;
  readonly foldSnapshots: boolean;
  readonly linkTree: boolean;
  readonly travelOnSelect: boolean;
}

/** What the toolbar reports. */
export interface FilterBarEvents {
  changed(options: ViewOptions, filterChanged: boolean): void;
  jump(rowId: number): void;
  source(key: string): void;
}

/** The toolbar. */
export class FilterBar {
  readonly el: HTMLElement;
  private options: ViewOptions;
  private readonly sourceSelect = h("select", {
    cls: "tl-select folder",
    attrs: { "aria-label": l10n.t("State source") },
  });
  private readonly text = h("input", {
    cls: "tl-input grow",
    attrs: {
      type: "search",
      "aria-label": l10n.t("Find entries"),
      spellcheck: "false",
    },
  });
  private readonly op = h("select", { cls: "tl-select" });
  private readonly status = h("select", {
    cls: "tl-select",
    title: l10n.t("Resulting status (the status an entry moved its task to)"),
    attrs: { "aria-label": l10n.t("Filter by resulting status") },
  });
  private readonly task = h("input", {
    cls: "tl-input narrow",
    attrs: {
      type: "text",
      placeholder: l10n.t("Task"),
      list: "tl-task-list",
      "aria-label": l10n.t("Filter by task id"),
      spellcheck: "false",
    },
  });
  private readonly tasks = h("datalist", { attrs: { id: "tl-task-list" } });
  private readonly session = h("select", { cls: "tl-select" });
  private readonly changesOnly: HTMLButtonElement;
  private readonly fold: HTMLButtonElement;
  private readonly link: HTMLButtonElement;
  private readonly travel: HTMLButtonElement;
  private readonly jumpInput = h("input", {
    cls: "tl-input seq",
    attrs: {
      type: "text",
      placeholder: l10n.t("Go to #"),
      "aria-label": l10n.t("Go to a row by its #"),
      inputmode: "numeric",
    },
  });
  private readonly counter = h("span", { cls: "tl-count", attrs: { "aria-live": "polite" } });
  private textTimer = 0;
  private view: TimelineView | null = null;
  private facets: TimelineFacets | null = null;
  private taskTimer = 0;

  constructor(
    initial: ViewOptions,
    private readonly events: FilterBarEvents,
  ) {
    this.options = initial;
    this.changesOnly = toggle(
      "diff",
      l10n.t("Changes only: status changes, retries, escalations and plan changes"),
      initial.filter.changesOnly,
    );
    // Labelled in the source's words by setView (only a source with snapshots shows it).
    this.fold = toggle("device-camera", "", initial.foldSnapshots);
    this.link = toggle("link", l10n.t("Link with the Plan view (selection filters and reveals)"), initial.linkTree);
    // Labelled in the source's words by setView (only a source that time-travels shows it).
    this.travel = toggle("history", "", initial.travelOnSelect);
    const clearButton = button("clear-all", l10n.t("Clear filters"), { iconOnly: true });
    this.el = h("div", { cls: "tl-toolbar", attrs: { role: "toolbar", "aria-label": l10n.t("Timeline filters") } }, [
      this.sourceSelect,
      this.text,
      this.op,
      this.status,
      this.task,
      this.tasks,
      this.session,
      h("span", { cls: "tl-sep" }),
      this.changesOnly,
      this.fold,
      this.link,
      this.travel,
      clearButton,
      h("span", { cls: "tl-sep" }),
      this.jumpInput,
      this.counter,
    ]);
    this.sourceSelect.hidden = true;
    this.text.value = initial.filter.text;
    this.task.value = initial.filter.taskId;
    this.setFacets(null);
    this.text.addEventListener("input", () => {
      clearTimeout(this.textTimer);
      this.textTimer = window.setTimeout(() => this.patchFilter({ text: this.text.value }), 150);
    });
    // As the text: applied while typing (debounced), not only when the field loses focus.
    const applyTask = (): void => {
      if (this.task.value.trim() !== this.options.filter.taskId) this.patchFilter({ taskId: this.task.value.trim() });
    };
    this.task.addEventListener("input", () => {
      clearTimeout(this.taskTimer);
      this.taskTimer = window.setTimeout(applyTask, 150);
    });
    this.task.addEventListener("change", () => {
      clearTimeout(this.taskTimer);
      applyTask();
    });
    this.op.addEventListener("change", () => this.patchFilter({ actions: this.op.value ? [this.op.value] : [] }));
    this.status.addEventListener("change", () => this.patchFilter({ status: this.status.value }));
    this.session.addEventListener("change", () => this.patchFilter({ actor: this.session.value }));
    this.changesOnly.addEventListener("click", () =>
      this.patchFilter({ changesOnly: !this.options.filter.changesOnly }),
    );
    this.fold.addEventListener("click", () => this.patch({ foldSnapshots: !this.options.foldSnapshots }, true));
    this.link.addEventListener("click", () => this.patch({ linkTree: !this.options.linkTree }, false));
    this.travel.addEventListener("click", () => this.patch({ travelOnSelect: !this.options.travelOnSelect }, false));
    clearButton.addEventListener("click", () =>
      this.patchFilter({ actions: [], taskId: "", actor: "", status: "", text: "", changesOnly: false }),
    );
    this.sourceSelect.addEventListener("change", () => this.events.source(this.sourceSelect.value));
    this.jumpInput.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      const n = Number(this.jumpInput.value.replace(/^#/, "").trim());
      if (Number.isSafeInteger(n) && n > 0) this.events.jump(n);
    });
  }

  /** The current options. */
  get value(): ViewOptions {
    return this.options;
  }

  /** Replaces the options (e.g. the tree selected a task) and updates the controls. */
  set(options: ViewOptions): void {
    this.options = options;
    this.sync();
  }

  /**
   * Drops the filters that name one source's rows (task and session ids, also one still being
   * typed, an op and a status): after a switch they would hide every row.
   */
  dropSourceFilters(): void {
    clearTimeout(this.taskTimer);
    this.task.value = "";
    const f = this.options.filter;
    if (f.taskId !== "" || f.actor !== "" || f.actions.length > 0 || f.status !== "") {
      this.set({ ...this.options, filter: { ...f, taskId: "", actor: "", actions: [], status: "" } });
    }
  }

  private patchFilter(p: Partial<TimelineFilter>): void {
    this.patch({ filter: { ...this.options.filter, ...p } }, true);
  }

  private patch(p: Partial<ViewOptions>, filterChanged: boolean): void {
    this.options = { ...this.options, ...p };
    this.sync();
    this.events.changed(this.options, filterChanged);
  }

  private sync(): void {
    const f = this.options.filter;
    if (this.text.value !== f.text && document.activeElement !== this.text) this.text.value = f.text;
    if (this.task.value.trim() !== f.taskId) this.task.value = f.taskId;
    this.op.value = f.actions[0] ?? "";
    this.status.value = f.status;
    this.session.value = f.actor;
    setPressed(this.changesOnly, f.changesOnly);
    setPressed(this.fold, this.options.foldSnapshots);
    setPressed(this.link, this.options.linkTree);
    setPressed(this.travel, this.options.travelOnSelect);
  }

  /** Fills the op, status, task and session choices from the ledger's facets. */
  setFacets(facets: TimelineFacets | null): void {
    const f = this.options.filter;
    const fill = (
      sel: HTMLSelectElement,
      any: string,
      values: readonly { value: string; count: number }[],
      label: (v: string) => string,
      current: string,
    ) => {
      clear(sel);
      sel.appendChild(option("", any, current === ""));
      for (const v of values) {
        sel.appendChild(option(v.value, l10n.t("{0} ({1})", label(v.value), count(v.count)), v.value === current));
      }
      if (current && !values.some((v) => v.value === current)) sel.appendChild(option(current, label(current), true));
    };
    this.facets = facets;
    const words = this.view?.words;
    fill(this.op, words?.labels.allActions ?? "", facets?.actions ?? [], visibleLine, f.actions[0] ?? "");
    const status = (s: string) => (words ? statusLabel(s, words) : visibleLine(s));
    fill(this.status, l10n.t("Any status"), facets?.statuses ?? [], status, f.status);
    fill(this.session, words?.labels.allActors ?? "", facets?.actors ?? [], visibleLine, f.actor);
    clear(this.tasks);
    for (const t of facets?.tasks ?? []) {
      this.tasks.appendChild(
        option(
          t.value,
          t.count === 1
            ? l10n.t("{0} (1 entry)", visibleLine(t.value))
            : l10n.t("{0} ({1} entries)", visibleLine(t.value), count(t.count)),
        ),
      );
    }
  }

  /** Shows the source choice when there is more than one. */
  setSources(sources: readonly SourceChoice[], current: string | null): void {
    clear(this.sourceSelect);
    for (const c of sources) this.sourceSelect.appendChild(option(c.key, visibleLine(c.name), c.key === current));
    this.sourceSelect.hidden = sources.length < 2;
  }

  /** Shows only the controls that apply to the current source's rows, in its words. */
  setView(view: TimelineView): void {
    this.view = view;
    this.changesOnly.hidden = !view.statusChanges;
    this.fold.hidden = view.snapshot === null;
    setAttr(this.fold, "aria-label", view.snapshot?.fold ?? "");
    this.fold.title = view.snapshot?.fold ?? "";
    this.link.hidden = !view.revealTask;
    this.travel.hidden = !view.timeTravel || view.travel === null;
    setAttr(this.travel, "aria-label", view.travel?.onSelect ?? "");
    this.travel.title = view.travel?.onSelect ?? "";
    const labels = view.words.labels;
    setAttr(this.session, "aria-label", labels.filterActor);
    setAttr(this.op, "aria-label", labels.filterAction);
    setAttr(this.text, "placeholder", labels.find);
    this.status.title = view.statusChanges
      ? l10n.t("Resulting status (the status an entry moved its task to)")
      : l10n.t("Status");
    if (!view.statusChanges && this.options.filter.changesOnly) {
      this.set({ ...this.options, filter: { ...this.options.filter, changesOnly: false } });
    }
    this.setFacets(this.facets);
  }

  /**
   * "N of M entries" (N: entries the filter matches, a snapshot folded into a row among them); with
   * snapshots folded, also how many rows that is ("12 of 96 entries · 6 rows"), so the count says
   * what the list shows; "Loading…" (null) while a newly chosen source's first page is on its way.
   */
  setCount(rows: number | null, entries = 0, folded = 0): void {
    let text: string;
    if (rows === null) text = l10n.t("Loading…");
    else {
      const matched = rows + folded;
      text =
        matched === entries
          ? l10n.t("{0} entries", count(entries))
          : l10n.t("{0} of {1} entries", count(matched), count(entries));
      if (folded > 0) text += ` · ${rows === 1 ? l10n.t("1 row") : l10n.t("{0} rows", count(rows))}`;
    }
    setText(this.counter, text);
    const words = this.view?.snapshot;
    this.counter.title =
      rows !== null && folded > 0 && words
        ? words.folded.replace("{0}", count(rows)).replace("{1}", count(folded))
        : "";
  }

  /** Clears the jump box after a jump. */
  jumped(): void {
    this.jumpInput.value = "";
  }
}
