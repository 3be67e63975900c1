/**
 * Reads ledger lines backwards from the end of the file, so the latest
 * snapshot of a ledger of hundreds of MB is found by reading only its tail.
 * Canonical (Python-written) lines are recognised without building objects.
 */
import * as fs from "node:fs";
import { decodeUtf8Strict } from "../../../../text/utf8";
import { getMaxLineBytes } from "../../../../fs/lineLimit";
import { pyStrip } from "../../../../pyjson/pyBuiltins";
import { openLedgerFile } from "../ledgerOpen";
import { parsePyJson } from "../../../../pyjson/pyJsonParse";
import { LedgerEntry, validateLedgerEntry } from "../../plan/schemas";
import { fastCanonicalLine } from "../../canonical/fastCanonical";

const CHUNK = 1 << 20;

/** The op of a ledger line: from the canonical fast path, else a full parse; null when it is not an entry. */
function opOfLine(bytes: Buffer): string | null {
  const fast = fastCanonicalLine(bytes);
  if (fast) return fast.op;
  return parseTailLine(bytes)?.op ?? null;
}

/** Parses one line into an entry; null for blank or invalid lines (verification reports those). */
export function parseTailLine(bytes: Buffer): LedgerEntry | null {
  if (bytes.length === 0) return null;
  const text = decodeUtf8Strict(bytes);
  if (text === null) return null;
  const line = pyStrip(text);
  if (!line) return null;
  try {
    const res = validateLedgerEntry(parsePyJson(line));
    return res.ok ? res.value : null;
  } catch {
    return null;
  }
}

/** One line found reading backwards: its byte range and its bytes (null when over the line-length limit). */
export interface BackwardLine {
  /** Offset of its first byte (a lower bound when `partial`). */
  readonly start: number;
  /** Offset just past its content. */
  readonly end: number;
  /** Its content, or null when longer than the limit (not kept in memory). */
  readonly bytes: Buffer | null;
  /** True when reading stopped inside this line because it is over the limit (`stopAtOverLimit`). */
  readonly partial?: boolean;
}

async function readFully(fh: fs.promises.FileHandle, buf: Buffer, pos: number): Promise<void> {
  let n = 0;
  while (n < buf.length) {
    const { bytesRead } = await fh.read(buf, n, buf.length - n, pos + n);
    if (bytesRead === 0) throw new Error("the ledger shrank while it was read backwards");
    n += bytesRead;
  }
}

/**
 * Yields the lines of the first `size` bytes of `fh` from the last to the
 * first (`\n`, `\r` and `\r\n` end lines, so `\r\n` also yields an empty
 * line). Linear: every byte is read and searched once, and a line is kept
 * only while it is within `limit` bytes. With `stopAtOverLimit`, the first
 * line found to be over the limit is yielded as `partial` and reading stops.
 */
export async function* linesBackward(
  fh: fs.promises.FileHandle,
  size: number,
  limit: number = getMaxLineBytes(),
  stopAtOverLimit = false,
): AsyncGenerator<BackwardLine> {
  let pos = size;
  let segEnd = size; // end of the line being assembled
  let parts: Buffer[] = []; // its bytes found so far (file order), while within the limit
  let partsLen = 0;
  let over = false;
  const complete = (start: number, head: Buffer): BackwardLine => {
    const tooLong = over || segEnd - start > limit;
    const line = {
      start,
      end: segEnd,
      bytes: tooLong ? null : partsLen ? Buffer.concat([head, ...parts]) : Buffer.from(head),
    };
    parts = [];
    partsLen = 0;
    over = false;
    return line;
  };
  while (pos > 0) {
    const len = Math.min(CHUNK, pos);
    pos -= len;
    const chunk = Buffer.allocUnsafe(len);
    await readFully(fh, chunk, pos);
    let i = len; // chunk[0, i) is not yet split
    let lf = len; // last LF / CR before i; len = not searched yet, -1 = none left
    let cr = len;
    while (i > 0) {
      if (lf !== -1 && lf >= i) lf = chunk.lastIndexOf(0x0a, i - 1);
      if (cr !== -1 && cr >= i) cr = chunk.lastIndexOf(0x0d, i - 1);
      const j = Math.max(lf, cr);
      if (j < 0) break;
      yield complete(pos + j + 1, chunk.subarray(j + 1, i));
      segEnd = pos + j;
      i = j;
    }
    if (!over && partsLen + i > limit) {
      over = true;
      parts = [];
      partsLen = 0;
      if (stopAtOverLimit) {
        yield { start: pos, end: segEnd, bytes: null, partial: true };
        return;
      }
    }
    if (!over && i > 0) {
      parts.unshift(chunk.subarray(0, i));
      partsLen += i;
    }
  }
  yield complete(0, Buffer.alloc(0));
}

/**
 * Opens a ledger for reading backwards: the guarded open of ledgerOpen.ts,
 * confined to `root` (default: the workspace above its `.autodev/`). Null when
 * the file does not exist.
 */
export async function openLedgerForTail(file: string, root?: string): Promise<fs.promises.FileHandle | null> {
  return openLedgerFile(file, root);
}

/**
 * Returns the raw lines from the last one whose op satisfies `isStart` to the
 * end of the file, in file order (blank, non-entry and over-limit lines left
 * out), or null when the file is missing. When no line matches, returns every
 * line. `root`: the workspace the ledger must resolve inside.
 */
export async function readTailLines(
  file: string,
  isStart: (op: string) => boolean,
  root?: string,
): Promise<Buffer[] | null> {
  const fh = await openLedgerForTail(file, root);
  if (fh === null) return null;
  const found: Buffer[] = [];
  try {
    for await (const line of linesBackward(fh, (await fh.stat()).size)) {
      if (line.bytes === null) continue;
      const op = opOfLine(line.bytes);
      if (op === null) continue;
      found.push(line.bytes);
      if (isStart(op)) break;
    }
    return found.reverse();
  } finally {
    await fh.close();
  }
}
