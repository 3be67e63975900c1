/**
 * AutoDev's ledger entries as the neutral timeline's rows, mapped once each
 * as the ledger session grows (the features and words: ledgerTimelineWords.ts).
 */
import type { TimelineIndexEntry } from "../../../timeline/timelineTypes";
import type { EntrySummary } from "../ledger/verifyTypes";

/** The neutral row of a ledger entry. */
export function ledgerRowOf(e: EntrySummary): TimelineIndexEntry {
  return {
    id: e.seq,
    line: e.line,
    time: e.timestamp,
    actor: e.sessionId,
    action: e.op,
    taskId: e.taskId,
    fromStatus: e.fromStatus,
    toStatus: e.toStatus,
    hash: e.selfHash,
    chainProblem: e.chain,
    retryCount: e.retryCount,
    escalated: e.escalated,
  };
}

/** The neutral rows of one ledger session's entry array, extended as appends grow it (one row per entry, made once). */
export class LedgerRows {
  readonly rows: TimelineIndexEntry[] = [];

  constructor(readonly entries: readonly EntrySummary[]) {}

  /** Maps the entries appended since the last call; returns the live row array. */
  sync(): readonly TimelineIndexEntry[] {
    const { rows, entries } = this;
    for (let i = rows.length; i < entries.length; i++) rows.push(ledgerRowOf(entries[i]));
    return rows;
  }
}
