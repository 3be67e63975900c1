/**
 * The details pane's types: one row's fields, integrity findings, hash chain, record and plan
 * diff, loaded on demand; carried to the webview by src/protocolTimeline.ts.
 */
import type { TimelineEntryRow } from "./timelineTypes";

/** One field of a task that differs between two plans. */
export interface PlanDiffField {
  readonly field: string;
  readonly from: string;
  readonly to: string;
}

/** A task added or removed. */
export interface PlanDiffTask {
  readonly taskId: string;
  readonly title: string;
  readonly status: string;
}

/** A task whose fields changed. */
export interface PlanDiffChange {
  readonly taskId: string;
  readonly title: string;
  readonly fields: readonly PlanDiffField[];
}

/** What changed between the plan before an entry and the plan after it. */
export interface PlanDiff {
  /** The entry whose resulting plan is the base (null: there was no plan before). */
  readonly baseSeq: number | null;
  readonly planReplaced: boolean;
  readonly added: readonly PlanDiffTask[];
  readonly removed: readonly PlanDiffTask[];
  readonly changed: readonly PlanDiffChange[];
  readonly phasesAdded: readonly string[];
  readonly phasesRemoved: readonly string[];
  /** Items left out to keep the message small. */
  readonly omitted: number;
}

/**
 * One field of a row's details, as its source names it. `name` is one the details pane knows
 * (time, agent, action, phase, task, status, input, output, metadata: it shows them in the UI
 * language) or any other word, shown as it is.
 */
export interface TimelineField {
  readonly name: string;
  readonly value: string;
}

/** The hash-chain part of a row's details. */
export interface TimelineDetailChain {
  /** The previous row's hash ("" at the start of the chain). */
  readonly prevHash: string;
}

/** The row's record as its source prints it (AutoDev: the payload as Python's `json.dumps(…, indent=2)`). */
export interface TimelineDetailRecord {
  /** The text, cut to a size a message carries. */
  readonly text: string;
  /** The length of the whole text. */
  readonly chars: number;
  readonly truncated: boolean;
}

/** What the row changed in its source's plan: the diff, or why there is none to show. */
export interface TimelinePlanChange {
  /** null: the row does not touch the plan (or `error` says why it was not computed). */
  readonly diff: PlanDiff | null;
  readonly error: string | null;
}

/**
 * The details pane of one row (loaded on demand): the row, its fields, its integrity findings,
 * and the parts its source fills (null where the source has none); the pane shows only those.
 */
export interface TimelineEntryDetail {
  readonly row: TimelineEntryRow;
  /** The workspace-relative file the row came from ("Open line N in <file>"). */
  readonly file: string;
  /** The source's fields, in its order; empty: the pane shows the row's own (time, actor, task, status, line). */
  readonly fields: readonly TimelineField[];
  /** Integrity findings at this row's line. */
  readonly problems: readonly string[];
  /** Hash chain (sources whose rows are chained). */
  readonly chain: TimelineDetailChain | null;
  /** The row's record (sources that print one), labelled with the source's `labels.record`. */
  readonly record: TimelineDetailRecord | null;
  /** What the row changed in the plan (sources whose rows change a plan). */
  readonly planChange: TimelinePlanChange | null;
}
