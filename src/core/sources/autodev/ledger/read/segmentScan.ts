/**
 * The worker side of parallel verification: reads one segment of the ledger
 * (a byte range that starts at a line boundary), splits it into lines with
 * the same universal-newline rules as `readLines`, and runs the fast path's
 * canonical proof and sha256 on each line. It hands back compact facts per
 * line in batches; everything sequential (chain links, replay, the damage
 * map) stays with the scanner in the calling thread.
 */
import * as fs from "node:fs";
import { RawLine, START_CURSOR } from "./ledgerLineReader";
import { ReadBuffers, readWholeLines } from "./wholeLineReader";
import { FastFacts, provenCanonicalLine } from "../../canonical/canonicalLedgerLine";
import { AUDIT_OPS, PLAN_OPS } from "../../plan/planConstants";
import type { ChunkClaims } from "./chunkClaims";

/** The facts of one line proven canonical: a FastLine's facts with its skeleton split up for posting. */
interface SegmentFacts extends Omit<FastFacts, "skeleton"> {
  /** The skeleton's statuses and metadata ranges; its ids are `SegmentBatch.ids[idsVersion]`. */
  readonly statuses: Uint8Array | null;
  readonly metadataRanges: Int32Array | null;
  readonly idsVersion: number;
}

/** One line of a segment. */
interface SegmentLine {
  /** Line number counted from the segment's start (1-based). */
  readonly lineNo: number;
  readonly start: number;
  readonly end: number;
  readonly terminated: boolean;
  /** Null when the line is not canonical (the caller takes the full path on its bytes). */
  readonly facts: SegmentFacts | null;
  /** Where the line's bytes are in `SegmentBatch.bytes` (-1: not sent; a proven plan line needs none). */
  readonly bytesAt: number;
  readonly bytesLength: number;
}

/** A batch of lines, in order. */
export interface SegmentBatch {
  readonly kind: "batch";
  readonly lines: SegmentLine[];
  readonly bytes: Uint8Array;
  /** Skeleton id lists first used in this batch, by version. */
  readonly ids: [number, string[]][];
  /** What the batch weighs for flow control (acknowledged by the receiver). */
  readonly weight: number;
}

/** The end of a segment. */
export interface SegmentDone {
  readonly kind: "done";
  /** Lines in the segment, counting a final unterminated one. */
  readonly lines: number;
  /** The cursor after the segment's last terminated line, relative line number. */
  readonly cursor: { offset: number; lineNo: number; afterCR: boolean };
  /** The plan bytes of the segment's last line with a proven plan (what the full plan is built from). */
  readonly lastPlan: { lineNo: number; bytes: Uint8Array } | null;
}

/** What a segment scan sends. */
export type SegmentMessage = SegmentBatch | SegmentDone;

/** What a verification thread posts: a segment message of one chunk, or (chunk -1) its end or failure. */
export interface ChunkMessage {
  readonly chunk: number;
  readonly message: SegmentMessage | { readonly kind: "exit" } | { readonly kind: "error"; readonly message: string };
}

/** What a verification thread is given: the chunks (claimed through `claims`) and how to scan them. */
export interface ChunkTask {
  readonly fd: number;
  /** Where each chunk starts (line starts, ascending; the first is 0); the last ends at `size`. */
  readonly starts: readonly number[];
  readonly size: number;
  readonly claims: ChunkClaims;
  /** Chunks below this are never claimed by a thread (tests force a split with it; 0 otherwise). */
  readonly floor: number;
  /** True when the split is forced (tests): claim every chunk from `floor` up, whatever is unconsumed. */
  readonly forced: boolean;
  readonly wantPlans: boolean;
  readonly maxLineBytes: number;
}

/** What to scan. */
export interface SegmentTask {
  readonly fd: number;
  readonly start: number;
  readonly end: number;
  /** Prove plan payloads and hand back skeletons (replay on). */
  readonly wantPlans: boolean;
  /** True for the file's last segment (a final unterminated line is reported). */
  readonly last: boolean;
  /** The longest line kept in memory (the host's `autodev.maxLineMB` / `--max-line-mb`). */
  readonly maxLineBytes: number;
}

const BATCH_LINES = 256;
const BATCH_BYTES = 1 << 20;

/**
 * Scans a segment, calling `send` with each batch and finally the done
 * message; `send` may return a promise (flow control) that is awaited.
 */
export async function scanSegment(
  task: SegmentTask,
  send: (m: SegmentMessage) => void | Promise<void>,
  buffers?: ReadBuffers,
): Promise<void> {
  let lines: SegmentLine[] = [];
  let parts: Buffer[] = [];
  let partsLength = 0;
  let ids: [number, string[]][] = [];
  let weight = 0;
  let idsVersion = 0;
  let lastIds: readonly string[] | null = null;
  let planBuf = Buffer.alloc(0);
  let lastPlan: { lineNo: number; length: number } | null = null;
  // The last proven plan's bytes while they are still a view of the read buffer: copied only
  // before that buffer is reused, so of the plans read together only the last is ever copied.
  let planView: { lineNo: number; bytes: Buffer } | null = null;
  const keepPlanView = (): void => {
    if (planView === null) return;
    const len = planView.bytes.length;
    if (planBuf.length < len) planBuf = Buffer.allocUnsafe(Math.max(len, 2 * planBuf.length));
    planView.bytes.copy(planBuf, 0, 0, len);
    lastPlan = { lineNo: planView.lineNo, length: len };
    planView = null;
  };
  let count = 0;

  const keepBytes = (bytes: Buffer): number => {
    const at = partsLength;
    parts.push(Buffer.from(bytes)); // a copy: `bytes` is a view of the read buffer
    partsLength += bytes.length;
    weight += bytes.length;
    return at;
  };
  const onLine = (l: RawLine): void => {
    count = l.lineNo;
    const fast = provenCanonicalLine(l.bytes, task.wantPlans); // the caller checked FAST_PATHS_MATCH_SCHEMAS
    let bytesAt = -1;
    let facts: SegmentFacts | null = null;
    if (fast === null) bytesAt = keepBytes(l.bytes);
    else {
      const sk = fast.skeleton;
      if (sk !== null && sk.ids !== lastIds) {
        lastIds = sk.ids;
        ids.push([++idsVersion, sk.ids.slice()]);
        weight += 16 * sk.ids.length;
      }
      const provenPlan = sk !== null && PLAN_OPS.has(fast.op);
      if (task.wantPlans && !provenPlan && !AUDIT_OPS.has(fast.op)) bytesAt = keepBytes(l.bytes);
      if (provenPlan && task.wantPlans) {
        planView = { lineNo: l.lineNo, bytes: l.bytes.subarray(fast.planStart, fast.planEnd) };
      }
      facts = {
        seq: fast.seq,
        prevHash: fast.prevHash,
        selfHash: fast.selfHash,
        computedHash: fast.computedHash,
        op: fast.op,
        timestamp: fast.timestamp,
        sessionId: fast.sessionId,
        payloadTaskId: fast.payloadTaskId,
        payloadStatus: fast.payloadStatus,
        payloadPath: fast.payloadPath,
        payloadPlain: fast.payloadPlain,
        planStart: fast.planStart,
        planEnd: fast.planEnd,
        planIsNull: fast.planIsNull,
        payloadStart: fast.payloadStart,
        payloadEnd: fast.payloadEnd,
        statuses: sk ? sk.statuses : null,
        metadataRanges: sk ? sk.metadataRanges : null,
        idsVersion: sk ? idsVersion : 0,
      };
      weight += sk ? sk.statuses.length + 4 * sk.metadataRanges.length : 0;
    }
    weight += 200;
    lines.push({
      lineNo: l.lineNo,
      start: l.start,
      end: l.end,
      terminated: l.terminated,
      facts,
      bytesAt,
      bytesLength: bytesAt < 0 ? 0 : l.bytes.length,
    });
  };
  const flush = async (): Promise<void> => {
    if (lines.length === 0) return;
    // A fresh ArrayBuffer (not Buffer's shared pool): the batch's bytes are transferred.
    const bytes = new Uint8Array(partsLength);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    const batch: SegmentBatch = { kind: "batch", lines, bytes, ids, weight };
    lines = [];
    parts = [];
    partsLength = 0;
    ids = [];
    weight = 0;
    await send(batch);
  };

  const cursor = await readWholeLines(
    (b, off, len, position) => fs.readSync(task.fd, b, off, len, position),
    { ...START_CURSOR, offset: task.start },
    task.end,
    task.last,
    onLine,
    {
      buffers,
      afterChunk: async () => {
        keepPlanView();
        if (lines.length >= BATCH_LINES || partsLength >= BATCH_BYTES || weight >= BATCH_BYTES) await flush();
      },
    },
  );
  keepPlanView();
  await flush();
  const lp = lastPlan as { lineNo: number; length: number } | null;
  await send({
    kind: "done",
    lines: count,
    cursor: { offset: cursor.offset, lineNo: cursor.lineNo, afterCR: cursor.afterCR },
    lastPlan: lp ? { lineNo: lp.lineNo, bytes: Uint8Array.prototype.slice.call(planBuf, 0, lp.length) } : null,
  });
}
