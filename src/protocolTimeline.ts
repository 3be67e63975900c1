/**
 * Every message between the timeline webview and the extension host, as discriminated unions on
 * `type`, plus the view-model shapes they carry. A timeline shows one source of one workspace
 * folder at a time, named by its source key (`<folder uri>|<kind>`); rows are named by their row
 * id. Each source says what its rows are and how its actions and statuses read
 * ({@link TimelineView}), so the webview shows its fields, words and only the controls that apply. The webview imports this file
 * for TYPES only; the host validates whatever the webview sends with the strict zod schemas below
 * before acting on it. The webview sends references (source key, row id, task id), never data the
 * host would trust: the host looks hashes, lines and payloads up itself.
 */
import * as z from "zod";
import type { TimelineEntryDetail, TimelineFeatures, TimelinePage, TimelineQuery } from "./core/timeline/timelineTypes";

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
  PlanDiffField,
  PlanDiffTask,
  PlanDiffChange,
  PlanDiff,
  TimelineEntryDetail,
  TimelineDetailChain,
  TimelineDetailRecord,
  TimelinePlanChange,
  TimelineFeatures,
  TimelineSnapshotFeature,
  TimelineLabels,
  TimelineField,
  TimelineWords,
  TimelineActionWords,
  TimelineStatusWords,
} from "./core/timeline/timelineTypes";

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

const rowId = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const requestId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31);
const sourceKey = z.string().min(1).max(4096);
const shortText = z.string().max(200);

/** Schema of {@link TimelineFilter}. */
export const TimelineFilterSchema = z.strictObject({
  actions: z.array(z.string().max(64)).max(32).readonly(),
  taskId: shortText,
  actor: shortText,
  status: z.string().max(64),
  text: shortText,
  changesOnly: z.boolean(),
});

/** Schema of {@link TimelineQuery}. */
export const TimelineQuerySchema = z.strictObject({
  filter: TimelineFilterSchema,
  foldSnapshots: z.boolean(),
  timeZone: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_+\-/]*$/),
});

/** Schema of every webview → host message (strict: unknown keys are rejected). */
export const WebviewMessageSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ready"), sourceKey: sourceKey.nullable() }),
  z.strictObject({
    type: z.literal("query"),
    requestId,
    sourceKey,
    query: TimelineQuerySchema,
    offset: z.number().int().min(0).max(1e9),
    limit: z.number().int().min(0).max(500),
    anchorRowId: rowId.nullable(),
    locateRowId: rowId.nullable(),
    facets: z.boolean(),
  }),
  z.strictObject({ type: z.literal("details"), requestId, sourceKey, rowId }),
  z.strictObject({ type: z.literal("setSource"), sourceKey }),
  /** Copy a value of a row by the name its source gives it (a hash): the host looks it up in the row's reference. */
  z.strictObject({
    type: z.literal("copy"),
    sourceKey,
    rowId,
    value: z
      .string()
      .max(64)
      .regex(/^[A-Za-z][A-Za-z0-9_]*$/),
  }),
  z.strictObject({ type: z.literal("openLine"), sourceKey, rowId }),
  /** Show the state as of a row in the tree (time travel). */
  z.strictObject({ type: z.literal("travel"), sourceKey, rowId }),
  z.strictObject({ type: z.literal("backToLive"), sourceKey }),
  z.strictObject({ type: z.literal("revealTask"), sourceKey, taskId: z.string().min(1).max(200), focus: z.boolean() }),
  z.strictObject({
    type: z.literal("rendered"),
    /** The source whose rows these are (null: none chosen). */
    sourceKey: sourceKey.nullable(),
    reason: z.enum(["open", "update"]),
    rows: z.number().int().min(0).max(1e6),
    total: z.number().int().min(0).max(1e9),
    matched: z.number().int().min(0).max(1e9),
    firstRowId: rowId.nullable(),
    ms: z.number().min(0).max(1e7),
  }),
]);

/** Webview → host: exactly what {@link WebviewMessageSchema} accepts. */
export type WebviewToHost = z.output<typeof WebviewMessageSchema>;

/** A webview → host message of one type. */
export type WebviewMessageOf<T extends WebviewToHost["type"]> = Extract<WebviewToHost, { type: T }>;

/** Validates a message from the webview; returns null (and why) for anything else. */
export function parseWebviewMessage(raw: unknown): { ok: true; message: WebviewToHost } | { ok: false; error: string } {
  const res = WebviewMessageSchema.safeParse(raw);
  if (res.success) return { ok: true, message: res.data };
  return {
    ok: false,
    error: res.error.issues
      .map((i) => `${i.path.join(".") || "(message)"}: ${i.message}`)
      .join("; ")
      .slice(0, 500),
  };
}
