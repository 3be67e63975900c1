/**
 * What a state source may add to the state worker thread, beside what every source gets from its
 * {@link StateSource} methods: requests of its own (AutoDev: its ledger session, verification, time
 * travel, locked writes), a timeline of its own instead of the generic one built from
 * `StateSource.timeline()` rows, and what to forget when a folder goes away.
 *
 * A source registers it as `StateSource.worker`; the worker routes `{ type: "source", kind, request }`
 * to `handle`, and the generic timeline requests to the timeline methods when they are present.
 * Nothing in src/core/worker/ names a source.
 */
import type { TimelineEntryDetail } from "../timeline/timelineDetailTypes";
import type { TimelinePage, TimelinePageRequest, TimelineRowRef } from "../timeline/timelineTypes";
import type { RequestPriority } from "../worker/requestScheduler";

/** What the worker gives a request while it runs. */
export interface WorkerContext {
  /** The request's id (a `cancel` request names it). */
  readonly requestId: number;
  /** Aborted when the host cancels the request. */
  readonly signal: AbortSignal;
  /** Reports progress of a long scan to the host (bytes of total). */
  progress(bytes: number, total: number): void;
}

/** What the host gives the worker thread when it starts (from the settings, read once). */
export interface WorkerStartOptions {
  /** `autodev.maxLineMB` in bytes: the longest line any reader keeps in memory. */
  readonly maxLineBytes?: number;
  /** The host's translation bundle (`vscode.l10n.bundle`): src/core's words in the user's language. */
  readonly l10nBundle?: Readonly<Record<string, string>>;
}

/** A source's part of the worker. `cwd` is always the workspace folder. */
export interface SourceWorkerHandler {
  /** Answers one of the source's own requests (the host validated nothing: check the shape). */
  handle(cwd: string, request: unknown, context: WorkerContext): Promise<unknown>;
  /**
   * How soon one of its own requests is served (requestScheduler.ts): `live` for what shows a change
   * (its refresh), else `normal` when absent. The request is unchecked, as for `handle`.
   */
  priorityOf?(request: unknown): RequestPriority;
  /** A page of the source's timeline (replaces the generic one built from `timeline()` rows). */
  timelinePage?(cwd: string, request: TimelinePageRequest): Promise<TimelinePage>;
  /** The details pane of one row, or null when there is no such row. */
  timelineDetail?(cwd: string, rowId: number): Promise<TimelineEntryDetail | null>;
  /** Where one row came from and its copyable values, or null when there is no such row. */
  timelineRef?(cwd: string, rowId: number): Promise<TimelineRowRef | null>;
  /** Forgets what the worker keeps about `cwd` (the folder left the window). */
  dispose?(cwd: string): void;
}
