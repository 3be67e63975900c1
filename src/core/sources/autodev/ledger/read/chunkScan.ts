/**
 * The calling thread's side of a parallel verify: scans chunks from the front
 * (feeding the scanner as it goes) while worker threads claim chunks from the
 * back; then feeds the workers' results, chunk by chunk in file order, to the
 * same scanner, acknowledging each batch so a worker's unconsumed output
 * stays bounded.
 */
import type * as fs from "node:fs";
import { Worker } from "node:worker_threads";
import { LineCursor, RawLine, START_CURSOR } from "./ledgerLineReader";
import { getMaxLineBytes } from "../../../../fs/lineLimit";
import { ReadAt, ReadBuffers, readWholeLines } from "./wholeLineReader";
import { LedgerScanner } from "../ledgerScanner";
import { fastLineOf } from "../../canonical/fastCanonical";
import { PlanSkeleton } from "../../canonical/canonicalPlanLayout";
import { ChunkMessage, ChunkTask, SegmentBatch, SegmentDone, SegmentMessage } from "./segmentScan";
import { ChunkClaims, claimFront, newChunkClaims } from "./chunkClaims";

const EMPTY = Buffer.alloc(0);

/** A line as `onLine` of {@link scanChunks} sees it (bytes absent for lines scanned by a worker). */
type LineInfo = Omit<RawLine, "bytes">;

/** Options of {@link scanChunks}. */
export interface ChunkScanOptions {
  /** Worker threads to start. */
  readonly threads: number;
  readonly signal?: AbortSignal;
  readonly onLine?: (line: LineInfo) => void;
  /** Tests: this thread takes exactly the first `mainChunks` chunks. */
  readonly mainChunks?: number;
}

/** The messages of one chunk scanned by a worker, queued until this thread reaches the chunk. */
class ChunkResult {
  readonly queue: SegmentMessage[] = [];
  /** Skeleton id lists of this chunk by version, with their first positions. */
  readonly ids = new Map<number, { ids: readonly string[]; positions: ReadonlyMap<string, number> }>();
  finished: SegmentDone | null = null;

  constructor(readonly worker: Worker) {}

  /** The plan bytes of the chunk's line `lineNo` (relative), which must be its last proven plan. */
  planBytes(lineNo: number): Buffer {
    const lp = this.finished?.lastPlan;
    if (!lp || lp.lineNo !== lineNo) {
      throw new Error(`internal error: plan bytes of chunk line ${lineNo} were not kept`);
    }
    return Buffer.from(lp.bytes.buffer, lp.bytes.byteOffset, lp.bytes.length);
  }
}

/** The worker threads of one scan and the chunk results they post. */
class ChunkWorkers {
  private readonly workers: Worker[] = [];
  private readonly results = new Map<number, ChunkResult>();
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(script: string, task: ChunkTask, count: number) {
    for (let w = 0; w < count; w++) {
      const worker = new Worker(script, { workerData: task });
      let ended = false;
      worker.on("message", (m: ChunkMessage) => {
        if (m.message.kind === "error") this.fail(new Error(`verification thread failed: ${m.message.message}`));
        else if (m.message.kind === "exit") ended = true;
        else {
          let r = this.results.get(m.chunk);
          if (!r) this.results.set(m.chunk, (r = new ChunkResult(worker)));
          r.queue.push(m.message);
        }
        this.notify();
      });
      worker.on("error", (e) => this.fail(e));
      worker.on("exit", (code) => {
        if (!ended) this.fail(new Error(`verification thread exited (code ${code}) before its chunks were read`));
      });
      this.workers.push(worker);
    }
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private fail(e: Error): void {
    this.failure ??= e;
    this.notify();
  }

  /** The next message of chunk `k` (claimed by a worker), in order, with its result. */
  async next(k: number): Promise<{ result: ChunkResult; message: SegmentMessage }> {
    for (;;) {
      const r = this.results.get(k);
      const m = r?.queue.shift();
      if (r && m) return { result: r, message: m };
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Forgets chunk `k` once fed (the scanner keeps the result its plan bytes may still come from). */
  forget(k: number): void {
    this.results.delete(k);
  }

  /** Tells the chunk's worker a batch was consumed (flow control). */
  ack(result: ChunkResult, weight: number): void {
    result.worker.postMessage(weight);
  }

  /** Ends the threads (one may still be reading after an error or a cancel: wait before closing the file). */
  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

/**
 * Scans the chunks starting at `starts` into `scanner`: this thread from the
 * front, `options.threads` workers from the back; returns the cursor after
 * the last terminated line.
 */
export async function scanChunks(
  script: string,
  fh: fs.promises.FileHandle,
  size: number,
  starts: readonly number[],
  scanner: LedgerScanner,
  options: ChunkScanOptions,
  onLine: (l: RawLine) => void,
): Promise<LineCursor> {
  const count = starts.length;
  const forced = options.mainChunks !== undefined;
  const floor = forced ? Math.max(0, Math.min(count, options.mainChunks!)) : 0;
  const claims: ChunkClaims = newChunkClaims(count);
  const task: ChunkTask = {
    fd: fh.fd,
    starts,
    size,
    claims,
    floor,
    forced,
    wantPlans: scanner.wantsPlans,
    maxLineBytes: getMaxLineBytes(),
  };
  const workers = new ChunkWorkers(script, task, options.threads);
  try {
    const read: ReadAt = (b, off, len, position) => fh.read(b, off, len, position).then((r) => r.bytesRead);
    let cursor: LineCursor = START_CURSOR;
    let k = claimFront(claims, forced ? floor : count);
    let next = 0;
    const buffers: ReadBuffers = { main: null, spare: null };
    for (; k >= 0; k = claimFront(claims, forced ? floor : count)) {
      const end = k + 1 < count ? starts[k + 1] : size;
      cursor = await readWholeLines(read, cursor, end, k + 1 === count, onLine, { signal: options.signal, buffers });
      // A chunk ends at a line start, never between a `\r` and its `\n`: the next chunk has no `\n` to skip.
      if (cursor.afterCR && cursor.offset === end && k + 1 < count) cursor = { ...cursor, afterCR: false };
      next = k + 1;
    }
    let base = cursor.lineNo;
    for (; next < count; next++) {
      for (;;) {
        if (options.signal?.aborted) throw new Error("cancelled");
        const { result, message } = await workers.next(next);
        if (message.kind === "done") {
          result.finished = message;
          cursor = {
            offset: message.cursor.offset,
            lineNo: base + message.cursor.lineNo - 1,
            afterCR: message.cursor.afterCR,
          };
          base += message.cursor.lineNo - 1;
          workers.forget(next);
          break;
        }
        feedBatch(scanner, result, message, base, options.onLine);
        workers.ack(result, message.weight);
      }
    }
    return cursor;
  } finally {
    await workers.stop();
  }
}

function positionsOf(ids: readonly string[]): ReadonlyMap<string, number> {
  const positions = new Map<string, number>();
  for (let k = 0; k < ids.length; k++) if (!positions.has(ids[k])) positions.set(ids[k], k);
  return positions;
}

function feedBatch(
  scanner: LedgerScanner,
  result: ChunkResult,
  m: SegmentBatch,
  base: number,
  onLine: ChunkScanOptions["onLine"],
): void {
  const view = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.length);
  for (const [version, ids] of m.ids) result.ids.set(version, { ids, positions: positionsOf(ids) });
  for (const l of m.lines) {
    const bytes = l.bytesAt < 0 ? EMPTY : view.subarray(l.bytesAt, l.bytesAt + l.bytesLength);
    const raw: RawLine = { lineNo: base + l.lineNo - 1, start: l.start, end: l.end, bytes, terminated: l.terminated };
    const f = l.facts;
    if (f === null) scanner.feedScanned(raw, null, null);
    else {
      let skeleton: PlanSkeleton | null = null;
      if (f.statuses !== null) {
        const shared = result.ids.get(f.idsVersion)!;
        skeleton = {
          ids: shared.ids,
          positions: shared.positions,
          statuses: f.statuses,
          metadataRanges: f.metadataRanges!,
        };
      }
      // ProvenLine takes the facts it knows; the skeleton's parts ride along unread.
      const fast = fastLineOf(bytes, { ...f, skeleton });
      const rel = l.lineNo;
      scanner.feedScanned(raw, fast, skeleton !== null ? () => result.planBytes(rel) : null);
    }
    onLine?.(raw);
  }
}
