/**
 * The timeline's data types (rows, filters, pages, facets, plan diffs,
 * details): built in the worker by src/core/timeline/, carried to the
 * webview by src/protocolTimeline.ts, which imports them from here.
 */

/** Chain state at a row: verified, the first break is here, or after a break (unverified). */
export type ChainState = "ok" | "broken" | "unverified";

/**
 * What a row did, derived from its action (as its source's {@link TimelineWords} classify it) and
 * its status change: moved a status, a retry or an escalation that kept it, a status restated, a
 * snapshot, an action the source counts as a change without a status (a plan stored), an action
 * with words of its own but no change, or nothing of these.
 */
export type ChangeKind = "status" | "retry" | "escalated" | "same-status" | "snapshot" | "changed" | "noted" | "other";

/**
 * One row of a timeline index, the same for every source: what the index filters, folds and
 * groups on. The optional parts exist only for a source that declares them in its
 * {@link TimelineFeatures}: `hash`/`chainProblem` (a hash chain), `retryCount`/`escalated`
 * (retries and escalations).
 */
export interface TimelineIndexEntry {
  /** The row's id within its source (AutoDev: the seq; a log: its 1-based row). Messages name rows by it. */
  readonly id: number;
  /** 1-based line of the row in its file. */
  readonly line: number;
  /** ISO time the row was written ("" when unknown). */
  readonly time: string;
  /** Who acted ("" when unknown): a session, an agent, as the source's `actorWord` says. */
  readonly actor: string;
  /** What was done, as the source names it (an op, an action). */
  readonly action: string;
  readonly taskId: string | null;
  /** The task's status before the row (only when the source has status changes; else null). */
  readonly fromStatus: string | null;
  /** The status the row set or reported, else null. */
  readonly toStatus: string | null;
  /** What happened, in the source's words (the find searches it). */
  readonly summary?: string;
  /** Hash chain: the row's own hash. */
  readonly hash?: string;
  /** Hash chain: "ok", or the kind of the first problem found at this row. */
  readonly chainProblem?: string;
  /** Retries: the new retry count when the row recorded a retry, else null. */
  readonly retryCount?: number | null;
  /** Retries: true when the row escalated the task. */
  readonly escalated?: boolean;
}

/** A snapshot folded into the row it follows (AutoDev's commit path writes entry + snapshot). */
export interface TimelineSnapshotMark {
  /** The snapshot's own row id. */
  readonly rowId: number;
  readonly line: number;
  /** Its hash ("" when the source has no chain). */
  readonly hash: string;
}

/** The hash-chain part of a row (sources whose rows are hash-chained). */
export interface TimelineChainMark {
  readonly state: ChainState;
  /** The kind of the chain problem found at this row, when `state` is "broken". */
  readonly problem: string | null;
  readonly hash: string;
}

/** The retry part of a row (sources that count retries and escalate). */
export interface TimelineRetryMark {
  /** The new retry count when the row recorded a retry, else null. */
  readonly count: number | null;
  readonly escalated: boolean;
}

/** One display row of a source's timeline, the same for every source. */
export interface TimelineEntryRow {
  readonly kind: "entry";
  /** The row's id within its source. Messages name rows by it. */
  readonly rowId: number;
  readonly line: number;
  readonly time: string;
  readonly actor: string;
  readonly action: string;
  readonly taskId: string | null;
  /** The task's title in the live plan (null when unknown). */
  readonly taskTitle: string | null;
  readonly fromStatus: string | null;
  readonly toStatus: string | null;
  readonly change: ChangeKind;
  /** What the row did in its source's words when it set no status ("plan created"), else "". */
  readonly note: string;
  /** What happened, in the source's words ("" when the source says nothing beyond the fields above). */
  readonly summary: string;
  /** Present when the source's rows are hash-chained. */
  readonly chain: TimelineChainMark | null;
  /** Present when the source counts retries. */
  readonly retry: TimelineRetryMark | null;
  /** A snapshot folded into this row (sources with snapshots). */
  readonly snapshot: TimelineSnapshotMark | null;
}

/** A group header: consecutive rows of one actor (when the source groups by actor) on one (local) day. */
export interface TimelineGroupRow {
  readonly kind: "group";
  /** The actor of the rows ("" when the source groups by day only). */
  readonly actor: string;
  /** Local day `YYYY-MM-DD` in the webview's time zone ("" when the timestamp does not parse). */
  readonly day: string;
  /** Entry rows under this header. */
  readonly entries: number;
  readonly newest: string;
  readonly oldest: string;
}

/** A display row: an entry or a group header. */
export type TimelineRow = TimelineEntryRow | TimelineGroupRow;

/** Filters; empty strings and an empty action list mean "any". */
export interface TimelineFilter {
  readonly actions: readonly string[];
  readonly taskId: string;
  readonly actor: string;
  /** Resulting status (the entry's `to` status). */
  readonly status: string;
  /** Case-insensitive text over the row id, action, task id and title, actor, statuses, words and hash. */
  readonly text: string;
  /** Only rows that changed a status (or did what their source counts as a change). */
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
  readonly actions: readonly FacetCount[];
  readonly statuses: readonly FacetCount[];
  readonly actors: readonly FacetCount[];
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
  /** Copyable values by name (the hash names of the source's chain feature); empty when the source has none. */
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

/** How one action of a source reads: its codicon, its words, and whether it counts as a change. */
export interface TimelineActionWords {
  readonly icon: string;
  /** What a row of it did, in words ("plan created", "status change"): hovers, pickers and rows without a status. */
  readonly words: string;
  /** "Changes only" keeps it even without a status change (AutoDev: the ops that store a plan). */
  readonly change?: boolean;
}

/** How one status of a source reads: its codicon, a theme colour id (`charts.blue`) and its label. */
export interface TimelineStatusWords {
  readonly icon: string;
  readonly color: string;
  readonly label: string;
}

/**
 * A source's words for its timeline: its actions and statuses with their icons and labels, and
 * how an unknown one looks. It reaches the webview as data with the source's view, so the generic
 * code names no source's ops or statuses.
 */
export interface TimelineWords {
  readonly actions: Readonly<Record<string, TimelineActionWords>>;
  /** The codicon of an action the table does not know. */
  readonly unknownActionIcon: string;
  readonly statuses: Readonly<Record<string, TimelineStatusWords>>;
  /** The codicon and colour of a status the table does not know ("" colour: the text's). */
  readonly unknownStatus: { readonly icon: string; readonly color: string };
  /** What the source calls its actors and actions in the controls. */
  readonly labels: TimelineLabels;
}

/** The source's nouns in the timeline's controls (AutoDev: sessions and ops; a log: agents and actions). */
export interface TimelineLabels {
  /** The actor's field label: "Session". */
  readonly actor: string;
  /** A row's actor: "session {0}" (the actor as {0}). */
  readonly actorTitle: string;
  /** "All sessions", "Filter by session". */
  readonly allActors: string;
  readonly filterActor: string;
  /** "All ops", "Filter by op". */
  readonly allActions: string;
  readonly filterAction: string;
  /** The find box's placeholder: what it searches. */
  readonly find: string;
  /** What the details pane says while no row is selected ("Select a row to see its details."). */
  readonly selectHint: string;
  /** What the source calls a row's record in the details ("Payload"), when its details carry one. */
  readonly record: string;
  /**
   * The details pane's field labels by field name: the row's own (time, task, status, line) and
   * the names of the source's fields; a name not here is shown as it is.
   */
  readonly fields: Readonly<Record<string, string>>;
}

/** The hash-chain part a source declares: what its row hash and the previous row's are called (copy buttons). */
export interface TimelineChainFeature {
  readonly hashName: string;
  readonly prevHashName: string;
}

/** The snapshot part a source declares: which action is one, and its words where the timeline shows them. */
export interface TimelineSnapshotFeature {
  /** The action of snapshot rows. */
  readonly action: string;
  /** What one is called: the details' label of a folded one ("Snapshot"). */
  readonly name: string;
  /** The fold toggle's label ("Fold snapshots into the entry they follow"). */
  readonly fold: string;
  /** A folded one's marker on its row, its row id as {0} ("snapshot #{0} written right after this entry"). */
  readonly mark: string;
  /** The counter's note, rows as {0} and folded ones as {1} ("{0} shown as rows; {1} snapshots folded…"). */
  readonly folded: string;
}

/**
 * What a source's timeline rows are, so the rows and the details pane show that source's fields
 * and only the parts and controls that apply. The host adds what the editor can do with them.
 */
export interface TimelineFeatures {
  /** Rows are hash-chained: chain state, the hashes with copy buttons, the integrity banner. */
  readonly chain: TimelineChainFeature | null;
  /** A row moves a task's status from one value to another (from → to); otherwise it reports one status. */
  readonly statusChanges: boolean;
  /** Rows record retries and escalations. */
  readonly retries: boolean;
  /** Rows of one action are snapshots, which may be folded into the row they follow; null: none. */
  readonly snapshot: TimelineSnapshotFeature | null;
  /** Rows are grouped by actor and day (else by day): an actor wrote a run of rows. */
  readonly groupByActor: boolean;
  /** The source's action and status words. */
  readonly words: TimelineWords;
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
