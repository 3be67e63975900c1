/**
 * Reads ledger lines backwards from the end of the file, so the latest
 * snapshot of a ledger of hundreds of MB is found by reading only its tail.
 * Canonical (Python-written) lines are recognised without building objects.
 */
import * as fs from "node:fs";
import { decodeUtf8Strict, pyStrip } from "./ledgerLineReader";
import { parsePyJson } from "../pyjson/pyJsonParse";
import { LedgerEntry, validateLedgerEntry } from "../plan/schemas";
import { fastCanonicalLine } from "./fastCanonical";

const CHUNK = 1 << 20;

/** The op of a ledger line: from the canonical fast path, else a full parse; null when it is not an entry. */
export function opOfLine(bytes: Buffer): string | null {
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

/**
 * Returns the raw lines from the last one whose op satisfies `isStart` to the
 * end of the file, in file order (blank and non-entry lines left out), or null
 * when the file is missing. When no line matches, returns every line.
 */
export async function readTailLines(file: string, isStart: (op: string) => boolean): Promise<Buffer[] | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  const found: Buffer[] = [];
  try {
    let pos = (await fh.stat()).size;
    let carry: Buffer = Buffer.alloc(0); // start of a line whose beginning lies before `pos`
    while (pos > 0) {
      const len = Math.min(CHUNK, pos);
      pos -= len;
      const chunk = Buffer.alloc(len);
      await fh.read(chunk, 0, len, pos);
      const buf = carry.length ? Buffer.concat([chunk, carry]) : chunk;
      let segEnd = buf.length;
      for (let i = buf.length - 1; i >= -1; i--) {
        if (i >= 0 && buf[i] !== 0x0a && buf[i] !== 0x0d) continue;
        if (i < 0 && pos > 0) break;
        const bytes = Buffer.from(buf.subarray(i + 1, segEnd));
        segEnd = i;
        const op = opOfLine(bytes);
        if (op === null) continue;
        found.push(bytes);
        if (isStart(op)) return found.reverse();
      }
      carry = Buffer.from(buf.subarray(0, Math.max(segEnd, 0)));
    }
    return found.reverse();
  } finally {
    await fh.close();
  }
}
