/**
 * Every message between the ledger timeline webview and the extension host,
 * as discriminated unions on `type`, plus the view-model shapes they carry.
 * The webview imports this file for TYPES only; the host validates whatever
 * the webview sends with the strict zod schemas below before acting on it.
 * The webview sends references (folder URI, seq, task id), never data the
 * host would trust: the host looks hashes, lines and payloads up itself.
 */
import { z } from "zod";
import type {
  ChainState,
  ChangeKind,
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
} from "./core/timeline/timelineTypes";

/** The timeline data types, for the webview (which imports only this file). */
export type {
  ChainState,
  ChangeKind,
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
};

/** A folder the timeline can show. */
export interface FolderChoice {
  readonly uri: string;
  readonly name: string;
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
      readonly folders: readonly FolderChoice[];
      readonly folderUri: string | null;
      readonly travelSeq: number | null;
      readonly integrity: IntegritySummary | null;
      readonly focusTask: string | null;
      readonly locateSeq: number | null;
      /** The first page of the default query, computed while the webview loaded (use it when the query matches). */
      readonly firstPage: { readonly query: TimelineQuery; readonly page: TimelinePage } | null;
    }
  | { readonly type: "page"; readonly requestId: number; readonly page: TimelinePage }
  | { readonly type: "details"; readonly requestId: number; readonly detail: TimelineEntryDetail | null }
  | {
      readonly type: "ledgerChanged";
      readonly folderUri: string;
      readonly entries: number;
      readonly travelSeq: number | null;
      readonly integrity: IntegritySummary | null;
    }
  | { readonly type: "folders"; readonly folders: readonly FolderChoice[] }
  | { readonly type: "treeTask"; readonly folderUri: string; readonly taskId: string }
  | { readonly type: "reveal"; readonly folderUri: string; readonly seq: number | null; readonly taskId: string | null }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly requestId: number | null; readonly message: string };

const seq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const requestId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31);
const folderUri = z.string().min(1).max(4096);
const shortText = z.string().max(200);

/** Schema of {@link TimelineFilter}. */
export const TimelineFilterSchema = z.strictObject({
  ops: z.array(z.string().max(64)).max(32).readonly(),
  taskId: shortText,
  sessionId: shortText,
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
  z.strictObject({ type: z.literal("ready"), folderUri: folderUri.nullable() }),
  z.strictObject({
    type: z.literal("query"),
    requestId,
    folderUri,
    query: TimelineQuerySchema,
    offset: z.number().int().min(0).max(1e9),
    limit: z.number().int().min(0).max(500),
    anchorSeq: seq.nullable(),
    locateSeq: seq.nullable(),
    facets: z.boolean(),
  }),
  z.strictObject({ type: z.literal("details"), requestId, folderUri, seq }),
  z.strictObject({ type: z.literal("setFolder"), folderUri }),
  z.strictObject({ type: z.literal("copyHash"), folderUri, seq, which: z.enum(["self", "prev"]) }),
  z.strictObject({ type: z.literal("openLine"), folderUri, seq }),
  z.strictObject({ type: z.literal("showPlanAsOf"), folderUri, seq }),
  z.strictObject({ type: z.literal("backToLive"), folderUri }),
  z.strictObject({ type: z.literal("revealTask"), folderUri, taskId: z.string().min(1).max(200), focus: z.boolean() }),
  z.strictObject({
    type: z.literal("rendered"),
    reason: z.enum(["open", "update"]),
    rows: z.number().int().min(0).max(1e6),
    total: z.number().int().min(0).max(1e9),
    matched: z.number().int().min(0).max(1e9),
    firstSeq: seq.nullable(),
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
