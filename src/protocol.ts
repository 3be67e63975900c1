/**
 * Every message between the ledger timeline webview and the extension host,
 * as discriminated unions on `type`, plus the view-model shapes they carry.
 * The webview imports this file for TYPES only; the host validates whatever
 * the webview sends with the strict zod schemas below before acting on it.
 * The webview sends references (folder URI, seq, task id), never data the
 * host would trust: the host looks hashes, lines and payloads up itself.
 */
import { z } from "zod";

/** Chain state at an entry: verified, the first break is here, or after a break (unverified). */
export type ChainState = "ok" | "broken" | "unverified";

/** What an entry did, derived from its op and its status change (known by replay). */
export type ChangeKind = "status" | "retry" | "escalated" | "same-status" | "plan" | "snapshot" | "evidence" | "audit" | "other";

/** A snapshot folded into the entry it follows (the commit path writes entry + snapshot). */
export interface TimelineSnapshotMark {
  readonly seq: number;
  readonly line: number;
  readonly selfHash: string;
}

/** One ledger entry as a timeline row. */
export interface TimelineEntryRow {
  readonly kind: "entry";
  readonly seq: number;
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
  /** Entries that match the filter. */
  readonly matched: number;
  /** Display rows (entries shown plus group headers). */
  readonly total: number;
  readonly offset: number;
  readonly rows: readonly TimelineRow[];
  /** Row of the requested anchor seq (to keep the scroll position), else null. */
  readonly anchorRow: number | null;
  /** Row of the requested seq to jump to, or null when the filter hides it. */
  readonly located: number | null;
  readonly facets: TimelineFacets | null;
  /** Seq of the first entry where the chain breaks, null when intact. */
  readonly brokenSeq: number | null;
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

/** The details pane of one entry (loaded on demand). */
export interface TimelineEntryDetail {
  readonly row: TimelineEntryRow;
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
  | { readonly type: "ledgerChanged"; readonly folderUri: string; readonly entries: number; readonly travelSeq: number | null; readonly integrity: IntegritySummary | null }
  | { readonly type: "folders"; readonly folders: readonly FolderChoice[] }
  | { readonly type: "treeTask"; readonly folderUri: string; readonly taskId: string }
  | { readonly type: "reveal"; readonly folderUri: string; readonly seq: number | null; readonly taskId: string | null }
  | { readonly type: "notice"; readonly message: string }
  | { readonly type: "error"; readonly requestId: number | null; readonly message: string };

const seq = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER);
const requestId = z.number().int().min(0).max(2 ** 31);
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
  timeZone: z.string().max(64).regex(/^[A-Za-z0-9_+\-/]*$/),
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
  return { ok: false, error: res.error.issues.map((i) => `${i.path.join(".") || "(message)"}: ${i.message}`).join("; ").slice(0, 500) };
}
