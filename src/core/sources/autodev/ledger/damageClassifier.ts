/**
 * Turns the raw check failures of a ledger scan into what happened to the
 * file: an entry edited in place, entries dropped, a foreign line inserted,
 * lines reordered or duplicated, a torn final line. It looks one entry ahead,
 * so a verdict about line N may be issued when line N+1 arrives.
 */
import { VerifyFinding } from "./verifyTypes";

/** What the classifier needs to know about each parsed entry. */
export interface EntryFacts {
  readonly line: number;
  readonly seq: number | bigint;
  readonly prevHash: string;
  readonly selfHash: string;
  /** True when the stored self_hash matches the recomputed one. */
  readonly hashOk: boolean;
  /** The self_hash of the previous entry (what prev_hash should be). */
  readonly expectedPrev: string;
  /** previous seq + 1 */
  readonly expectedSeq: number | bigint;
  /** False right after an unparseable line (the link cannot be judged). */
  readonly linkKnown: boolean;
}

const WINDOW = 256;

/** Classifies damage with a small look-back window and one entry of look-ahead. */
export class DamageClassifier {
  /**
   * The last {@link WINDOW} entries' seq, self_hash and line, in a ring (slot
   * `count % WINDOW`): copied out of the facts, so no object outlives its line.
   */
  private readonly recentSeq: (number | bigint)[] = new Array<number | bigint>(WINDOW).fill(-1);
  private readonly recentHash: string[] = new Array<string>(WINDOW).fill("");
  private readonly recentLine = new Float64Array(WINDOW);
  private recentCount = 0;
  private suspectInserted: EntryFacts | null = null;
  private lastUnparsed: { line: number; unterminated: boolean } | null = null;

  constructor(private readonly emit: (f: VerifyFinding) => void) {}

  /** A line that did not parse as an entry (bad UTF-8, bad JSON, bad schema). */
  unparsed(line: number, unterminated: boolean): void {
    this.resolveSuspect(null);
    if (this.lastUnparsed && this.lastUnparsed.unterminated === false) this.emitCorrupt(this.lastUnparsed.line);
    this.lastUnparsed = { line, unterminated };
  }

  /** A parsed entry, with the outcome of its checks. */
  entry(e: EntryFacts): void {
    if (this.lastUnparsed) {
      this.emitCorrupt(this.lastUnparsed.line);
      this.lastUnparsed = null;
    }
    this.resolveSuspect(e);
    if (!e.hashOk) {
      this.emit({
        line: e.line,
        seq: e.seq,
        kind: "edited_entry",
        atLine: e.line,
        message: `line ${e.line} (seq ${e.seq}) was changed after it was written: its content no longer matches its self_hash. Restore the original line from a backup or a copy of the ledger.`,
      });
    }
    if (e.linkKnown) {
      // eslint-disable-next-line eqeqeq -- seq may be a bigint: == compares it with a number by value
      const seqOk = e.seq == e.expectedSeq;
      const linkOk = e.prevHash === e.expectedPrev;
      if (!seqOk && e.seq > e.expectedSeq && !linkOk) {
        const missing = BigInt(e.seq) - BigInt(e.expectedSeq);
        this.emit({
          line: e.line,
          seq: e.seq,
          kind: "dropped_entries",
          atLine: e.line,
          message: `${missing} entr${missing === 1n ? "y is" : "ies are"} missing before line ${e.line} (seq ${e.expectedSeq}${missing > 1n ? `–${BigInt(e.seq) - 1n}` : ""}).`,
        });
      } else if (!seqOk && e.seq < e.expectedSeq) {
        const twin = this.twin(e.seq);
        const dup = twin && twin.selfHash === e.selfHash;
        this.emit({
          line: e.line,
          seq: e.seq,
          kind: dup ? "duplicate_entry" : "reordered_entries",
          atLine: e.line,
          message: dup
            ? `line ${e.line} repeats the entry of line ${twin!.line} (seq ${e.seq}); delete the duplicate line.`
            : `line ${e.line} (seq ${e.seq}) is out of order: seq ${e.expectedSeq} was expected here${twin ? `, and seq ${e.seq} already appeared at line ${twin.line}` : ""}.`,
        });
      } else if (seqOk && !linkOk) {
        this.suspectInserted = e;
      }
    }
    const slot = this.recentCount++ % WINDOW;
    this.recentSeq[slot] = e.seq;
    this.recentHash[slot] = e.selfHash;
    this.recentLine[slot] = e.line;
  }

  /**
   * {@link entry} for an entry whose link and hash checks all passed: when no
   * verdict is waiting for look-ahead, that entry can only be remembered, so
   * this does just that (no facts object per line) and returns true; otherwise
   * it does nothing and returns false (call {@link entry}).
   */
  cleanEntry(line: number, seq: number | bigint, selfHash: string): boolean {
    if (this.lastUnparsed !== null || this.suspectInserted !== null) return false;
    const slot = this.recentCount++ % WINDOW;
    this.recentSeq[slot] = seq;
    this.recentHash[slot] = selfHash;
    this.recentLine[slot] = line;
    return true;
  }

  /** The oldest of the last {@link WINDOW} entries with this seq, or undefined. */
  private twin(seq: number | bigint): { line: number; selfHash: string } | undefined {
    const kept = Math.min(this.recentCount, WINDOW);
    for (let k = this.recentCount - kept; k < this.recentCount; k++) {
      const slot = k % WINDOW;
      // eslint-disable-next-line eqeqeq -- seq may be a bigint: == compares it with a number by value
      if (this.recentSeq[slot] == seq) return { line: this.recentLine[slot], selfHash: this.recentHash[slot] };
    }
    return undefined;
  }

  /** Issues any verdict still waiting for look-ahead (call at the end of a scan). */
  flush(): void {
    this.resolveSuspect(null);
    if (this.lastUnparsed) {
      const { line, unterminated } = this.lastUnparsed;
      if (unterminated) {
        this.emit({
          line,
          seq: null,
          kind: "truncated_tail",
          atLine: line,
          message: `the last line (${line}) is incomplete — a write was cut off. Python AutoDev refuses to append after it: remove that line (the entries before it are intact).`,
        });
      } else this.emitCorrupt(line);
      this.lastUnparsed = null;
    }
  }

  private emitCorrupt(line: number): void {
    this.emit({
      line,
      seq: null,
      kind: "corrupt_line",
      atLine: line,
      message: `line ${line} is not a ledger entry; remove or repair it, or restore the ledger from a copy.`,
    });
  }

  private resolveSuspect(next: EntryFacts | null): void {
    const s = this.suspectInserted;
    if (!s) return;
    this.suspectInserted = null;
    // eslint-disable-next-line eqeqeq -- seq may be a bigint: == compares it with a number by value
    if (next && next.seq == s.seq && next.prevHash === s.expectedPrev) {
      this.emit({
        line: s.line,
        seq: s.seq,
        kind: "inserted_entry",
        atLine: s.line,
        message: `line ${s.line} was inserted: it does not link to the entry before it, and the next line links past it. Delete line ${s.line}.`,
      });
    } else if (next && next.prevHash === s.selfHash) {
      this.emit({
        line: s.line,
        seq: s.seq,
        kind: "edited_entry",
        atLine: s.line,
        message: `line ${s.line} (seq ${s.seq}) no longer links to the entry before it: its prev_hash, or the previous entry's self_hash, was edited.`,
      });
    } else {
      this.emit({
        line: s.line,
        seq: s.seq,
        kind: "corrupt_line",
        atLine: s.line,
        message: `line ${s.line} (seq ${s.seq}) does not link to the entry before it (prev_hash ${s.prevHash}, expected ${s.expectedPrev}).`,
      });
    }
  }
}
