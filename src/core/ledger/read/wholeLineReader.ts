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

const FIRST_BUFFER = 4 << 20;
const MAX_BUFFER = 64 << 20;

/** Options of {@link readWholeLines}. */
export interface WholeLineOptions {
  /** Called after each read's whole lines were handed out (e.g. to flush a batch). */
  readonly afterChunk?: () => void | Promise<void>;
  readonly signal?: AbortSignal;
  /** The first buffer's size (default 4 MiB); it doubles while a line does not fit. */
  readonly bufferBytes?: number;
  /** The buffer grows up to this (default 64 MiB); longer lines are handed to the splitter in pieces. */
  readonly maxBufferBytes?: number;
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
  let buf = Buffer.allocUnsafe(Math.min(options.bufferBytes ?? FIRST_BUFFER, Math.max(1, end - from.offset)));
  let have = 0;
  let pos = from.offset;
  // Where a read was cut right after a `\r` whose next byte is known not to be `\n`.
  let crCut = -1;
  const cursor = (): LineCursor => {
    const c = splitter.cursor();
    return c.afterCR && c.offset === crCut ? { ...c, afterCR: false } : c;
  };
  for (;;) {
    if (signal?.aborted) throw new Error("cancelled");
    const want = Math.min(buf.length - have, end - pos);
    const n = want > 0 ? await read(buf, have, want, pos) : 0;
    pos += n;
    const total = have + n;
    if (pos >= end || (want > 0 && n === 0)) {
      if (total > 0 && splitter.push(buf.subarray(0, total), onLine) === false) return cursor();
      break;
    }
    let cut = wholeLinesEnd(buf, total);
    if (cut === 0 && buf.length < maxBuffer) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, total);
      buf = bigger;
      have = total;
      continue;
    }
    if (cut === 0) cut = total; // a giant line: the splitter keeps (or skips) its pieces
    else if (buf[cut - 1] === 0x0d) crCut = pos - total + cut;
    if (splitter.push(buf.subarray(0, cut), onLine) === false) return cursor();
    buf.copyWithin(0, cut, total);
    have = total - cut;
    if (afterChunk) await afterChunk();
  }
  if (last) splitter.finish(onLine);
  return cursor();
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
