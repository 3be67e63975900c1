/**
 * One pass over ledger lines that does what Python's `read_entries` and
 * `replay_ledger` do — JSON, schema, seq, prev_hash, self_hash, then replay —
 * but keeps going after the first error to map all of the damage. It is
 * incremental: feed it the lines appended since the last pass and it continues
 * from its state, so a live view reads only the new bytes.
 */
import { RawLine } from "./read/ledgerLineReader";
import { decodeUtf8Strict } from "../../../text/utf8";
import { pyStrip } from "../../../pyjson/pyBuiltins";
import { displayMessage, displayValue } from "../../../text/displayText";
import { PyJsonError, parsePyJson } from "../../../pyjson/pyJsonParse";
import { LedgerEntry, Plan, validateLedgerEntry } from "../plan/schemas";
import { computeEntryHash } from "./ledgerHash";
import { TaskChange } from "./replay";
import { ScannerReplay } from "./scannerReplay";
import { DamageClassifier } from "./damageClassifier";
import { EntrySummary, LedgerHead, VerifyErrorKind, VerifyFinding, VerifyWarning } from "./verifyTypes";
import { FAST_PATHS_MATCH_SCHEMAS, FastLine, fastCanonicalLine } from "../canonical/fastCanonical";

/** Options of a scan. */
export interface ScanOptions {
  /** Replay the plan while scanning (as `replay_ledger`); default true. */
  readonly replay?: boolean;
  /**
   * Called for each entry that parsed, with its summary (timeline index). The
   * second argument is the entry itself when {@link entryArgument} is true; by
   * default that is the case when the callback declares two parameters, so a
   * callback that only takes the summary never pays for building entries
   * (it receives null instead).
   */
  readonly onEntry?: (summary: EntrySummary, entry: LedgerEntry | null) => void;
  /** Pass the LedgerEntry to `onEntry` (default: `onEntry.length >= 2`). */
  readonly entryArgument?: boolean;
  /** Stop recording findings after this many (a final `more_errors` finding counts the rest). */
  readonly maxFindings?: number;
  /** Use the canonical-bytes fast path (default true); false forces the full parse for every line. */
  readonly fastPath?: boolean;
}

/**
 * The scanner's state between feeds: the chain (seq, hashes), the findings,
 * the damage map and the head; replay is {@link ScannerReplay}'s.
 */
export class LedgerScanner {
  private prevSeq: number | bigint = 0;
  private prevHash = "";
  private linkKnown = true;
  private chainError: VerifyFinding | null = null;
  private readonly findings: VerifyFinding[] = [];
  private readonly warningList: VerifyWarning[] = [];
  private suppressed = 0;
  private count = 0;
  private headInfo: LedgerHead | null = null;
  private readonly replay = new ScannerReplay(
    (w) => this.warningList.push(w),
    (f) => this.record(f),
  );
  private readonly damage = new DamageClassifier((f) => this.record(f));
  private bytesSeen = 0;
  private readonly replayOn: boolean;
  private readonly entryArg: boolean;

  constructor(private readonly options: ScanOptions = {}) {
    this.replayOn = options.replay !== false;
    this.entryArg = options.onEntry !== undefined && (options.entryArgument ?? options.onEntry.length >= 2);
  }

  /**
   * Continues a chain verified earlier (see verificationRecord.ts): the next
   * line fed must be the entry after `prevSeq`/`prevHash`, and should be a
   * plan-carrying one, so replay restarts from its plan. Only on a fresh scanner.
   */
  resumeChain(prevSeq: number, prevHash: string, entriesBefore: number): void {
    if (this.count > 0 || this.bytesSeen > 0) throw new Error("internal error: resumeChain on a scanner that was fed");
    this.prevSeq = prevSeq;
    this.prevHash = prevHash;
    this.count = entriesBefore;
  }

  /** Feeds one physical line. */
  feed(raw: RawLine): void {
    const fast =
      raw.overLimit !== undefined || this.options.fastPath === false
        ? null
        : fastCanonicalLine(raw.bytes, this.replayOn);
    this.feedScanned(raw, fast, null);
  }

  /**
   * True when lines may be proven elsewhere (a worker thread) and fed with
   * {@link feedScanned}: the fast path is on and no callback wants entry objects.
   */
  get acceptsScannedLines(): boolean {
    return FAST_PATHS_MATCH_SCHEMAS && this.options.fastPath !== false && !this.entryArg;
  }

  /** Whether plan payloads should be proven (and their skeletons handed over) for this scan. */
  get wantsPlans(): boolean {
    return this.replayOn;
  }

  /**
   * Feeds one physical line whose fast-path facts were already found
   * (`fastCanonicalLine(raw.bytes, this.wantsPlans)`, maybe in another
   * thread; null when the line is not canonical: then `raw.bytes` must hold the
   * line). For a line with a plan skeleton `raw.bytes` may be empty and
   * `planBytes` supplies the plan's canonical bytes when the full plan is built.
   */
  feedScanned(raw: RawLine, fast: FastLine | null, planBytes: (() => Buffer) | null): void {
    this.bytesSeen = Math.max(this.bytesSeen, raw.end);
    if (raw.overLimit !== undefined) {
      return this.unparsed(raw, "line_too_long", lineTooLongMessage(raw.lineNo, raw.end - raw.start, raw.overLimit));
    }
    if (fast) return this.acceptFast(raw, fast, planBytes);
    const text = decodeUtf8Strict(raw.bytes);
    if (text === null) {
      return this.unparsed(
        raw,
        "invalid_json",
        `ledger line ${raw.lineNo} is not valid UTF-8 text. Inspect and repair (or restore from snapshot).`,
      );
    }
    const line = pyStrip(text);
    if (line.length === 0) return;
    let obj;
    try {
      obj = parsePyJson(line);
    } catch (e) {
      const why =
        line.charCodeAt(0) === 0xfeff
          ? "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"
          : e instanceof PyJsonError
            ? e.message
            : String(e);
      return this.unparsed(
        raw,
        "invalid_json",
        `ledger line ${raw.lineNo} is not valid JSON: ${why}. Inspect and repair (or restore from snapshot).`,
      );
    }
    const res = validateLedgerEntry(obj);
    if (!res.ok) {
      return this.unparsed(raw, "schema", `ledger line ${raw.lineNo} failed schema validation: ${res.error}`);
    }
    this.acceptFull(raw, res.value);
  }

  private unparsed(raw: RawLine, kind: VerifyErrorKind, message: string): void {
    const finding: VerifyFinding = { line: raw.lineNo, seq: null, kind, message, atLine: raw.lineNo };
    this.chainFinding(finding);
    this.damage.unparsed(raw.lineNo, !raw.terminated);
    this.linkKnown = false;
  }

  /** The chain checks of one parsed entry (seq, prev_hash, self_hash), the damage map and the head. */
  private link(
    raw: RawLine,
    seq: number | bigint,
    prevHash: string,
    selfHash: string,
    computed: string,
  ): VerifyFinding | null {
    const L = raw.lineNo;
    let problem: VerifyFinding | null = null;
    const expected =
      typeof this.prevSeq === "bigint" || typeof seq === "bigint" ? BigInt(this.prevSeq) + 1n : this.prevSeq + 1;
    // eslint-disable-next-line eqeqeq -- seq may be a bigint: == compares it with a number by value
    if (this.linkKnown && seq != expected) {
      problem = {
        line: L,
        seq,
        kind: "seq_jump",
        message: `ledger line ${L}: seq jumped from ${this.prevSeq} to ${seq}`,
        atLine: L,
      };
    } else if (this.linkKnown && prevHash !== this.prevHash) {
      problem = {
        line: L,
        seq,
        kind: "prev_hash_mismatch",
        message: `ledger line ${L}: prev_hash mismatch (expected '${displayValue(this.prevHash)}', saw '${displayValue(prevHash)}')`,
        atLine: L,
      };
    } else if (computed !== selfHash) {
      problem = {
        line: L,
        seq,
        kind: "self_hash_mismatch",
        message: `ledger line ${L}: self_hash mismatch (computed ${computed}, stored ${displayValue(selfHash)})`,
        atLine: L,
      };
    }
    if (problem) this.chainFinding(problem);
    // All checks passed (with a known link): the classifier only has to remember the entry.
    const clean = problem === null && this.linkKnown && this.damage.cleanEntry(L, seq, selfHash);
    if (!clean) {
      this.damage.entry({
        line: L,
        seq,
        prevHash,
        selfHash,
        hashOk: computed === selfHash,
        expectedPrev: this.prevHash,
        expectedSeq: expected,
        linkKnown: this.linkKnown,
      });
    }
    this.prevSeq = seq;
    this.prevHash = selfHash;
    this.linkKnown = true;
    this.count++;
    if (!problem && this.chainError === null) this.headInfo = { seq, selfHash, line: L, endOffset: raw.end };
    return problem;
  }

  private acceptFull(raw: RawLine, entry: LedgerEntry): void {
    const computed = computeEntryHash(entry);
    const problem = this.link(raw, entry.seq, entry.prev_hash, entry.self_hash, computed);
    const change = this.replayOn ? this.replay.full(entry, raw.lineNo) : null;
    const onEntry = this.options.onEntry;
    if (onEntry) {
      const taskId = entry.payload.get("task_id");
      onEntry(
        this.summary(
          raw,
          entry.seq,
          entry.op,
          entry.timestamp,
          entry.session_id,
          entry.self_hash,
          change,
          typeof taskId === "string" ? taskId : null,
          problem,
        ),
        this.entryArg ? entry : null,
      );
    }
  }

  private acceptFast(raw: RawLine, fast: FastLine, planBytes: (() => Buffer) | null): void {
    const problem = this.link(raw, fast.seq, fast.prevHash, fast.selfHash, fast.computedHash);
    const change = this.replayOn ? this.replay.fast(raw, fast, planBytes) : null;
    const onEntry = this.options.onEntry;
    if (onEntry) {
      onEntry(
        this.summary(
          raw,
          fast.seq,
          fast.op,
          fast.timestamp,
          fast.sessionId,
          fast.selfHash,
          change,
          fast.payloadTaskId,
          problem,
        ),
        this.entryArg ? fast.entryLazy() : null,
      );
    }
  }

  private summary(
    raw: RawLine,
    seq: number | bigint,
    op: string,
    timestamp: string,
    sessionId: string,
    selfHash: string,
    change: TaskChange | null,
    payloadTaskId: string | null,
    problem: VerifyFinding | null,
  ): EntrySummary {
    return {
      seq: Number(seq),
      line: raw.lineNo,
      start: raw.start,
      end: raw.end,
      op,
      timestamp,
      sessionId,
      selfHash,
      taskId: change?.taskId ?? payloadTaskId,
      fromStatus: change?.from ?? null,
      toStatus: change?.to ?? null,
      retryCount: change?.retry ?? null,
      escalated: change?.escalated ?? false,
      chain: problem ? problem.kind : "ok",
    };
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
    return this.replay.plan;
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
    return this.chainError === null && this.replay.error === null;
  }

  /** Bytes covered so far. */
  get bytes(): number {
    return this.bytesSeen;
  }

  /** Findings, `errors[0]` first as Python would report it (chain errors win over replay errors). */
  errors(): VerifyFinding[] {
    this.damage.flush();
    const replayError = this.replay.error;
    const first = this.chainError ?? replayError;
    const out: VerifyFinding[] = first ? [first] : [];
    if (this.chainError && replayError) out.push(replayError);
    out.push(...this.findings);
    if (this.suppressed > 0) {
      out.push({
        line: null,
        seq: null,
        kind: "more_errors",
        message: `${this.suppressed} more findings not listed`,
        atLine: 0,
      });
    }
    return out.map(boundedMessage);
  }

  /** Warnings (not corruption): FSM violations in history. */
  warnings(): VerifyWarning[] {
    return this.warningList.map(boundedMessage);
  }
}

/** The message of a line over the line-length limit: where, how big, the limit, what to do. */
function lineTooLongMessage(lineNo: number, bytes: number, limit: number): string {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MB`;
  return (
    `ledger line ${lineNo} is ${bytes} bytes (${mb(bytes)}), over the line-length limit of ${mb(limit)}; it was skipped, not read ` +
    "(reading went on after it). A real entry is far smaller: inspect and repair the line, or raise the limit " +
    "(setting autodev.maxLineMB, CLI --max-line-mb)."
  );
}

/** Messages quote values from the file (ids, statuses, hashes): controls escaped, length capped. */
function boundedMessage<T extends { readonly message: string }>(f: T): T {
  const message = displayMessage(f.message, MAX_FINDING_CHARS);
  return message === f.message ? f : { ...f, message };
}

/** Longest finding message (values inside are already cut to 200 characters where they are quoted). */
const MAX_FINDING_CHARS = 2000;
