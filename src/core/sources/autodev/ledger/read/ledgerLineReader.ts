/**
 * Splits a ledger file into physical lines the way Python's text mode does
 * (universal newlines: `\n`, `\r\n` and a lone `\r` each end a line), streaming
 * fixed-size chunks so memory stays bounded whatever the file size.
 *
 * Splitting happens on bytes: UTF-8 never uses 0x0A/0x0D inside a multi-byte
 * sequence, so byte offsets stay exact and each line can be re-read later from
 * its byte range (the timeline loads payloads on demand this way).
 */
import { getMaxLineBytes } from "../../../../fs/lineLimit";
import type * as fs from "node:fs";
import { openExistingLedger } from "../ledgerOpen";

/** One physical line of the ledger file. */
export interface RawLine {
  /** 1-based physical line number, counting blank lines too (as Python's `enumerate(fh, 1)`). */
  readonly lineNo: number;
  /** Byte offset of the first byte of the line. */
  readonly start: number;
  /** Byte offset just past the line's content (terminator excluded). */
  readonly end: number;
  /** The line's bytes without its terminator (a view; copy it if you keep it). */
  readonly bytes: Buffer;
  /** True when a newline terminator followed the content (false only for a final unterminated line). */
  readonly terminated: boolean;
  /**
   * Set (to the limit in bytes) when the line is longer than the line-length
   * limit: `bytes` is then empty (the content was skipped, not kept in memory)
   * and `end - start` is its length. Reading goes on after it.
   */
  readonly overLimit?: number;
}

/** Where to start reading, so an incremental reader can resume at a known line boundary. */
export interface LineCursor {
  /** Byte offset of the start of the next line. */
  readonly offset: number;
  /** Line number that line will have. */
  readonly lineNo: number;
  /** True when the byte before `offset` was a `\r` (a following `\n` belongs to it). */
  readonly afterCR: boolean;
}

/** The cursor at the start of a file. */
export const START_CURSOR: LineCursor = { offset: 0, lineNo: 1, afterCR: false };

const CHUNK = 1 << 20;

/**
 * Reads lines from `file` starting at `from`, up to `until` bytes (default: the
 * size at open time), calling `onLine` for each. Returns the cursor after the
 * last complete (terminated) line; a trailing unterminated line is still
 * reported (with `terminated: false`) but the cursor stays before it, so a
 * later read picks it up again once its newline arrives.
 */
export async function readLines(
  file: string,
  onLine: (line: RawLine) => void | false,
  from: LineCursor = START_CURSOR,
  until?: number,
  signal?: AbortSignal,
): Promise<LineCursor> {
  // The guarded open (ledgerOpen.ts): a regular file inside the workspace, never a FIFO, device or outside file.
  const fh = await openExistingLedger(file);
  try {
    return await readLinesFrom(fh, onLine, from, until, signal);
  } finally {
    await fh.close();
  }
}

/** {@link readLines} from a ledger already opened (guarded) by the caller, who closes it. */
export async function readLinesFrom(
  fh: fs.promises.FileHandle,
  onLine: (line: RawLine) => void | false,
  from: LineCursor = START_CURSOR,
  until?: number,
  signal?: AbortSignal,
): Promise<LineCursor> {
  const st = await fh.stat();
  const size = until ?? st.size;
  const splitter = new LineSplitter(from);
  let pos = from.offset;
  const buf = Buffer.allocUnsafe(CHUNK);
  let stopped = false;
  while (pos < size && !stopped) {
    if (signal?.aborted) throw new Error("cancelled");
    const want = Math.min(CHUNK, size - pos);
    const { bytesRead } = await fh.read(buf, 0, want, pos);
    if (bytesRead === 0) break;
    stopped = splitter.push(buf.subarray(0, bytesRead), onLine) === false;
    pos += bytesRead;
  }
  if (!stopped) splitter.finish(onLine);
  return splitter.cursor();
}

/** Splits pushed chunks into lines; keeps the partial last line between pushes. */
export class LineSplitter {
  private lineNo: number;
  private lineStart: number;
  private offset: number;
  private afterCR: boolean;
  private pending: Buffer[] = [];
  private pendingLen = 0;
  /** True while the current line is over the limit: its bytes are skipped, not kept. */
  private oversize = false;
  // The position after the last terminated line (cursor()), as fields: no object per line.
  private committedOffset: number;
  private committedLineNo: number;
  private committedAfterCR: boolean;

  constructor(
    from: LineCursor = START_CURSOR,
    private readonly limit: number = getMaxLineBytes(),
  ) {
    this.lineNo = from.lineNo;
    this.lineStart = from.offset;
    this.offset = from.offset;
    this.afterCR = from.afterCR;
    this.committedOffset = from.offset;
    this.committedLineNo = from.lineNo;
    this.committedAfterCR = from.afterCR;
  }

  /** Feeds the next chunk; returns false when `onLine` asked to stop. */
  push(chunk: Buffer, onLine: (line: RawLine) => void | false): boolean {
    let i = 0;
    const n = chunk.length;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (chunk[0] === 0x0a) {
        i = 1;
        this.lineStart = this.offset + 1;
        this.commit(false);
      }
    }
    let segStart = i;
    // Next LF / CR positions, searched again only once passed (a file without CR must not be
    // rescanned to the end of the chunk for every line).
    let nextLF = -2;
    let nextCR = -2;
    while (i < n) {
      const c = chunk[i];
      if (c !== 0x0a && c !== 0x0d) {
        if (nextLF !== -1 && nextLF < i) nextLF = chunk.indexOf(0x0a, i);
        if (nextCR !== -1 && nextCR < i) nextCR = chunk.indexOf(0x0d, i);
        const j = nextLF < 0 ? nextCR : nextCR < 0 ? nextLF : Math.min(nextLF, nextCR);
        if (j < 0) break;
        i = j;
        continue;
      }
      const start = this.lineStart;
      const length = this.offset + i - start;
      const over = this.oversize || length > this.limit;
      const content = over ? this.drop() : this.take(chunk.subarray(segStart, i));
      const end = start + length;
      let termLen = 1;
      if (c === 0x0d) {
        if (i + 1 < n) {
          if (chunk[i + 1] === 0x0a) termLen = 2;
        } else {
          this.afterCR = true;
        }
      }
      const line: RawLine = over
        ? { lineNo: this.lineNo, start, end, bytes: content, terminated: true, overLimit: this.limit }
        : { lineNo: this.lineNo, start, end, bytes: content, terminated: true };
      this.lineNo += 1;
      this.lineStart = end + termLen;
      this.commit(this.afterCR);
      i += termLen;
      segStart = i;
      if (onLine(line) === false) {
        this.offset += i;
        return false;
      }
    }
    if (segStart < n && !this.oversize) {
      if (this.pendingLen + (n - segStart) > this.limit) {
        this.drop();
        this.oversize = true;
      } else {
        const rest = Buffer.from(chunk.subarray(segStart, n));
        this.pending.push(rest);
        this.pendingLen += rest.length;
      }
    }
    this.offset += n;
    return true;
  }

  /** Reports a final unterminated line, if any. */
  finish(onLine: (line: RawLine) => void | false): void {
    const length = this.offset - this.lineStart;
    if (this.oversize) {
      this.oversize = false;
      onLine({
        lineNo: this.lineNo,
        start: this.lineStart,
        end: this.offset,
        bytes: Buffer.alloc(0),
        terminated: false,
        overLimit: this.limit,
      });
      return;
    }
    if (this.pendingLen === 0) return;
    const content = this.take(Buffer.alloc(0));
    onLine({
      lineNo: this.lineNo,
      start: this.lineStart,
      end: this.lineStart + length,
      bytes: content,
      terminated: false,
    });
  }

  /** The position after the last terminated line. */
  cursor(): LineCursor {
    return { offset: this.committedOffset, lineNo: this.committedLineNo, afterCR: this.committedAfterCR };
  }

  private commit(afterCR: boolean): void {
    this.committedOffset = this.lineStart;
    this.committedLineNo = this.lineNo;
    this.committedAfterCR = afterCR;
  }

  /** Forgets the kept part of an over-limit line; returns the empty content it is reported with. */
  private drop(): Buffer {
    this.pending = [];
    this.pendingLen = 0;
    this.oversize = false;
    return Buffer.alloc(0);
  }

  private take(tail: Buffer): Buffer {
    if (this.pendingLen === 0) return tail;
    const parts = [...this.pending, tail];
    const out = Buffer.concat(parts, this.pendingLen + tail.length);
    this.pending = [];
    this.pendingLen = 0;
    return out;
  }
}
