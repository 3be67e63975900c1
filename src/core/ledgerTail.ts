/**
 * Reads ledger entries backwards from the end of the file, so the latest
 * snapshot of a ledger of hundreds of MB is found by reading only its tail.
 */
import * as fs from "node:fs";
import { decodeUtf8Strict, pyStrip } from "./ledgerLineReader";
import { parsePyJson } from "./pyJsonParse";
import { LedgerEntry, validateLedgerEntry } from "./schemas";

const CHUNK = 1 << 20;

/**
 * Returns the entries from the last one matching `isStart` to the end of the
 * file, in file order, or null when the file is missing. Lines that do not
 * parse are skipped (this is a best-effort fast path; verification reports them).
 * When no entry matches, returns all entries.
 */
export async function readTailEntries(file: string, isStart: (e: LedgerEntry) => boolean): Promise<LedgerEntry[] | null> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  const found: LedgerEntry[] = [];
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
        const entry = parseLine(buf.subarray(i + 1, segEnd));
        segEnd = i;
        if (!entry) continue;
        found.push(entry);
        if (isStart(entry)) return found.reverse();
      }
      carry = Buffer.from(buf.subarray(0, Math.max(segEnd, 0)));
    }
    return found.reverse();
  } finally {
    await fh.close();
  }
}

function parseLine(bytes: Buffer): LedgerEntry | null {
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
