/**
 * Every message between the timeline webview and the extension host, as discriminated unions on
 * `type`, plus the view-model shapes they carry. A timeline shows one source of one workspace
 * folder at a time, named by its source key (`<folder uri>|<kind>`); rows are named by their row
 * id. Each source says what its rows are and how its actions and statuses read
 * ({@link TimelineView}), so the webview shows its fields, words and only the controls that apply.
 * The webview imports this file for TYPES only; the host validates whatever the webview sends with
 * the strict zod schemas of protocolTimelineSchemas.ts (loaded on the first message) before acting
 * on it. The webview sends references (source key, row id, task id), never data the host would
 * trust: the host looks hashes, lines and payloads up itself.
 */
import type * as z from "zod";
import type * as TimelineSchemas from "./protocolTimelineSchemas";
import type { TimelineEntryDetail } from "./core/timeline/timelineDetailTypes";
import type { TimelineFeatures } from "./core/timeline/timelineFeatureTypes";
import type { TimelinePage, TimelineQuery } from "./core/timeline/timelineTypes";

/** The timeline data types, for the webview (which imports only this file). */
export type {
  ChainState,
  ChangeKind,
  TimelineChainMark,
  TimelineRetryMark,
  TimelineSnapshotMark,
  TimelineEntryRow,
  TimelineGroupRow,
  TimelineRow,
  TimelineFilter,
  TimelineQuery,
  FacetCount,
  TimelineFacets,
  TimelinePage,
} from "./core/timeline/timelineTypes";
export type {
  PlanDiffField,
  PlanDiffTask,
  PlanDiffChange,
  PlanDiff,
  TimelineEntryDetail,
  TimelineDetailChain,
  TimelineDetailRecord,
  TimelinePlanChange,
  TimelineField,
} from "./core/timeline/timelineDetailTypes";
export type {
  TimelineFeatures,
  TimelineSnapshotFeature,
  TimelineChainFeature,
  TimelineTravelWords,
  TimelineLabels,
  TimelineWords,
  TimelineActionWords,
  TimelineStatusWords,
} from "./core/timeline/timelineFeatureTypes";

/** What a source's rows are and which controls apply to them (the source's features plus what the editor can do). */
export interface TimelineView extends TimelineFeatures {
  /** The tree can show the state as of a row ("Show plan as of", "Back to live", time travel on select). */
  readonly timeTravel: boolean;
  /** A row's task can be revealed in the tree (and the timeline follows the tree's selection). */
  readonly revealTask: boolean;
}

/** A source the timeline can show. */
export interface SourceChoice {
  /** `<folder uri>|<kind>`. */
  readonly key: string;
  readonly name: string;
  readonly view: TimelineView;
}

/** Integrity at a glance. */
export interface IntegritySummary {
  readonly ok: boolean;
  readonly brokenLine: number | null;
  readonly message: string | null;
}

/** Host → webview. */
export type HostToWebview =
  | {
      readonly type: "init";
      readonly sources: readonly SourceChoice[];
      /**
       * What rows are while no source is chosen: a log of agents' actions, the host's
       * `LOG_TIMELINE_FEATURES` in the UI language (the webview keeps no words of its own).
       */
      readonly plainView: TimelineView;
      readonly sourceKey: string | null;
      readonly travelRowId: number | null;
      readonly integrity: IntegritySummary | null;
      readonly focusTask: string | null;
      readonly locateRowId: number | null;
      /** The first page of the default query, computed while the webview loaded (use it when the query matches). */
      readonly firstPage: { readonly query: TimelineQuery; readonly page: TimelinePage } | null;
    }
  | { readonly type: "page"; readonly requestId: number; readonly page: TimelinePage }
  | {
      readonly type: "details";
      readonly requestId: number;
      readonly detail: TimelineEntryDetail | null;
      /** What the editor knows of the row's task beyond the files ("1/2 reviewed"), or null. */
      readonly taskNote: string | null;
    }
  | {
      readonly type: "sourceChanged";
      readonly sourceKey: string;
      /** Rows the source's timeline holds now. */
      readonly rows: number;
      readonly travelRowId: number | null;
      readonly integrity: IntegritySummary | null;
    }
  | { readonly type: "sources"; readonly sources: readonly SourceChoice[] }
  | { readonly type: "treeTask"; readonly sourceKey: string; readonly taskId: string }
  | {
      readonly type: "reveal";
      readonly sourceKey: string;
      readonly rowId: number | null;
      readonly taskId: string | null;
    }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly requestId: number | null; readonly message: string };

/** Webview → host: exactly what protocolTimelineSchemas.ts's `WebviewMessageSchema` accepts. */
export type WebviewToHost = z.output<typeof TimelineSchemas.WebviewMessageSchema>;

/** A webview → host message of one type. */
export type WebviewMessageOf<T extends WebviewToHost["type"]> = Extract<WebviewToHost, { type: T }>;
