/**
 * A faster way to drive {@link LineSplitter} over a byte range: reads into one
 * buffer and pushes only whole lines (up to the last line terminator read),
 * carrying the partial last line over to the next read. The splitter then
 * never has to keep and concatenate pieces of a line (a 400 KB snapshot line
 * straddles every other 1 MB chunk), so lines reach `onLine` as views of the
 * read buffer, copied once by the kernel and never again. Lines longer than
 * the buffer's cap fall back to the splitter's own handling of partial lines.
 */
import { LineCursor, LineSplitter, RawLine } from "./ledgerLineReader";

/** Reads up to `length` bytes at file position `position` into `buf` at `offset`; returns the count (0 at the end). */
export type ReadAt = (buf: Buffer, offset: number, length: number, position: number) => number | Promise<number>;

/**
 * The first buffer's size: the lines of one read take a few ms, so the event
 * loop keeps turning (see {@link pushInSlices}), and reads are few enough that
 * their cost stays small (each `FileHandle.read` costs some 40 µs of the
 * calling thread: 128 KB reads cost 25–50 ms per 100 MB).
 */
const FIRST_BUFFER = 1 << 20;
const MAX_BUFFER = 64 << 20;
/** Buffers up to this size are read ahead (two of them); bigger ones, grown for a giant line, are not. */
const PREFETCH_MAX = 8 << 20;

/** Options of {@link readWholeLines}. */
export interface WholeLineOptions {
  /**
   * Called after each read's whole lines were handed out (e.g. to flush a
   * batch). The bytes of those lines (views of the read buffer) stay valid
   * until it returns; after the last read, until the next call with the same `buffers`.
   */
  readonly afterChunk?: () => void | Promise<void>;
  readonly signal?: AbortSignal;
  /** The first buffer's size (default 1 MiB); it doubles while a line does not fit. */
  readonly bufferBytes?: number;
  /** The buffer grows up to this (default 64 MiB); longer lines are handed to the splitter in pieces. */
  readonly maxBufferBytes?: number;
  /** Buffers to use and keep for the next call (one scan reading many ranges allocates them once). */
  readonly buffers?: ReadBuffers;
}

/** The two buffers of {@link readWholeLines}, kept across calls by a caller that reads many ranges. */
export interface ReadBuffers {
  main: Buffer<ArrayBuffer> | null;
  spare: Buffer<ArrayBuffer> | null;
}

/**
 * Reads the lines of bytes [from.offset, end) through a LineSplitter; `last`:
 * the range ends the file, so a final unterminated line is reported too.
 * Returns the cursor after the last terminated line. `onLine` returning false stops.
 */
export async function readWholeLines(
  read: ReadAt,
  from: LineCursor,
  end: number,
  last: boolean,
  onLine: (line: RawLine) => void | false,
  options: WholeLineOptions = {},
): Promise<LineCursor> {
  const { afterChunk, signal } = options;
  const maxBuffer = options.maxBufferBytes ?? MAX_BUFFER;
  const splitter = new LineSplitter(from);
  const kept = options.buffers;
  const size = Math.min(options.bufferBytes ?? FIRST_BUFFER, Math.max(1, end - from.offset));
  let buf = kept?.main && kept.main.length >= size ? kept.main : Buffer.allocUnsafe(size);
  // The buffer the next read fills while this one's lines are scanned (allocated on first use).
  let spare: Buffer<ArrayBuffer> | null = kept?.spare ?? null;
  let have = 0;
  let pos = from.offset;
  // Where a read was cut right after a `\r` whose next byte is known not to be `\n`.
  let crCut = -1;
  const cursor = (): LineCursor => {
    const c = splitter.cursor();
    return c.afterCR && c.offset === crCut ? { ...c, afterCR: false } : c;
  };
  // The read in flight: into `buf` at `have`, from `pos`. Always awaited before returning, so the
  // caller never closes the file under a read.
  let want = 0;
  let pending: Promise<number> | null = null;
  const issue = (into: Buffer, at: number): void => {
    want = Math.min(into.length - at, end - pos);
    pending = want > 0 ? Promise.resolve(read(into, at, want, pos)) : Promise.resolve(0);
  };
  issue(buf, 0);
  try {
    for (;;) {
      if (signal?.aborted) throw new Error("cancelled");
      const n = await pending!;
      pending = null;
      pos += n;
      const total = have + n;
      if (pos >= end || (want > 0 && n === 0)) {
        if (total > 0 && (await pushInSlices(splitter, buf, total, onLine)) === false) return cursor();
        break;
      }
      let cut = wholeLinesEnd(buf, total);
      if (cut === 0 && buf.length < maxBuffer) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
        have = total;
        issue(buf, have);
        continue;
      }
      if (cut === 0) {
        cut = total;
      } // a giant line: the splitter keeps (or skips) its pieces
      else if (buf[cut - 1] === 0x0d) crCut = pos - total + cut;
      // Carry the partial last line into the next buffer and start reading after it, then scan
      // this buffer's whole lines while the read runs. Buffers past PREFETCH_MAX (giant lines) are
      // not doubled: their carry moves within the one buffer and the read waits for the scan.
      const next =
        buf.length <= PREFETCH_MAX
          ? spare !== null && spare.length >= buf.length
            ? spare
            : Buffer.allocUnsafe(buf.length)
          : null;
      if (next !== null) {
        buf.copy(next, 0, cut, total);
        have = total - cut;
        issue(next, have);
      }
      if ((await pushInSlices(splitter, buf, cut, onLine)) === false) return cursor();
      if (afterChunk) await afterChunk();
      if (next !== null) {
        spare = buf;
        buf = next;
      } else {
        buf.copyWithin(0, cut, total);
        have = total - cut;
        issue(buf, have);
      }
    }
  } finally {
    if (pending !== null) await (pending as Promise<number>).catch(() => 0);
    if (kept) {
      kept.main = buf;
      kept.spare = spare;
    }
  }
  if (last) splitter.finish(onLine);
  return cursor();
}

/** Lines are handed out in slices of about this many bytes… */
const SLICE = 64 << 10;
/** …and the event loop gets a turn whenever handing them out took this long (a read of many small entries takes more). */
const YIELD_MS = 10;

/**
 * Pushes `buf[0, cut)` to the splitter (whole lines, or the rest of the
 * range), in slices cut after a `\n`, letting the event loop turn between
 * slices when they took long.
 */
async function pushInSlices(
  splitter: LineSplitter,
  buf: Buffer,
  cut: number,
  onLine: (line: RawLine) => void | false,
): Promise<boolean> {
  let t0 = performance.now();
  for (let s = 0; s < cut;) {
    const lf = s + SLICE < cut ? buf.indexOf(0x0a, s + SLICE) : -1;
    const e = lf >= 0 && lf < cut ? lf + 1 : cut;
    if (splitter.push(buf.subarray(s, e), onLine) === false) return false;
    s = e;
    if (s < cut && performance.now() - t0 > YIELD_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      t0 = performance.now();
    }
  }
  return true;
}

/**
 * The index just past the last line terminator in `buf[0, total)` after
 * which a new line surely starts: after the last `\n`, or (with no `\n`) after
 * the last `\r` that is not the final byte (a final `\r` may be half of a
 * `\r\n`). 0 when there is none.
 */
function wholeLinesEnd(buf: Buffer, total: number): number {
  if (total === 0) return 0;
  const lf = buf.lastIndexOf(0x0a, total - 1);
  if (lf >= 0) return lf + 1;
  if (total < 2) return 0;
  const cr = buf.lastIndexOf(0x0d, total - 2);
  return cr >= 0 ? cr + 1 : 0;
}
