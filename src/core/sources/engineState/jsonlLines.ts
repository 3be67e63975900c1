/**
 * Streams a JSONL file as numbered lines with bounded memory. Lines end at `\n`, `\r\n` or
 * a lone `\r` (how an editor numbers them); the terminator is kept so a reader can tell a
 * writer's `\n` from anything else. A line longer than the limit is reported by its size
 * and skipped, and reading goes on after it.
 */
import type { FileHandle } from "node:fs/promises";

/** Longest line kept by default (64 MiB): far above any checkpoint record. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** One physical line. */
export interface JsonlLine {
  /** 1-based. */
  readonly lineNo: number;
  /** The line decoded as strict UTF-8, or null when it is too long or not UTF-8. */
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
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Reads `fh` from its start to its end, calling `onLine` for every line (none for an empty file). */
export async function readJsonlLines(
  fh: FileHandle,
  onLine: (line: JsonlLine) => void,
  maxLineBytes: number = DEFAULT_MAX_LINE_BYTES,
): Promise<void> {
  const buf = Buffer.allocUnsafe(CHUNK);
  let parts: Buffer[] = [];
  let kept = 0;
  let length = 0;
  let lineNo = 1;
  let afterCR = false;
  let position = 0;

  const emit = (terminator: JsonlLine["terminator"]): void => {
    const tooLong = length > maxLineBytes;
    let text: string | null = null;
    let notUtf8 = false;
    if (!tooLong) {
      try {
        text = utf8.decode(parts.length === 1 ? parts[0] : Buffer.concat(parts, kept));
      } catch {
        notUtf8 = true;
      }
    }
    onLine({ lineNo, text, byteLength: length, terminator, tooLong, notUtf8 });
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

  for (;;) {
    const { bytesRead } = await fh.read(buf, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    let i = 0;
    if (afterCR) {
      afterCR = false;
      if (buf[0] === 0x0a) {
        emit("\r\n");
        start = i = 1;
      } else emit("\r");
    }
    for (; i < bytesRead; i++) {
      const c = buf[i];
      if (c !== 0x0a && c !== 0x0d) continue;
      take(buf.subarray(start, i));
      if (c === 0x0a) emit("\n");
      else if (i + 1 < bytesRead) {
        if (buf[i + 1] === 0x0a) {
          emit("\r\n");
          i++;
        } else emit("\r");
      } else afterCR = true;
      start = i + 1;
    }
    if (start < bytesRead) take(buf.subarray(start, bytesRead));
  }
  if (afterCR) emit("\r");
  else if (length > 0) emit("");
}
