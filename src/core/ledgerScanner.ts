/**
 * One pass over ledger lines that does what Python's `read_entries` and
 * `replay_ledger` do — JSON, schema, seq, prev_hash, self_hash, then replay —
 * but keeps going after the first error to map all of the damage. It is
 * incremental: feed it the lines appended since the last pass and it continues
 * from its state, so a live view reads only the new bytes.
 */
import { RawLine, decodeUtf8Strict, pyStrip } from "./ledgerLineReader";
import { PyJsonError, parsePyJson } from "./pyJsonParse";
import { LedgerEntry, Plan, validateLedgerEntry } from "./schemas";
import { computeHash } from "./ledgerHash";
import { ledgerEntryHashInput } from "./schemas";
import { ReplayError, applyStrict, TaskChange } from "./replay";
import { canTransition } from "./taskFsm";
import { DamageClassifier } from "./damageClassifier";
import { EntrySummary, LedgerHead, VerifyErrorKind, VerifyFinding, VerifyWarning } from "./verifyTypes";
import { FastLine, fastCanonicalLine } from "./fastCanonical";

/** Options of a scan. */
export interface ScanOptions {
  /** Replay the plan while scanning (as `replay_ledger`); default true. */
  readonly replay?: boolean;
  /** Called for each entry that parsed, with its summary (timeline index). */
  readonly onEntry?: (summary: EntrySummary, entry: LedgerEntry | null) => void;
  /** Stop recording findings after this many (a final `more_errors` finding counts the rest). */
  readonly maxFindings?: number;
  /** Use the canonical-bytes fast path (default true); false forces the full parse for every line. */
  readonly fastPath?: boolean;
}

/** The scanner's state between feeds. */
export class LedgerScanner {
  private prevSeq: number | bigint = 0;
  private prevHash = "";
  private linkKnown = true;
  private chainError: VerifyFinding | null = null;
  private replayError: VerifyFinding | null = null;
  private readonly findings: VerifyFinding[] = [];
  private readonly warningList: VerifyWarning[] = [];
  private suppressed = 0;
  private count = 0;
  private headInfo: LedgerHead | null = null;
  private planState: Plan | null = null;
  private replayBroken = false;
  private readonly damage = new DamageClassifier((f) => this.record(f));
  private bytesSeen = 0;

  constructor(private readonly options: ScanOptions = {}) {}

  /** Feeds one physical line. */
  feed(raw: RawLine): void {
    this.bytesSeen = Math.max(this.bytesSeen, raw.end);
    const fast = this.options.fastPath === false ? null : fastCanonicalLine(raw.bytes);
    if (fast) return this.accept(raw, fast.entryLazy, fast);
    const text = decodeUtf8Strict(raw.bytes);
    if (text === null) {
      return this.unparsed(raw, "invalid_json", `ledger line ${raw.lineNo} is not valid UTF-8 text. Inspect and repair (or restore from snapshot).`);
    }
    const line = pyStrip(text);
    if (line.length === 0) return;
    let obj;
    try {
      obj = parsePyJson(line);
    } catch (e) {
      const why = line.charCodeAt(0) === 0xfeff ? "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)" : e instanceof PyJsonError ? e.message : String(e);
      return this.unparsed(raw, "invalid_json", `ledger line ${raw.lineNo} is not valid JSON: ${why}. Inspect and repair (or restore from snapshot).`);
    }
    const res = validateLedgerEntry(obj);
    if (!res.ok) {
      return this.unparsed(raw, "schema", `ledger line ${raw.lineNo} failed schema validation: ${res.error}`);
    }
    this.accept(raw, () => res.value, null);
  }

  private unparsed(raw: RawLine, kind: VerifyErrorKind, message: string): void {
    const finding: VerifyFinding = { line: raw.lineNo, seq: null, kind, message, atLine: raw.lineNo };
    this.chainFinding(finding);
    this.damage.unparsed(raw.lineNo, !raw.terminated);
    this.linkKnown = false;
  }

  private accept(raw: RawLine, getEntry: () => LedgerEntry, fast: FastLine | null): void {
    const entry = fast ? null : getEntry();
    const seq = fast ? fast.seq : entry!.seq;
    const prevHash = fast ? fast.prevHash : entry!.prev_hash;
    const selfHash = fast ? fast.selfHash : entry!.self_hash;
    const computed = fast ? fast.computedHash : computeHash(ledgerEntryHashInput(entry!));
    const L = raw.lineNo;
    let problem: VerifyFinding | null = null;
    const expected = typeof this.prevSeq === "bigint" || typeof seq === "bigint" ? BigInt(this.prevSeq) + 1n : this.prevSeq + 1;
    if (this.linkKnown && seq != expected) {
      problem = { line: L, seq, kind: "seq_jump", message: `ledger line ${L}: seq jumped from ${this.prevSeq} to ${seq}`, atLine: L };
    } else if (this.linkKnown && prevHash !== this.prevHash) {
      problem = { line: L, seq, kind: "prev_hash_mismatch", message: `ledger line ${L}: prev_hash mismatch (expected '${this.prevHash}', saw '${prevHash}')`, atLine: L };
    } else if (computed !== selfHash) {
      problem = { line: L, seq, kind: "self_hash_mismatch", message: `ledger line ${L}: self_hash mismatch (computed ${computed}, stored ${selfHash})`, atLine: L };
    }
    if (problem) this.chainFinding(problem);
    this.damage.entry({ line: L, seq, prevHash, selfHash, hashOk: computed === selfHash, expectedPrev: this.prevHash, expectedSeq: expected, linkKnown: this.linkKnown });
    this.prevSeq = seq;
    this.prevHash = selfHash;
    this.linkKnown = true;
    this.count++;
    if (!problem && this.chainError === null) this.headInfo = { seq, selfHash, line: L, endOffset: raw.end };

    const full = this.options.replay !== false || this.options.onEntry ? entry ?? getEntry() : null;
    let change: TaskChange | null = null;
    if (this.options.replay !== false && full) change = this.replayOne(full, L);
    if (this.options.onEntry && full) {
      const taskId = full.payload.get("task_id");
      this.options.onEntry(
        {
          seq: Number(seq),
          line: L,
          start: raw.start,
          end: raw.end,
          op: full.op,
          timestamp: full.timestamp,
          sessionId: full.session_id,
          selfHash,
          taskId: change?.taskId ?? (typeof taskId === "string" ? taskId : null),
          fromStatus: change?.from ?? null,
          toStatus: change?.to ?? null,
          chain: problem ? problem.kind : "ok",
        },
        full,
      );
    }
  }

  private replayOne(entry: LedgerEntry, line: number): TaskChange | null {
    if (this.replayBroken && entry.op !== "init_plan" && entry.op !== "update_plan" && entry.op !== "snapshot") return null;
    try {
      const applied = applyStrict(this.planState, entry);
      this.planState = applied.plan;
      this.replayBroken = false;
      const c = applied.change;
      if (c && c.from !== null && c.from !== c.to && !canTransition(c.from, c.to)) {
        this.warningList.push({
          atLine: line,
          seq: entry.seq,
          kind: "fsm_violation",
          message: `entry seq=${entry.seq} moved task ${c.taskId} from '${c.from}' to '${c.to}', which the task state machine does not allow`,
        });
      }
      return c;
    } catch (e) {
      if (!(e instanceof ReplayError)) throw e;
      const finding: VerifyFinding = { line: null, seq: e.seq, kind: e.kind, message: e.message, atLine: line };
      if (this.replayError === null) this.replayError = finding;
      else this.record(finding);
      this.replayBroken = true;
      return null;
    }
  }

  private chainFinding(f: VerifyFinding): void {
    if (this.chainError === null) this.chainError = f;
    else this.record(f);
  }

  private record(f: VerifyFinding): void {
    const max = this.options.maxFindings ?? 1000;
    if (this.findings.length < max) this.findings.push(f);
    else this.suppressed++;
  }

  /** The plan as replayed so far (null before any plan op, or when replay is off). */
  get plan(): Plan | null {
    return this.planState;
  }

  /** Number of entries that parsed. */
  get entries(): number {
    return this.count;
  }

  /** The last entry of the verified prefix (null when none or the first entry is bad). */
  get head(): LedgerHead | null {
    return this.headInfo;
  }

  /** True when no chain or replay error was found so far. */
  get ok(): boolean {
    return this.chainError === null && this.replayError === null;
  }

  /** Bytes covered so far. */
  get bytes(): number {
    return this.bytesSeen;
  }

  /** Findings, `errors[0]` first as Python would report it (chain errors win over replay errors). */
  errors(): VerifyFinding[] {
    this.damage.flush();
    const first = this.chainError ?? this.replayError;
    const out: VerifyFinding[] = first ? [first] : [];
    if (this.chainError && this.replayError) out.push(this.replayError);
    out.push(...this.findings);
    if (this.suppressed > 0) {
      out.push({ line: null, seq: null, kind: "more_errors", message: `${this.suppressed} more findings not listed`, atLine: 0 });
    }
    return out;
  }

  /** Warnings (not corruption): FSM violations in history. */
  warnings(): VerifyWarning[] {
    return [...this.warningList];
  }
}
