/**
 * The timeline's data types (rows, filters, pages, facets, plan diffs,
 * details): built in the worker by src/core/timeline/, carried to the
 * webview by src/protocolTimeline.ts, which imports them from here.
 */

/** Chain state at an entry: verified, the first break is here, or after a break (unverified). */
export type ChainState = "ok" | "broken" | "unverified";

/** What an entry did, derived from its op and its status change (known by replay). */
export type ChangeKind =
  "status" | "retry" | "escalated" | "same-status" | "plan" | "snapshot" | "evidence" | "audit" | "other";

/**
 * One entry of a timeline index: what the index filters, folds and groups on, one small record per
 * row (AutoDev's ledger entry summaries are these; other sources' rows are mapped onto them).
 */
export interface TimelineIndexEntry {
  readonly seq: number;
  readonly line: number;
  /** Byte range of the line, to load its payload on demand. */
  readonly start: number;
  readonly end: number;
  readonly op: string;
  readonly timestamp: string;
  readonly sessionId: string;
  readonly selfHash: string;
  readonly taskId: string | null;
  readonly fromStatus: string | null;
  readonly toStatus: string | null;
  /** The new retry count when the entry recorded a retry, else null. */
  readonly retryCount: number | null;
  /** True when the entry escalated the task. */
  readonly escalated: boolean;
  /** "ok", or the kind of the first problem found at this entry. */
  readonly chain: string;
  /** What the row says happened, in its source's words (source timelines; the find searches it). */
  readonly summary?: string;
}

/** A snapshot folded into the entry it follows (the commit path writes entry + snapshot). */
export interface TimelineSnapshotMark {
  /** The snapshot's own row id (its seq). */
  readonly rowId: number;
  readonly line: number;
  readonly selfHash: string;
}

/** One row of a source's timeline (AutoDev: a ledger entry; agloop: a log line). */
export interface TimelineEntryRow {
  readonly kind: "entry";
  /** The row's id within its source: AutoDev's seq, agloop's line number. Messages name rows by it. */
  readonly rowId: number;
  readonly line: number;
  readonly op: string;
  readonly timestamp: string;
  readonly sessionId: string;
  readonly selfHash: string;
  readonly taskId: string | null;
  /** The task's title in the live plan (null when unknown). */
  readonly taskTitle: string | null;
  readonly fromStatus: string | null;
  readonly toStatus: string | null;
  /** The new retry count when the entry recorded a retry, else null. */
  readonly retryCount: number | null;
  /** True when the entry escalated the task. */
  readonly escalated: boolean;
  readonly change: ChangeKind;
  readonly chain: ChainState;
  /** The kind of the chain problem found at this entry, when `chain` is "broken". */
  readonly chainKind: string | null;
  readonly snapshot: TimelineSnapshotMark | null;
  /** What happened, in a source's words (timelines of sources other than the AutoDev ledger). */
  readonly summary?: string;
}

/** A group header: consecutive rows of one session on one (local) day. */
export interface TimelineGroupRow {
  readonly kind: "group";
  readonly sessionId: string;
  /** Local day `YYYY-MM-DD` in the webview's time zone ("" when the timestamp does not parse). */
  readonly day: string;
  /** Entry rows under this header. */
  readonly entries: number;
  readonly newest: string;
  readonly oldest: string;
}

/** A display row: an entry or a group header. */
export type TimelineRow = TimelineEntryRow | TimelineGroupRow;

/** Filters; empty strings and an empty op list mean "any". */
export interface TimelineFilter {
  readonly ops: readonly string[];
  readonly taskId: string;
  readonly sessionId: string;
  /** Resulting status (the entry's `to` status). */
  readonly status: string;
  /** Case-insensitive text over seq, op, task id and title, session, statuses and hash. */
  readonly text: string;
  /** Only entries that changed a status or the plan. */
  readonly changesOnly: boolean;
}

/** A filter plus display options. */
export interface TimelineQuery {
  readonly filter: TimelineFilter;
  /** Fold a snapshot into the entry it directly follows (quiet marker instead of a row). */
  readonly foldSnapshots: boolean;
  /** IANA time zone used to group by day. */
  readonly timeZone: string;
}

/** A value and how many entries have it. */
export interface FacetCount {
  readonly value: string;
  readonly count: number;
}

/** What the filter controls offer. */
export interface TimelineFacets {
  readonly ops: readonly FacetCount[];
  readonly statuses: readonly FacetCount[];
  readonly sessions: readonly FacetCount[];
  readonly tasks: readonly FacetCount[];
}

/** One page of display rows (newest first) and the totals to size the virtual list. */
export interface TimelinePage {
  /** Changes when the ledger was re-read from the start (rows cannot be shifted then). */
  readonly generation: number;
  /** All entries in the ledger index. */
  readonly entries: number;
  /** Entries that match the filter and are shown as rows (a folded snapshot is not counted here). */
  readonly matched: number;
  /** Snapshots folded into the rows of the matching entries they follow (each shows as a marker). */
  readonly folded: number;
  /** Display rows (entries shown plus group headers). */
  readonly total: number;
  readonly offset: number;
  readonly rows: readonly TimelineRow[];
  /** Display row of the requested anchor row id (to keep the scroll position), else null. */
  readonly anchorRow: number | null;
  /** Display row of the requested row id to jump to, or null when the filter hides it. */
  readonly located: number | null;
  readonly facets: TimelineFacets | null;
  /** Row id of the first row where the chain breaks, null when intact (or the source has no chain). */
  readonly brokenRowId: number | null;
}

/** A page request, as the worker protocol carries it. */
export interface TimelinePageRequest {
  readonly query: TimelineQuery;
  readonly offset: number;
  readonly limit: number;
  /** The row to keep in place (its display row comes back as `anchorRow`). */
  readonly anchorRowId: number | null;
  /** The row to find (its display row comes back as `located`). */
  readonly locateRowId: number | null;
  readonly facets: boolean;
}

/** Where a timeline row came from and the values the host may copy for it (it looks them up, never the webview). */
export interface TimelineRowRef {
  readonly rowId: number;
  /** Workspace-relative file the row was read from, and its 1-based line. */
  readonly file: string;
  readonly line: number;
  /** Copyable values by name (AutoDev: `self_hash`, `prev_hash`); empty when the source has none. */
  readonly copy: Readonly<Record<string, string>>;
}

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

/**
 * What a source's timeline rows are, so the rows and the details pane show that source's fields
 * and only the controls that apply. The host adds what the editor can do with them.
 */
export interface TimelineFeatures {
  /** Rows are hash-chained: chain state, self_hash/prev_hash with copy buttons, the integrity banner. */
  readonly chain: boolean;
  /** A row moves a task's status from one value to another (from → to); otherwise it reports one status. */
  readonly statusChanges: boolean;
  /** Snapshot rows exist and may be folded into the row they follow. */
  readonly snapshots: boolean;
  /** Rows are grouped by actor and day (else by day): an actor is a session that wrote a run of rows. */
  readonly groupByActor: boolean;
  /** What the actor of a row is: AutoDev's session, agloop's agent. */
  readonly actor: "session" | "agent";
}

/** The details pane of one row (loaded on demand). */
export interface TimelineEntryDetail {
  readonly row: TimelineEntryRow;
  /** The workspace-relative file the row came from ("Open line N in <file>"). */
  readonly file: string;
  /** The source's fields, in its order; empty for AutoDev, whose pane shows its ledger fields. */
  readonly fields: readonly TimelineField[];
  readonly prevHash: string;
  /** Integrity findings at this entry's line. */
  readonly problems: readonly string[];
  /** The payload, pretty-printed as Python's `json.dumps(payload, indent=2)`. */
  readonly payload: string;
  readonly payloadChars: number;
  readonly truncated: boolean;
  readonly diff: PlanDiff | null;
  readonly diffError: string | null;
}
