/**
 * A live, incremental view of one workspace's ledger: the first scan verifies
 * everything; each refresh checks that the already-verified prefix is still
 * there (Python replaces the file by rename on every append) and then reads
 * only the new bytes. It keeps the timeline index (one small summary per
 * entry), the replayed plan and the integrity report, and detects history
 * rewrites (a shorter ledger, a different hash at a remembered seq).
 */
import * as fs from "node:fs";
import { openRegularFile } from "../../../fs/safeRead";
import { createHash } from "node:crypto";
import { LineCursor, RawLine, START_CURSOR, readLines, readLinesFrom } from "./read/ledgerLineReader";
import { decodeUtf8Strict } from "../../../text/utf8";
import { pyStrip } from "../../../pyjson/pyBuiltins";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { validateLedgerEntry } from "../plan/schemas";
import { PLAN_OPS, applyStrict } from "./replay";
import { LedgerScanner } from "./ledgerScanner";
import { ScannedLineInfo, scanLedgerFile } from "./read/parallelScan";
import { VerificationRecord, checkVerificationRecord, makeVerificationRecord } from "./verificationRecord";
import { reportOf, loadFromTail } from "./ledgerReader";
import { EntrySummary, VerifyReport } from "./verifyTypes";
import { Plan } from "../plan/schemas";
import { ledgerPath } from "../autodevPaths";
import { openExistingLedger } from "./ledgerOpen";

/** What a refresh did. */
export interface SessionUpdate {
  /** "full" rescan, "append" (only new bytes), "none" (unchanged), "missing" (no ledger), "resumed" (from a stored record, see `resume`). */
  readonly mode: "full" | "append" | "none" | "missing" | "resumed";
  /** Why a full rescan happened, when it was not the first one. */
  readonly reason?: string;
  /** Number of entries added by this refresh. */
  readonly added: number;
  /** Bytes read by this refresh. */
  readonly bytesRead: number;
}

/** A remembered head, to detect rollback and forks across sessions. */
export interface RememberedHead {
  readonly seq: number;
  readonly selfHash: string;
  readonly length: number;
}

/** History rewrite found against a remembered head. */
export interface RewriteFinding {
  readonly kind: "rollback" | "fork";
  readonly message: string;
}

const applyNothing = (): void => undefined;
/** Appends up to this size fingerprint their last line as they are read (bigger ones read it again). */
const HASH_IN_PASSING = 8 << 20;
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** One ledger, kept up to date incrementally. */
export class LedgerSession {
  private scanner = new LedgerScanner({ entryArgument: false, onEntry: (s) => this.index.push(s) });
  private index: EntrySummary[] = [];
  private cursor: LineCursor = START_CURSOR;
  /** Fingerprint of the last complete line before the cursor, to prove the prefix unchanged. */
  private anchor: { start: number; end: number; hash: string } | null = null;
  private fileSize = 0;
  private fileMtime = 0;
  private tailPlan: Plan | null = null;
  /** True when the last scan fed a final line without newline (it will be re-read, so rescan fully). */
  private unterminatedTail = false;
  /** Set while the index starts at a resume point (see {@link resume}), not at the ledger's first entry. */
  private resumedAt: VerificationRecord["resume"] | null = null;
  /** The record the last refresh made from its handle (undefined: none made yet for this state). */
  private record: VerificationRecord | null | undefined = undefined;

  constructor(readonly cwd: string) {}

  /** The ledger file. */
  get file(): string {
    return ledgerPath(this.cwd);
  }

  /** Brings the session up to date with the file. */
  async refresh(signal?: AbortSignal, onProgress?: (bytes: number, total: number) => void): Promise<SessionUpdate> {
    // One guarded open per refresh: the stat, the prefix check, the new bytes, the anchor and the
    // stored record all read this handle (one inode, even when the writer replaces the file meanwhile).
    // ENOENT is "missing"; a FIFO, device, link out or loop, or EACCES throws (never read as empty).
    const fh = await openRegularFile(this.file, { root: this.cwd, what: "the ledger" });
    if (fh === null) {
      const had = this.index.length > 0;
      this.reset();
      return { mode: "missing", added: 0, bytesRead: 0, reason: had ? "the ledger was deleted" : undefined };
    }
    try {
      return await this.refreshFrom(fh, signal, onProgress);
    } finally {
      await fh.close();
    }
  }

  private async refreshFrom(
    fh: fs.promises.FileHandle,
    signal?: AbortSignal,
    onProgress?: (bytes: number, total: number) => void,
  ): Promise<SessionUpdate> {
    const st = await fh.stat();
    let reason: string | undefined;
    this.record = undefined;
    if (this.cursor.offset > 0) {
      if (st.size < this.cursor.offset) reason = `the ledger shrank from ${this.cursor.offset} to ${st.size} bytes`;
      else if (!(await this.prefixIntact(fh))) reason = "bytes already verified were changed";
      else if (st.size === this.fileSize && st.mtimeMs !== this.fileMtime) reason = "the ledger was rewritten in place";
      else if (st.size === this.fileSize) return { mode: "none", added: 0, bytesRead: 0 };
      else if (this.unterminatedTail) reason = "the last line had no newline and has grown";
    }
    const full = this.cursor.offset === 0 || reason !== undefined;
    if (full) this.reset();
    const before = this.index.length;
    const from = this.cursor;
    let lastLine: { start: number; end: number } | null = null;
    // The anchor's fingerprint from the bytes this refresh reads (appends: one read of the new bytes),
    // not a second read of the last line; a full scan (its lines may be read by other threads) reads it again.
    let lastHash: string | null = null;
    const total = st.size;
    const hashInPassing = !full && total - from.offset <= HASH_IN_PASSING;
    let sinceProgress = 0;
    const onLine = (line: ScannedLineInfo): void => {
      if (line.terminated) {
        lastLine = { start: line.start, end: line.end };
        const bytes = (line as RawLine).bytes;
        lastHash = hashInPassing && bytes?.length === line.end - line.start ? sha(bytes) : null;
      } else this.unterminatedTail = true;
      sinceProgress += line.end - line.start;
      if (onProgress && sinceProgress > 8 << 20) {
        sinceProgress = 0;
        onProgress(line.end, total);
      }
    };
    this.cursor =
      from.offset === 0
        ? await scanLedgerFile(this.file, this.scanner, { until: total, signal, onLine })
        : await readLinesFrom(
            fh,
            (line) => {
              this.scanner.feed(line);
              onLine(line);
            },
            from,
            total,
            signal,
          );
    this.fileSize = total;
    this.fileMtime = st.mtimeMs;
    const ll = lastLine as { start: number; end: number } | null;
    if (ll) this.anchor = { ...ll, hash: lastHash ?? sha(readRangeFrom(fh, ll.start, ll.end)) };
    this.record = await this.makeRecord(fh);
    if (!this.scanner.ok) this.tailPlan = (await loadFromTail(this.cwd)).plan;
    return {
      mode: full ? "full" : "append",
      reason,
      added: this.index.length - before,
      bytesRead: total - from.offset,
    };
  }

  /** Forces the next refresh to rescan from the start. */
  invalidate(): void {
    this.reset();
  }

  private reset(): void {
    this.scanner = new LedgerScanner({ entryArgument: false, onEntry: (s) => this.index.push(s) });
    this.index = [];
    this.cursor = START_CURSOR;
    this.anchor = null;
    this.fileSize = 0;
    this.fileMtime = 0;
    this.tailPlan = null;
    this.unterminatedTail = false;
    this.resumedAt = null;
  }

  /**
   * Continues from a verification `record` stored by an earlier session: when
   * its fingerprints hold, re-verifies only the latest plan-carrying line and
   * what follows it (the appended bytes included) — mode "resumed"; otherwise
   * verifies everything — mode "full", with the reason and whether the
   * verified prefix was rewritten. The index then starts at the resume
   * point ({@link partial}) until a full refresh.
   */
  async resume(
    record: VerificationRecord,
    signal?: AbortSignal,
    onProgress?: (bytes: number, total: number) => void,
  ): Promise<SessionUpdate & { rewritten: boolean }> {
    const check = await checkVerificationRecord(this.file, record);
    if (!check.holds) {
      this.reset();
      const u = await this.refresh(signal, onProgress);
      return {
        ...u,
        mode: u.mode === "missing" ? "missing" : "full",
        reason: check.reason,
        rewritten: check.rewritten,
      };
    }
    this.reset();
    const at = record.resume;
    this.scanner.resumeChain(at.prevSeq, at.prevHash, at.entriesBefore);
    this.cursor = { offset: at.offset, lineNo: at.lineNo, afterCR: false };
    this.resumedAt = at;
    const u = await this.refresh(signal, onProgress);
    const head = this.findBySeq(record.head.seq);
    if (!this.scanner.ok || this.scanner.entries < record.entries || head?.selfHash !== record.head.selfHash) {
      // The bytes re-read do not continue the chain as recorded: trust nothing, verify it all.
      this.reset();
      const full = await this.refresh(signal, onProgress);
      return {
        ...full,
        mode: "full",
        reason: "the ledger does not continue the chain verified earlier",
        rewritten: true,
      };
    }
    return { ...u, mode: "resumed", rewritten: false };
  }

  /** True when the index starts at a resume point instead of the first entry (a full refresh fills it in). */
  get partial(): boolean {
    return this.resumedAt !== null;
  }

  /** The record of what is verified now, to store for the next session; null unless clean. */
  async verificationRecord(): Promise<VerificationRecord | null> {
    // The last refresh made it from the handle it read (no second open of the ledger).
    if (this.record !== undefined) return this.record;
    const fh = await openRegularFile(this.file, { root: this.cwd, what: "the ledger" });
    if (fh === null) return null;
    try {
      return await this.makeRecord(fh);
    } finally {
      await fh.close();
    }
  }

  private async makeRecord(fh: fs.promises.FileHandle): Promise<VerificationRecord | null> {
    const head = this.scanner.head;
    if (!this.scanner.ok || head === null || this.anchor === null || this.unterminatedTail) return null;
    let k = this.index.length - 1;
    while (k >= 0 && !PLAN_OPS.has(this.index[k].op)) k--;
    let resume: VerificationRecord["resume"];
    if (k >= 0) {
      const plan = this.index[k];
      const before = k > 0 ? this.index[k - 1] : null;
      const base = this.resumedAt?.entriesBefore ?? 0;
      const prev = before
        ? { prevSeq: before.seq, prevHash: before.selfHash }
        : this.resumedAt
          ? { prevSeq: this.resumedAt.prevSeq, prevHash: this.resumedAt.prevHash }
          : { prevSeq: 0, prevHash: "" };
      resume = { offset: plan.start, lineNo: plan.line, ...prev, entriesBefore: base + k };
    } else if (this.resumedAt) resume = this.resumedAt;
    else resume = { offset: 0, lineNo: 1, prevSeq: 0, prevHash: "", entriesBefore: 0 };
    return makeVerificationRecord(fh, {
      length: this.cursor.offset,
      nextLine: this.cursor.lineNo,
      entries: this.scanner.entries,
      head: { seq: Number(head.seq), selfHash: head.selfHash },
      lastLine: { start: this.anchor.start, end: this.anchor.end },
      resume,
      // The anchor is the same range, fingerprinted from this handle: the record need not read it again.
      lastLineSha256: this.anchor.hash,
    });
  }

  private async prefixIntact(fh: fs.promises.FileHandle): Promise<boolean> {
    if (!this.anchor) return true;
    try {
      return sha(readRangeFrom(fh, this.anchor.start, this.anchor.end)) === this.anchor.hash;
    } catch {
      return false;
    }
  }

  /** The ledger file's size as this session last read it (0 before it read one). */
  get readSize(): number {
    return this.fileSize;
  }

  /** Integrity so far. */
  get report(): VerifyReport {
    return reportOf(this.scanner);
  }

  /** The plan to show: the replayed plan, or (when replay failed) the tail snapshot with later entries. */
  get plan(): Plan | null {
    return this.scanner.ok ? this.scanner.plan : this.tailPlan;
  }

  /** All entry summaries (the timeline index). */
  get entries(): readonly EntrySummary[] {
    return this.index;
  }

  /** Reads the raw text of the entry with `seq` (by its byte range), or null. */
  async entryText(seq: number): Promise<string | null> {
    const s = this.findBySeq(seq);
    return s ? (await readRange(this.file, s.start, s.end)).toString("utf8") : null;
  }

  /** The summary of the (first) entry with `seq`. */
  findBySeq(seq: number): EntrySummary | undefined {
    const guess = this.index[seq - 1];
    return guess && guess.seq === seq ? guess : this.index.find((e) => e.seq === seq);
  }

  /**
   * The plan as it was right after entry `seq` (time travel): starts from the
   * latest plan-carrying entry at or before `seq` and applies the entries
   * after it with replay's strict rules, reading only that byte range.
   */
  async planAt(seq: number): Promise<Plan | null> {
    const target = this.findBySeq(seq);
    if (!target) throw new Error(`no entry with seq ${seq} in the ledger`);
    const upto = this.index.indexOf(target);
    let startIdx = upto;
    while (startIdx > 0 && !PLAN_OPS.has(this.index[startIdx].op)) startIdx--;
    const first = this.index[startIdx];
    let plan: Plan | null = null;
    await readLines(
      this.file,
      (line) => {
        const text = decodeUtf8Strict(line.bytes);
        const stripped = text === null ? "" : pyStrip(text);
        if (!stripped) return;
        const res = validateLedgerEntry(parsePyJson(stripped));
        if (!res.ok) throw new Error(`line ${line.lineNo}: ${res.error}`);
        if (plan === null && !PLAN_OPS.has(res.value.op) && startIdx === 0) return applyNothing();
        plan = applyStrict(plan, res.value).plan;
      },
      { offset: first.start, lineNo: first.line, afterCR: false },
      target.end,
    );
    return plan;
  }

  /** Compares a head remembered earlier with the ledger now: rollback (shorter) or fork (other hash). */
  checkRemembered(head: RememberedHead): RewriteFinding | null {
    const now = this.findBySeq(head.seq);
    if (!now) {
      return {
        kind: "rollback",
        message: `The ledger was rolled back: seq ${head.seq} (${head.selfHash}) was verified earlier, but the ledger now ends at seq ${this.index.at(-1)?.seq ?? 0}. History was rewritten.`,
      };
    }
    if (now.selfHash !== head.selfHash) {
      return {
        kind: "fork",
        message: `The ledger's history was rewritten: seq ${head.seq} had hash ${head.selfHash} when it was verified, and now has ${now.selfHash} (line ${now.line}).`,
      };
    }
    return null;
  }

  /** The head to remember after a clean verification. */
  rememberable(): RememberedHead | null {
    const h = this.scanner.head;
    return h && this.scanner.ok ? { seq: Number(h.seq), selfHash: h.selfHash, length: this.fileSize } : null;
  }
}

/** Reads bytes [start, end) of a file. */
async function readRange(file: string, start: number, end: number): Promise<Buffer> {
  const fh = await openExistingLedger(file); // guarded: never a FIFO, a device or a file outside the workspace
  try {
    return readRangeFrom(fh, start, end);
  } finally {
    await fh.close();
  }
}

/**
 * Bytes `start`..`end` of an open ledger, read synchronously: one line from the page cache, where an
 * await per read is a thread-pool round trip on the live path.
 */
function readRangeFrom(fh: fs.promises.FileHandle, start: number, end: number): Buffer {
  const buf = Buffer.alloc(end - start);
  let got = 0;
  while (got < buf.length) {
    const n = fs.readSync(fh.fd, buf, got, buf.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  return buf;
}
