/**
 * The error types of the state layer, mirroring Python AutoDev's `errors.py`
 * names so users searching either code base find the same words.
 */

/** Base class of every error the state layer raises on purpose. */
class AutodevError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** One place in the ledger where integrity is broken. */
export interface LedgerProblem {
  /** Physical line number (1-based), for read errors. */
  readonly line: number | null;
  /** Entry seq, for replay errors. */
  readonly seq: number | bigint | null;
  /** Machine-readable class of the problem (see `VerifyErrorKind`). */
  readonly kind: string;
  /** What was expected, what was found, what to do. */
  readonly message: string;
}

/** Ledger integrity violation: bad JSON, schema, broken chain, impossible replay. */
export class LedgerCorruptError extends AutodevError {
  constructor(
    message: string,
    readonly problem?: LedgerProblem,
  ) {
    super(message);
  }
}

/** A plan mutation against state that does not allow it (no plan, unknown task, plan exists). */
export class PlanConcurrentModificationError extends AutodevError {}

/** A status change the task FSM forbids; the ledger is untouched. */
export class InvalidTransitionError extends AutodevError {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly allowed: readonly string[],
  ) {
    super(
      `invalid task transition '${from}' -> '${to}'; allowed from '${from}': [${allowed.map((s) => `'${s}'`).join(", ")}]`,
    );
  }
}

/** A write the phase contract forbids (a status without its evidence); refused before anything is written. */
export class ContractRefusedError extends AutodevError {}

/** `.autodev/.lock` could not be acquired in time. */
export class PlanLockTimeoutError extends AutodevError {
  constructor(
    readonly timeoutSeconds: number,
    detail = "",
  ) {
    super(
      `could not acquire .autodev/.lock within ${timeoutSeconds}s${detail ? ` (${detail})` : ""}. ` +
        "Another AutoDev process (Python or this extension) is writing; wait for it to finish, or raise the lock timeout.",
    );
  }
}

/** A write was refused before touching disk (untrusted workspace, ledger outside the workspace, corrupt tail). */
export class WriteRefusedError extends AutodevError {}

/** Bad input from a user or file (not ledger corruption): bad arguments, invalid plan file, bad evidence. */
export class InvalidInputError extends AutodevError {}

/**
 * A write that stopped half-way: the audit entry is in the ledger (which stays
 * valid and holds the change) but plan.json and/or the snapshot entry are not.
 * The message says exactly which; the next write completes the snapshot first.
 */
export class PartialCommitError extends AutodevError {
  constructor(
    message: string,
    /** seq of the audit entry that was appended. */
    readonly auditSeq: number | bigint,
    /** True when plan.json was rewritten before the failure. */
    readonly planJsonWritten: boolean,
  ) {
    super(message);
  }
}

/**
 * Runs `fn` with no stack trace captured for an error thrown in it: for errors that are only
 * counted or worded by their message, where capturing the stack is most of their cost.
 */
export function withoutStackTraces<T>(fn: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return fn();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
