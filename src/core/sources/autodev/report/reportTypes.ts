/**
 * The run report of one `.autodev/` folder, as plain data: the plan, every task with its status
 * history from the ledger, its evidence and diffs in one line each, the tournaments, the knowledge
 * counts and the verified head with the verdict. Every string in it comes from the state files and
 * is untrusted: the Markdown and HTML renderers escape it, the JSON renderer keeps it exact.
 */

/** One status change of a task, as the ledger records it. */
export interface StatusChange {
  readonly seq: number;
  readonly timestamp: string;
  readonly from: string | null;
  readonly to: string;
  /** The retry count the entry set, when it recorded a retry. */
  readonly retry: number | null;
  /** True when the entry escalated the task. */
  readonly escalated: boolean;
  /** "ok", or the kind of the first chain problem at this entry (the row is then not verified). */
  readonly chain: string;
}

/** One evidence bundle, summarised. */
export interface EvidenceLine {
  readonly kind: string;
  readonly file: string;
  readonly ok: boolean;
  /** The one-line summary ("review APPROVED with 2 issues"), or why the bundle is invalid. */
  readonly summary: string;
  /** True when the bundle reports a failure or a rejection. */
  readonly failed: boolean;
}

/** One diff of a task (its patch, the developer's diff, a tournament's final diff), summarised. */
export interface DiffLine {
  readonly source: string;
  readonly file: string;
  readonly ok: boolean;
  /** Files the diff touches (0 when it does not parse). */
  readonly files: number;
  /** "4 files, +22 −7", or why the diff does not parse. */
  readonly summary: string;
  /** Whether the user marked it reviewed (the editor's reviewed marks), when known. */
  readonly reviewed?: boolean;
}

/** One task of the report. */
export interface ReportTask {
  readonly id: string;
  readonly phaseId: string;
  readonly title: string;
  readonly status: string;
  readonly retryCount: number;
  readonly escalated: boolean;
  readonly blockedReason: string | null;
  readonly dependsOn: readonly string[];
  /** Status changes, oldest first (the most recent ones when there are more than the caps allow). */
  readonly history: readonly StatusChange[];
  /** Older changes left out of `history`. */
  readonly historyOmitted: number;
  readonly evidence: readonly EvidenceLine[];
  readonly diffs: readonly DiffLine[];
  /** Evidence kinds the status implies but that are missing. */
  readonly missing: readonly string[];
}

/** One phase of the report. */
export interface ReportPhase {
  readonly id: string;
  readonly title: string;
  readonly tasks: readonly ReportTask[];
}

/** One tournament, summarised. */
export interface ReportTournament {
  readonly id: string;
  readonly phase: string;
  readonly taskId: string | null;
  readonly passes: number;
  readonly winner: string | null;
  readonly converged: boolean | null;
  readonly finished: boolean;
  readonly errors: readonly string[];
}

/** A chain finding, for the verdict. */
interface ReportFinding {
  readonly line: number | null;
  readonly seq: number | null;
  readonly kind: string;
  readonly message: string;
}

/** The whole report. */
export interface RunReport {
  /** When the report was made (ISO 8601, UTC). */
  readonly generatedAt: string;
  /** The workspace folder's name (never its full path: reports are shared). */
  readonly workspace: string;
  /** True when the hash chain and the replay verify. */
  readonly ok: boolean;
  readonly entries: number;
  /** The last verified entry (on a broken ledger: the last good one before the damage). */
  readonly head: { readonly seq: number; readonly selfHash: string } | null;
  /** One sentence: verified, or broken and where. */
  readonly verdict: string;
  /** The first findings (at most {@link MAX_REPORT_FINDINGS}). */
  readonly findings: readonly ReportFinding[];
  /** True when the plan shown is the verified replay; false when it is the unverified tail of a broken ledger. */
  readonly planVerified: boolean;
  readonly planId: string | null;
  readonly title: string | null;
  readonly specHash: string | null;
  readonly updatedAt: string | null;
  readonly phases: readonly ReportPhase[];
  readonly tournaments: readonly ReportTournament[];
  readonly knowledge: {
    readonly swarm: number;
    readonly hive: number;
    readonly rejected: number;
    readonly skipped: number;
    readonly errors: readonly string[];
  };
  /** What the report could not include, one sentence each. */
  readonly notes: readonly string[];
  /** Tournament files that could not be read (each also a note): the `tournaments` command's failures. */
  readonly tournamentErrors: number;
}

/** Most status changes kept per task (the latest ones). */
export const MAX_HISTORY_PER_TASK = 500;
/** Most status changes kept over all tasks (a fair share each when many tasks have long histories). */
export const MAX_HISTORY_TOTAL = 100_000;
/** Most distinct tasks whose history is tracked while the ledger streams. */
export const MAX_TRACKED_TASKS = 10_000;
/** Most tasks whose evidence is read. */
export const MAX_EVIDENCE_TASKS = 2000;
/** Most chain findings listed. */
export const MAX_REPORT_FINDINGS = 20;
