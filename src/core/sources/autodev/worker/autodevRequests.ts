/**
 * AutoDev's own requests to the state worker (sent as `{ type: "source", kind: "autodev",
 * request }`) and their results: the ledger session of a folder (refresh, resume from a stored
 * record, full verification), the tail snapshot for a fast first paint, entry summaries, the plan
 * as of an entry, replay against plan.json, the history warnings, a locked status change and the
 * run view; the live check of a response being edited; and the evidence views (evidenceRequests.ts). The extension's AutoDev adapter is the only sender.
 */
import type { RememberedHead, SessionUpdate } from "../ledger/ledgerSession";
import type { EntrySummary, VerifyReport } from "../ledger/verifyTypes";
import type { VerificationRecord } from "../ledger/verificationRecord";
import type { Plan } from "../plan/schemas";
import type { AutodevContractResult } from "../contract/autodevContract";
import type { AutodevRunView } from "../run/runView";
import type { AutodevProblem } from "../autodevSnapshot";
import type { CreatedResponse } from "../inline/responseCreate";
import type { ResponseFinding } from "../inline/responseFile";
import type { TaskEvidence } from "../evidence/taskEvidence";
import type { StateFileRead } from "../stateFile";
import type { SourceTreeNode } from "../../stateSource";
import type { EvidenceRequest, EvidenceResults } from "./evidenceRequests";

/** One of AutoDev's requests about the folder it is sent for. */
export type AutodevRequest =
  | {
      readonly type: "refresh";
      /** A verification record stored by an earlier session (untrusted: validated), used by a fresh session to resume. */
      readonly record?: unknown;
      /** `autodev.historyWarnings`: false leaves the history warnings and the contract's findings out of `problems`. */
      readonly historyWarnings?: boolean;
    }
  | { readonly type: "verify"; readonly historyWarnings?: boolean }
  | { readonly type: "tailPlan" }
  | { readonly type: "entries"; readonly offset: number; readonly limit: number }
  | { readonly type: "planAt"; readonly seq: number }
  | { readonly type: "replayCompare" }
  | {
      readonly type: "setStatus";
      readonly taskId: string;
      readonly status: string;
      readonly sessionId: string;
      readonly lockTimeoutS: number;
      readonly readOnly: boolean;
    }
  | { readonly type: "runView"; readonly probeOnly: boolean }
  | { readonly type: "linksOut" }
  | { readonly type: "createResponse"; readonly taskId: string; readonly role: string }
  /** A response file's text as an editor holds it, checked by AutoDev's rules for the task and role its name says. */
  | { readonly type: "checkResponse"; readonly text: string; readonly taskId: string; readonly role: string }
  /** A state file of `.autodev/` as text (a run target's read-only artifact), at most `maxBytes`. */
  | { readonly type: "stateFileText"; readonly rel: string; readonly maxBytes: number }
  | {
      readonly type: "taskEvidence";
      readonly taskId: string;
      readonly status: string;
      readonly evidenceBundle: string | null;
    }
  | EvidenceRequest;

/** The result type of each AutoDev request. */
export interface AutodevResults extends EvidenceResults {
  refresh: RefreshResult;
  verify: RefreshResult;
  /** The plan of the tail snapshot (a fast first paint) and its tree (the plan alone). */
  tailPlan: { readonly plan: Plan | null; readonly seq: number | null; readonly tree: SourceTreeNode[] };
  entries: { readonly total: number; readonly items: EntrySummary[] };
  /** The plan as of entry `seq` and its tree (the plan alone, with the last changes up to it). */
  planAt: { readonly plan: Plan | null; readonly seq: number; readonly tree: SourceTreeNode[] };
  replayCompare: ReplayComparison;
  setStatus: { readonly seq: number };
  runView: AutodevRunView;
  /** The first of `.autodev/` and the ledger that resolves outside the folder (relative path), or why none could be resolved. */
  linksOut: { readonly link: string | null; readonly error: string | null };
  /** The response file made or found (responseCreate.ts), or why nothing was written. */
  createResponse: CreatedResponse | { readonly kind: "refused"; readonly message: string };
  /** What AutoDev would say of the response (responseFile.ts); no file is read. */
  checkResponse: ResponseFinding[];
  /** A task's evidence bundles, patch, diffs and tournaments (taskEvidence.ts). */
  taskEvidence: TaskEvidence;
  /** The file's text, or that it is missing, or why it was not read (stateFile.ts). */
  stateFileText: StateFileRead;
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
  /** AutoDev's tree of the state now (tree/stateTree.ts, what `autodevSource.tree` returns). */
  readonly tree: SourceTreeNode[];
  readonly entries: number;
  /** The head worth remembering (clean ledger only). */
  readonly head: RememberedHead | null;
  /** Milliseconds the worker spent. */
  readonly ms: number;
  /** What to store to resume next time (clean ledger after a scan; absent when nothing was read). */
  readonly record?: VerificationRecord | null;
  /** The phase contract on the state now (empty on a broken ledger), read in the same turn. */
  readonly contract: AutodevContractResult[];
  /** True when a stored record did not hold because verified bytes changed (history rewritten). */
  readonly rewritten?: boolean;
  /** Every problem of the state now (autodevSnapshot.ts, the composition `check` uses). */
  readonly problems: readonly AutodevProblem[];
  /** The run state's view (running, waiting, nodes), read in the same turn. */
  readonly run: AutodevRunView;
  /** Each plan task's last status change, by task id. */
  readonly lastChanges: Array<[string, TaskChange]>;
  /** Hold this answer back so many ms (a cut-off last line written just now: tailHold.ts), or null. */
  readonly holdMs: number | null;
  /** False in the plan phase: `.autodev/` but no ledger yet. */
  readonly hasLedger: boolean;
  /** Why the ledger could not be read (then `problems` says so and nothing else of the ledger is shown). */
  readonly unreadable?: string;
}
