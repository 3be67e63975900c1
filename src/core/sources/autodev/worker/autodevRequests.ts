/**
 * AutoDev's own requests to the state worker (sent as `{ type: "source", kind: "autodev",
 * request }`) and their results: the ledger session of a folder (refresh, resume from a stored
 * record, full verification), the tail snapshot for a fast first paint, entry summaries, the plan
 * as of an entry, replay against plan.json, the history warnings, a locked status change and the
 * run view. The extension's AutoDev adapter is the only sender.
 */
import type { RememberedHead, SessionUpdate } from "../ledger/ledgerSession";
import type { EntrySummary, VerifyReport, VerifyWarning } from "../ledger/verifyTypes";
import type { VerificationRecord } from "../ledger/verificationRecord";
import type { Plan } from "../plan/schemas";
import type { AutodevContractResult } from "../contract/autodevContract";
import type { AutodevRunView } from "../run/runView";
import type { RunPlan } from "../run/runState";

/** One of AutoDev's requests about the folder it is sent for. */
export type AutodevRequest =
  | {
      readonly type: "refresh";
      /** A verification record stored by an earlier session (untrusted: validated), used by a fresh session to resume. */
      readonly record?: unknown;
    }
  | { readonly type: "verify" }
  | { readonly type: "tailPlan" }
  | { readonly type: "entries"; readonly offset: number; readonly limit: number }
  | { readonly type: "planAt"; readonly seq: number }
  | { readonly type: "replayCompare" }
  | { readonly type: "historyWarnings" }
  | { readonly type: "lastChanges" }
  | { readonly type: "contract" }
  | {
      readonly type: "setStatus";
      readonly taskId: string;
      readonly status: string;
      readonly sessionId: string;
      readonly lockTimeoutS: number;
      readonly readOnly: boolean;
    }
  | { readonly type: "runView"; readonly plan: RunPlan; readonly probeOnly: boolean };

/** The result type of each AutoDev request. */
export interface AutodevResults {
  refresh: RefreshResult;
  verify: RefreshResult;
  tailPlan: { readonly plan: Plan | null; readonly seq: number | null };
  entries: { readonly total: number; readonly items: EntrySummary[] };
  planAt: { readonly plan: Plan | null; readonly seq: number };
  replayCompare: ReplayComparison;
  historyWarnings: VerifyWarning[];
  /** Each plan task's last status change (newest entry naming it with a status), by task id. */
  lastChanges: Array<[string, TaskChange]>;
  /** The phase contract on the session's intact ledger (empty list otherwise): at most one result. */
  contract: AutodevContractResult[];
  setStatus: { readonly seq: number };
  runView: AutodevRunView;
}

/** The last status change of one task: the entry and what it did. */
export interface TaskChange {
  readonly seq: number;
  readonly line: number;
  readonly fromStatus: string | null;
  readonly toStatus: string;
  readonly retryCount: number | null;
  readonly escalated: boolean;
  readonly timestamp: string;
  readonly sessionId: string;
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

/** What the host learns from a refresh or a verification. */
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
  /**
   * The phase contract on the new state, read in the same turn when the ledger changed (as the
   * `contract` request answers), so Problems shows the new state with the tree; absent when
   * nothing was read.
   */
  readonly contract?: AutodevContractResult[];
  /** True when a stored record did not hold because verified bytes changed (history rewritten). */
  readonly rewritten?: boolean;
}
