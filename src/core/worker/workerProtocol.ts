/**
 * Messages between the extension host and the ledger worker thread. All
 * ledger reading, verification and replay happens in the worker so the
 * extension host is never blocked; the host asks, the worker answers (and
 * reports progress on long scans). Values cross by structured clone (bigint
 * and Map survive; plans travel as objects, see src/core/sources/autodev/plan/planTransfer.ts).
 */
import type { TimelineEntryDetail, TimelinePage, TimelineQuery } from "../timeline/timelineTypes";
import { RememberedHead, SessionUpdate } from "../sources/autodev/ledger/ledgerSession";
import type { TimelineEntryRef } from "../sources/autodev/timeline/ledgerTimelineService";
import { EntrySummary, VerifyReport, VerifyWarning } from "../sources/autodev/ledger/verifyTypes";
import type { VerificationRecord } from "../sources/autodev/ledger/verificationRecord";
import type { Plan } from "../sources/autodev/plan/schemas";
import type { SourceRequest, SourceResults } from "./sourceRequests";
import type { AutodevRunView } from "../sources/autodev/run/runView";
import type { RunPlan } from "../sources/autodev/run/runState";

/** Requests, discriminated by `type`; `cwd` is the folder that contains `.autodev/`. */
export type WorkerRequest =
  | {
      readonly id: number;
      readonly type: "refresh";
      readonly cwd: string;
      /** A verification record stored by an earlier session (untrusted: validated), used by a fresh session to resume. */
      readonly record?: unknown;
    }
  | { readonly id: number; readonly type: "tailPlan"; readonly cwd: string }
  | {
      readonly id: number;
      readonly type: "entries";
      readonly cwd: string;
      readonly offset: number;
      readonly limit: number;
    }
  | { readonly id: number; readonly type: "entryText"; readonly cwd: string; readonly seq: number }
  | { readonly id: number; readonly type: "planAt"; readonly cwd: string; readonly seq: number }
  | { readonly id: number; readonly type: "verify"; readonly cwd: string }
  | { readonly id: number; readonly type: "cancel"; readonly cwd: string; readonly target: number }
  | { readonly id: number; readonly type: "replayCompare"; readonly cwd: string }
  | { readonly id: number; readonly type: "historyWarnings"; readonly cwd: string }
  | {
      readonly id: number;
      readonly type: "setStatus";
      readonly cwd: string;
      readonly taskId: string;
      readonly status: string;
      readonly sessionId: string;
      readonly lockTimeoutS: number;
      readonly readOnly: boolean;
    }
  | { readonly id: number; readonly type: "dispose"; readonly cwd: string }
  | {
      readonly id: number;
      readonly type: "timelinePage";
      readonly cwd: string;
      readonly query: TimelineQuery;
      readonly offset: number;
      readonly limit: number;
      readonly anchorSeq: number | null;
      readonly locateSeq: number | null;
      readonly facets: boolean;
    }
  | { readonly id: number; readonly type: "timelineDetail"; readonly cwd: string; readonly seq: number }
  | { readonly id: number; readonly type: "timelineEntry"; readonly cwd: string; readonly seq: number }
  | {
      readonly id: number;
      readonly type: "autodevRunView";
      readonly cwd: string;
      readonly plan: RunPlan;
      readonly probeOnly: boolean;
    }
  | SourceRequest;

/** The result type of each request type. */
export interface WorkerResults extends SourceResults {
  autodevRunView: AutodevRunView;
  refresh: RefreshResult;
  tailPlan: { readonly plan: Plan | null; readonly seq: number | null };
  entries: { readonly total: number; readonly items: EntrySummary[] };
  entryText: string | null;
  planAt: { readonly plan: Plan | null; readonly seq: number };
  verify: RefreshResult;
  cancel: boolean;
  replayCompare: ReplayComparison;
  historyWarnings: VerifyWarning[];
  setStatus: { readonly seq: number };
  dispose: null;
  /** A page of timeline rows (filtered, grouped, newest first) with totals. */
  timelinePage: TimelinePage;
  /** The details pane of one entry (payload read from its byte range, plan diff). */
  timelineDetail: TimelineEntryDetail | null;
  /** Line and hashes of one entry. */
  timelineEntry: TimelineEntryRef | null;
}

/** Replay from genesis against plan.json and the snapshot fast path. */
export interface ReplayComparison {
  /** The plan rebuilt from genesis, as plan.json bytes; null when none. */
  readonly replayed: string | null;
  /** `PlanManager.load`'s answer (latest snapshot + later entries). */
  readonly fastPath: string | null;
  /** plan.json on disk (null when missing). */
  readonly planJson: string | null;
  /** The replay or load error, if one failed. */
  readonly error: string | null;
  readonly entries: number;
}

/** What the host learns from a refresh. */
export interface RefreshResult {
  readonly update: SessionUpdate;
  readonly report: VerifyReport;
  /** The plan to show, ready to use once revived with `revivePlanClone` (structured clone); null for none. */
  readonly plan: Plan | null;
  readonly entries: number;
  /** The head worth remembering (clean ledger only). */
  readonly head: RememberedHead | null;
  /** Milliseconds the worker spent. */
  readonly ms: number;
  /** What to store to resume next time (clean ledger after a scan; absent when nothing was read). */
  readonly record?: VerificationRecord | null;
  /** True when a stored record did not hold because verified bytes changed (history rewritten). */
  readonly rewritten?: boolean;
}

/** Messages from the worker. */
export type WorkerMessage =
  | { readonly kind: "result"; readonly id: number; readonly ok: true; readonly result: unknown }
  | {
      readonly kind: "result";
      readonly id: number;
      readonly ok: false;
      readonly error: string;
      readonly errorName: string;
      readonly errorKind?: string;
    }
  | { readonly kind: "progress"; readonly cwd: string; readonly bytes: number; readonly total: number };

/** Distributes `Omit` over a union (so each request variant keeps its own fields). */
export type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
