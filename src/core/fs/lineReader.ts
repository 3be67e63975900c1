/**
 * Streams a file of lines (JSON Lines, logs, packed-refs) as numbered lines with bounded
 * memory. Lines end at `\n`, `\r\n` or a lone `\r` (how an editor numbers them); the
 * terminator is kept so a reader can tell a writer's `\n` from anything else. A line longer
 * than the limit is reported by its size and skipped, and reading goes on after it. The limit
 * is the process's unless a reader asks for its own (src/core/fs/lineLimit.ts: the setting
 * `autodev.maxLineMB`, the CLI's `--max-line-mb`).
 */
import type { FileHandle } from "node:fs/promises";
import { getMaxLineBytes } from "./lineLimit";

/** One physical line. */
export interface FileLine {
  /** 1-based. */
  readonly lineNo: number;
  /** The line decoded as UTF-8 (strict unless asked otherwise), or null when it is too long or not UTF-8. */
  readonly text: string | null;
  /** Bytes of the line without its terminator. */
  readonly byteLength: number;
  /** What ended the line; "" for a last line without one. */
  readonly terminator: "\n" | "\r\n" | "\r" | "";
  readonly tooLong: boolean;
  /** True when the bytes are not valid UTF-8 (the writer's loader raises UnicodeDecodeError). */
  readonly notUtf8: boolean;
}

const CHUNK = 1 << 20;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * Reads `fh` from its start to its end, calling `onLine` for every line (none for an empty
 * file); `onLine` returning false stops the reading there. With `decode: "replace"`, invalid UTF-8 becomes U+FFFD (as `JSON.parse` readers
 * see it) instead of a line with `notUtf8`. With `blankLines: "skip"`, empty lines are not passed to
 * `onLine` (they are counted in `lineNo`, and cost a byte compare or two each): a file of millions
 * of line breaks is read at memory speed.
 */
export async function readFileLines(
  fh: FileHandle,
  onLine: (line: FileLine) => void | false,
  maxLineBytes: number = getMaxLineBytes(),
  decode: "strict" | "replace" = "strict",
  blankLines: "emit" | "skip" = "emit",
): Promise<void> {
  const utf8 = decode === "strict" ? strictUtf8 : lenientUtf8;
  const buf = Buffer.allocUnsafe(CHUNK);
  let parts: Buffer[] = [];
  let kept = 0;
  let length = 0;
  let lineNo = 1;
  let afterCR = false;
  let position = 0;
  let stopped = false;
  const skipBlank = blankLines === "skip";

  /** Ends the current line; `tail` is its last bytes, still in the read buffer (not copied). */
  const emit = (terminator: FileLine["terminator"], tail?: Buffer): void => {
    if (tail !== undefined) {
      length += tail.length;
      if (length <= maxLineBytes && parts.length > 0) {
        parts.push(tail);
        kept += tail.length;
      }
    }
    const tooLong = length > maxLineBytes;
    let text: string | null = null;
    let notUtf8 = false;
    if (!tooLong) {
      try {
        const bytes =
          parts.length === 0 ? (tail ?? Buffer.alloc(0)) : parts.length === 1 ? parts[0] : Buffer.concat(parts, kept);
        text = bytes.length === 0 ? "" : utf8.decode(bytes);
      } catch {
        notUtf8 = true;
      }
    }
    if (!stopped && onLine({ lineNo, text, byteLength: length, terminator, tooLong, notUtf8 }) === false) {
      stopped = true;
    }
    lineNo++;
    parts = [];
    kept = 0;
    length = 0;
  };
  const take = (bytes: Buffer): void => {
    length += bytes.length;
    if (length > maxLineBytes) {
      parts = [];
      kept = 0;
    } else if (bytes.length > 0) {
      parts.push(Buffer.from(bytes));
      kept += bytes.length;
    }
  };

  while (!stopped) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    let i = 0;
    if (afterCR) {
      afterCR = false;
      if (skipBlank && length === 0) {
        // An empty line whose \r ended the last chunk: counted, not emitted (with its \n, if one follows).
        lineNo++;
        if (buf[0] === 0x0a) start = i = 1;
      } else if (buf[0] === 0x0a) {
        emit("\r\n");
        start = i = 1;
      } else emit("\r");
    }
    const view = buf.subarray(0, bytesRead);
    // Next LF and CR at or after `i` (CRs are rare: found once, looked for again only when passed).
    let cr = view.indexOf(0x0d, i);
    while (i < bytesRead) {
      if (skipBlank && length === 0 && (view[i] === 0x0a || view[i] === 0x0d)) {
        // A run of empty lines (\n, \r\n, \r) at a line start: counted, not emitted. A \r that ends
        // the chunk is left to the path below (the next chunk says whether a \n follows it).
        let j = i;
        while (j < bytesRead) {
          if (view[j] === 0x0a) j++;
          else if (view[j] === 0x0d && j + 1 < bytesRead) j += view[j + 1] === 0x0a ? 2 : 1;
          else break;
          lineNo++;
        }
        if (j > i) {
          i = start = j;
          continue;
        }
      }
      if (cr >= 0 && cr < i) cr = view.indexOf(0x0d, i);
      const lf = view.indexOf(0x0a, i);
      const end = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
      if (end < 0) break;
      const tail = view.subarray(start, end);
      if (view[end] === 0x0a) emit("\n", tail);
      else if (end + 1 < bytesRead) {
        if (view[end + 1] === 0x0a) {
          emit("\r\n", tail);
          i = end + 2;
          start = i;
          continue;
        }
        emit("\r", tail);
      } else {
        take(tail);
        afterCR = true;
      }
      i = end + 1;
      start = i;
    }
    if (start < bytesRead) take(buf.subarray(start, bytesRead));
  }
  if (stopped) return;
  if (afterCR) emit("\r");
  else if (length > 0) emit("");
}
