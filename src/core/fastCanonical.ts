/**
 * Fast path for lines that are already in Python's canonical form (replaced
 * by the full implementation in the benchmark work; returns null = "use the
 * full path" for every line until then).
 */
import { LedgerEntry } from "./schemas";

/** What the fast path extracts from a canonical line. */
export interface FastLine {
  readonly seq: number;
  readonly prevHash: string;
  readonly selfHash: string;
  readonly computedHash: string;
  readonly entryLazy: () => LedgerEntry;
}

/** Returns the line's facts when it is provably canonical, else null. */
export function fastCanonicalLine(_bytes: Buffer): FastLine | null {
  return null;
}
