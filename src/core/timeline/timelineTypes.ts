/**
 * The timeline's row types (rows, filters, pages, facets, row references): built in the worker
 * by src/core/timeline/, carried to the webview by src/protocolTimeline.ts, which imports them
 * from here. A source's words and parts are in timelineFeatureTypes.ts, a row's details in
 * timelineDetailTypes.ts.
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
