/**
 * Result types of ledger verification, shared by the CLI, the extension and
 * the verify worker. `kind` strings for the first error match Python
 * AutoDev's checks; later findings add kinds that classify the damage.
 */

/** Python's checks, in the order Python applies them, plus replay failures. */
type PythonErrorKind =
  | "invalid_json"
  | "schema"
  | "seq_jump"
  | "prev_hash_mismatch"
  | "self_hash_mismatch"
  | "missing_plan_payload"
  | "before_init"
  | "unknown_task"
  | "plan_invalid"
  | "bad_payload"
  | "unknown_op";

/** What the damage looks like, for the findings after the first. */
type DamageKind =
  | "edited_entry"
  | "dropped_entries"
  | "inserted_entry"
  | "reordered_entries"
  | "duplicate_entry"
  | "truncated_tail"
  | "corrupt_line"
  | "line_too_long"
  | "more_errors";

/** Every kind a finding can have. */
export type VerifyErrorKind = PythonErrorKind | DamageKind;

/** One integrity problem. */
export interface VerifyFinding {
  /** Physical line (1-based) for read errors; null for replay errors. */
  readonly line: number | null;
  /** Entry seq for replay errors (and read errors where the line parsed); else null. */
  readonly seq: number | bigint | null;
  readonly kind: VerifyErrorKind;
  readonly message: string;
  /** The physical line the finding is about, even for replay errors (for diagnostics). */
  readonly atLine: number;
}

/** A lower-severity observation that is not corruption. */
export interface VerifyWarning {
  readonly atLine: number;
  readonly seq: number | bigint | null;
  readonly kind:
    | "fsm_violation"
    | "missing_evidence"
    | "evidence_bundle_dangling"
    | "plan_json_mismatch"
    | "plan_json_missing"
    | "rollback"
    | "fork";
  readonly message: string;
}

/** The last verified entry. */
export interface LedgerHead {
  readonly seq: number | bigint;
  readonly selfHash: string;
  /** Physical line of the entry. */
  readonly line: number;
  /** Byte offset just past the entry's line terminator. */
  readonly endOffset: number;
}

/** Outcome of `verify`: `errors[0]` is what Python reports first. */
export interface VerifyReport {
  readonly ok: boolean;
  readonly entries: number;
  readonly head: LedgerHead | null;
  readonly errors: readonly VerifyFinding[];
  readonly warnings: readonly VerifyWarning[];
  /** Bytes of the ledger file that were read. */
  readonly bytes: number;
}

/** One ledger entry in brief, one small record per entry kept by the ledger session (the timeline maps it to a row). */
export interface EntrySummary {
  readonly seq: number;
  readonly line: number;
  /** Byte range of the line, to load its payload on demand. */
  readonly start: number;
  readonly end: number;
  readonly op: string;
  readonly timestamp: string;
  readonly sessionId: string;
  readonly selfHash: string;
  readonly taskId: string | null;
  readonly fromStatus: string | null;
  readonly toStatus: string | null;
  /** The new retry count when the entry recorded a retry, else null. */
  readonly retryCount: number | null;
  /** True when the entry escalated the task. */
  readonly escalated: boolean;
  /** "ok", or the kind of the first problem found at this entry. */
  readonly chain: "ok" | VerifyErrorKind;
}
