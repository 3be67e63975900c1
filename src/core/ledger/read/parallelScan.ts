/**
 * Parallel verification: splits the ledger at line boundaries into one
 * segment per core; this thread scans the first one while a worker thread per
 * other segment proves and hashes its lines (segmentScan.ts); the workers'
 * results are then fed to the same {@link LedgerScanner} in file order, so chain links, replay and the damage map run exactly as in a
 * sequential scan and give the same verdict, findings and plan. Small files,
 * one core, or scans that need entry objects take the sequential path.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import { UnsafeFileError, describeKind } from "../../fs/safeRead";
import { LineCursor, RawLine, START_CURSOR, getMaxLineBytes } from "./ledgerLineReader";
import { ReadAt, readWholeLines } from "./wholeLineReader";
import { LedgerScanner } from "../ledgerScanner";
import { fastLineOf } from "../fastCanonical";
import { PlanSkeleton } from "../../plan/canonicalPlanLayout";
import { SegmentBatch, SegmentDone, SegmentMessage, SegmentTask } from "./segmentScan";

/** A line as reported to `onLine` (its bytes are not available in the parallel path). */
export type ScannedLineInfo = Omit<RawLine, "bytes">;

/** Options of {@link scanLedgerFile}. */
export interface ParallelScanOptions {
  /** Scan up to this many bytes (default: the size when opened). */
  readonly until?: number;
  readonly signal?: AbortSignal;
  /** Called after each line was fed to the scanner. */
  readonly onLine?: (line: ScannedLineInfo) => void;
  /** Segments (worker threads); default {@link verifyThreads}. 1 scans in this thread only. */
  readonly threads?: number;
  /** Files smaller than this are scanned in this thread (default 256 MiB: below it, starting a thread and warming its JIT costs more CPU than it saves time, see the README benchmark notes). */
  readonly minBytes?: number;
  /** Split near these offsets instead of into equal parts (tests); each moves forward to the next line start. */
  readonly splitAt?: readonly number[];
  /** Told the segment starts when the scan runs in parallel (diagnostics, tests). */
  readonly onSegments?: (starts: readonly number[]) => void;
}

const DEFAULT_MIN_BYTES = 256 << 20;
const WINDOW = 64 << 10;
/** Reads of the in-thread scan: small enough that the lines of one read take well under 50 ms, so the event loop keeps turning. */
const IN_THREAD_READ = 128 << 10;
const EMPTY = Buffer.alloc(0);

/** Threads for verification: `AUTODEV_VERIFY_THREADS` when set, else the cores available. */
export function verifyThreads(): number {
  const env = Number(process.env.AUTODEV_VERIFY_THREADS);
  if (Number.isInteger(env) && env >= 1) return env;
  return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
}

let script: string | null | undefined;

/** The bundled worker script, next to this module or one folder up (null when absent). */
function workerScript(): string | null {
  if (script === undefined) {
    const candidates = [path.join(__dirname, "ledgerSegmentWorker.js"), path.join(__dirname, "..", "ledgerSegmentWorker.js")];
    script = candidates.find((c) => fs.existsSync(c)) ?? null;
  }
  return script;
}

/**
 * Scans `file` from its start into `scanner` (which must be fresh), in
 * parallel when that pays off; returns the cursor after the last terminated line.
 */
export async function scanLedgerFile(file: string, scanner: LedgerScanner, options: ParallelScanOptions = {}): Promise<LineCursor> {
  const threads = options.threads ?? verifyThreads();
  const onLine = (l: RawLine): void => {
    scanner.feed(l);
    options.onLine?.(l);
  };
  const sequential = async (fh: fs.promises.FileHandle, size: number): Promise<LineCursor> =>
    readWholeLines(async (b, off, len, position) => (await fh.read(b, off, len, position)).bytesRead, START_CURSOR, size, true, onLine, { signal: options.signal, bufferBytes: IN_THREAD_READ });
  // O_NONBLOCK: a FIFO put in the ledger's place cannot block the open; then only a regular file is read.
  const fh = await fs.promises.open(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new UnsafeFileError(`${file}: expected a regular file, found a ${describeKind(st)}; not read`, file, describeKind(st));
    const size = options.until ?? st.size;
    const worker = threads > 1 && scanner.acceptsScannedLines && size >= (options.minBytes ?? DEFAULT_MIN_BYTES) ? workerScript() : null;
    if (worker === null) return await sequential(fh, size);
    const targets = options.splitAt ?? Array.from({ length: threads - 1 }, (_, k) => Math.floor((size * (k + 1)) / threads));
    const bounds = await lineStarts(fh, size, targets);
    if (bounds.length === 0) return await sequential(fh, size);
    return await scanSegments(worker, fh, size, bounds, scanner, options, onLine);
  } finally {
    await fh.close();
  }
}

/** Line starts at or after each target (a byte after `\n`, or after a `\r` not followed by `\n`), strictly inside (0, size). */
async function lineStarts(fh: fs.promises.FileHandle, size: number, targets: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  const buf = Buffer.allocUnsafe(WINDOW + 1);
  for (const target of [...targets].sort((a, b) => a - b)) {
    let pos = Math.max(target, out.at(-1) ?? 0, 1);
    let found = -1;
    while (found < 0 && pos < size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(WINDOW + 1, size - pos), pos);
      if (bytesRead === 0) break;
      const window = buf.subarray(0, bytesRead);
      const lf = window.indexOf(0x0a);
      const cr = window.indexOf(0x0d);
      const j = lf >= 0 && (cr < 0 || lf < cr) ? lf : cr;
      if (j < 0) {
        pos += bytesRead;
        continue;
      }
      if (window[j] === 0x0a) found = pos + j + 1;
      else if (j + 1 < bytesRead) found = pos + j + (window[j + 1] === 0x0a ? 2 : 1);
      else if (pos + j + 1 >= size) found = size;
      else pos += j; // a `\r` at the window's end: read on from it to see the byte after it
    }
    if (found > 0 && found < size && found > (out.at(-1) ?? 0)) out.push(found);
  }
  return out;
}

/** One worker thread scanning one segment: its messages, queued until consumed. */
class SegmentRun {
  private readonly worker: Worker;
  private readonly queue: SegmentMessage[] = [];
  private waiter: { resolve: (m: SegmentMessage) => void; reject: (e: Error) => void } | null = null;
  private failure: Error | null = null;
  private finished: SegmentDone | null = null;
  /** Skeleton id lists of this segment by version, with their first positions. */
  readonly ids = new Map<number, { ids: readonly string[]; positions: ReadonlyMap<string, number> }>();

  constructor(script: string, task: SegmentTask) {
    this.worker = new Worker(script, { workerData: task });
    this.worker.on("message", (m: SegmentMessage | { kind: "error"; message: string }) => {
      if (m.kind === "error") this.fail(new Error(`verification thread failed: ${m.message}`));
      else if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w.resolve(m);
      } else this.queue.push(m);
    });
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", (code) => {
      if (this.finished === null && !this.queue.some((m) => m.kind === "done")) this.fail(new Error(`verification thread exited (code ${code}) before its segment was read`));
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w.reject(e);
    }
  }

  /** The next message, in order. */
  next(): Promise<SegmentMessage> {
    const m = this.queue.shift();
    if (m) return Promise.resolve(m);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }

  /** Tells the worker a batch was consumed (flow control). */
  ack(weight: number): void {
    this.worker.postMessage(weight);
  }

  /** Records the end of the segment. */
  done(m: SegmentDone): void {
    this.finished = m;
  }

  /** The plan bytes of the segment's line `lineNo` (relative), which must be its last proven plan. */
  planBytes(lineNo: number): Buffer {
    const lp = this.finished?.lastPlan;
    if (!lp || lp.lineNo !== lineNo) throw new Error(`internal error: plan bytes of segment line ${lineNo} were not kept`);
    return Buffer.from(lp.bytes.buffer, lp.bytes.byteOffset, lp.bytes.length);
  }

  /** Ends the thread (it may still be reading after an error or a cancel: wait before closing the file). */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Scans the first segment in this thread while one worker thread per other
 * segment proves and hashes its lines, then feeds the workers' results in order.
 */
async function scanSegments(
  script: string,
  fh: fs.promises.FileHandle,
  size: number,
  bounds: number[],
  scanner: LedgerScanner,
  options: ParallelScanOptions,
  onLine: (l: RawLine) => void,
): Promise<LineCursor> {
  options.onSegments?.([0, ...bounds]);
  const runs = bounds.map(
    (start, k) => new SegmentRun(script, { fd: fh.fd, start, end: k + 1 < bounds.length ? bounds[k + 1] : size, wantPlans: scanner.wantsPlans, last: k + 1 === bounds.length, maxLineBytes: getMaxLineBytes() }),
  );
  try {
    const read: ReadAt = async (b, off, len, position) => (await fh.read(b, off, len, position)).bytesRead;
    let cursor = await readWholeLines(read, START_CURSOR, bounds[0], false, onLine, { signal: options.signal });
    let base = cursor.lineNo;
    for (const run of runs) {
      for (;;) {
        if (options.signal?.aborted) throw new Error("cancelled");
        const m = await run.next();
        if (m.kind === "done") {
          run.done(m);
          cursor = { offset: m.cursor.offset, lineNo: base + m.cursor.lineNo - 1, afterCR: m.cursor.afterCR };
          base += m.cursor.lineNo - 1;
          break;
        }
        feedBatch(scanner, run, m, base, options.onLine);
        run.ack(m.weight);
      }
    }
    return cursor;
  } finally {
    await Promise.all(runs.map((run) => run.stop()));
  }
}

function positionsOf(ids: readonly string[]): ReadonlyMap<string, number> {
  const positions = new Map<string, number>();
  for (let k = 0; k < ids.length; k++) if (!positions.has(ids[k])) positions.set(ids[k], k);
  return positions;
}

function feedBatch(scanner: LedgerScanner, run: SegmentRun, m: SegmentBatch, base: number, onLine: ParallelScanOptions["onLine"]): void {
  const view = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length);
  for (const [version, ids] of m.ids) run.ids.set(version, { ids, positions: positionsOf(ids) });
  for (const l of m.lines) {
    const bytes = l.bytesAt < 0 ? EMPTY : view.subarray(l.bytesAt, l.bytesAt + l.bytesLength);
    const raw: RawLine = { lineNo: base + l.lineNo - 1, start: l.start, end: l.end, bytes, terminated: l.terminated };
    const f = l.facts;
    if (f === null) scanner.feedScanned(raw, null, null);
    else {
      let skeleton: PlanSkeleton | null = null;
      if (f.statuses !== null) {
        const shared = run.ids.get(f.idsVersion)!;
        skeleton = { ids: shared.ids, positions: shared.positions, statuses: f.statuses, metadataRanges: f.metadataRanges! };
      }
      const fast = fastLineOf(bytes, {
        seq: f.seq,
        prevHash: f.prevHash,
        selfHash: f.selfHash,
        computedHash: f.computedHash,
        op: f.op,
        timestamp: f.timestamp,
        sessionId: f.sessionId,
        payloadTaskId: f.payloadTaskId,
        planStart: f.planStart,
        planEnd: f.planEnd,
        planIsNull: f.planIsNull,
        skeleton,
        payloadStart: f.payloadStart,
        payloadEnd: f.payloadEnd,
      });
      const rel = l.lineNo;
      scanner.feedScanned(raw, fast, skeleton !== null ? () => run.planBytes(rel) : null);
    }
    onLine?.(raw);
  }
}
