/**
 * What a source declares of its timeline: its action and status words, its nouns in the
 * controls, and the optional parts of its rows (hash chain, snapshots, retries); carried to the
 * webview with the view by src/protocolTimeline.ts.
 */

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
  /** The built-in colour id the webview falls back to when the editor does not define `color` (one of the extension's own). */
  readonly fallbackColor?: string;
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

/** The hash-chain part a source declares: what its row hash and the previous row's are called (copy buttons), and its banner's words. */
export interface TimelineChainFeature {
  readonly hashName: string;
  readonly prevHashName: string;
  /** The banner of a broken chain, its line as {0} and the finding as {1} ("The hash chain is broken at line {0}: {1}"). */
  readonly brokenAt: string;
  /** The banner when the break has no line, the finding as {0}. */
  readonly broken: string;
}

/** The words of a source whose state the tree can show as of a row (time travel), each row id as {0}. */
export interface TimelineTravelWords {
  /** The details pane's button ("Show plan as of #{0}"). */
  readonly asOf: string;
  /** The banner while the tree shows it ("The Plan view shows the plan as of entry #{0}."). */
  readonly shown: string;
  /** The marker of the row shown (no {0}: "The Plan view shows the plan as of this entry"). */
  readonly row: string;
  /** The toolbar toggle that travels to the selected row (no {0}). */
  readonly onSelect: string;
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
  /** How time travel reads, for a source whose tree can show its state as of a row; null: no such words. */
  readonly travel: TimelineTravelWords | null;
}
