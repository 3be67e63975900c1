/**
 * What a clean verification leaves behind so that the next window can trust
 * it without reading the ledger again: the bytes verified, the file's identity
 * and mtime, sha256 fingerprints of the last verified line and of blocks
 * sampled across the verified prefix, the head, and where to resume: the
 * chain state just before the latest plan-carrying entry, whose line (plus
 * the few after it) is re-verified to rebuild the replayed plan before the
 * appended bytes are verified.
 *
 * The record is validated with zod when it comes back from storage; anything
 * that does not hold (a changed byte in a sampled block or the last line, a
 * shorter file) means a full verification, flagged as a possible rewrite.
 * A new inode alone is not: Python AutoDev appends by writing a copy and
 * renaming it over the ledger, so every append replaces the file — the
 * fingerprints decide.
 */
import * as fs from "node:fs";
import { openLedgerFile } from "./ledgerOpen";
import { createHash } from "node:crypto";
import * as z from "zod";

const uint = z.number().int().nonnegative();
const fingerprint = z.strictObject({ start: uint, end: uint, sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** The stored form of a verification (version 1). */
const VerificationRecordSchema = z.strictObject({
  version: z.literal(1),
  /** Bytes verified: the offset just past the last verified (terminated) line. */
  length: uint,
  /** Line number the next line will have. */
  nextLine: z.number().int().positive(),
  dev: z.number(),
  ino: z.number(),
  mtimeMs: z.number(),
  /** Entries verified. */
  entries: uint,
  head: z.strictObject({ seq: uint, selfHash: z.string() }),
  lastLine: fingerprint,
  samples: z.array(fingerprint).max(256),
  /** Where to resume: the start of the latest plan-carrying line and the chain state before it. */
  resume: z.strictObject({
    offset: uint,
    lineNo: z.number().int().positive(),
    prevSeq: uint,
    prevHash: z.string(),
    entriesBefore: uint,
  }),
});

/** A verification record (see {@link VerificationRecordSchema}). */
export type VerificationRecord = z.infer<typeof VerificationRecordSchema>;

/** The record in `value` when it is one (from storage: untrusted), else null. */
export function parseVerificationRecord(value: unknown): VerificationRecord | null {
  const res = VerificationRecordSchema.safeParse(value);
  if (!res.success) return null;
  const r = res.data;
  const inside = (f: { start: number; end: number }) => f.start <= f.end && f.end <= r.length;
  if (
    !inside(r.lastLine) ||
    !r.samples.every(inside) ||
    r.resume.offset > r.length ||
    r.resume.entriesBefore > r.entries
  ) {
    return null;
  }
  return r;
}

/** How many blocks are sampled, and their size. */
const SAMPLES = 32;
const BLOCK = 4096;

/** What the caller knows after a clean scan. */
export interface RecordFacts {
  readonly length: number;
  readonly nextLine: number;
  readonly entries: number;
  readonly head: { seq: number; selfHash: string };
  readonly lastLine: { start: number; end: number };
  readonly resume: VerificationRecord["resume"];
  /** The sha256 of `lastLine`'s bytes when the caller already has it from this handle (it is not read again). */
  readonly lastLineSha256?: string;
}

/** Reads and fingerprints what a record needs; null when the file changed under us (shorter than `length`). */
export async function makeVerificationRecord(
  fh: fs.promises.FileHandle,
  facts: RecordFacts,
): Promise<VerificationRecord | null> {
  // The caller opened the ledger guarded (never a FIFO swapped in, never outside) and closes it.
  const st = await fh.stat();
  if (st.size < facts.length) return null;
  const samples = [];
  for (const [start, end] of sampleRanges(facts.length)) {
    samples.push({ start, end, sha256: await hashRange(fh, start, end) });
  }
  const { lastLineSha256, ...known } = facts;
  const lastLine = {
    ...facts.lastLine,
    sha256: lastLineSha256 ?? (await hashRange(fh, facts.lastLine.start, facts.lastLine.end)),
  };
  return { version: 1, ...known, dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs, lastLine, samples };
}

/** Block ranges spread evenly over [0, length), the first and the last included. */
function sampleRanges(length: number): [number, number][] {
  const out: [number, number][] = [];
  if (length === 0) return out;
  const n = Math.min(SAMPLES, Math.ceil(length / BLOCK));
  for (let k = 0; k < n; k++) {
    const start = n === 1 ? 0 : Math.floor(((length - BLOCK) * k) / (n - 1));
    const s = Math.max(0, start);
    out.push([s, Math.min(length, s + BLOCK)]);
  }
  return out;
}

let bytesHashed = 0;

/** Bytes read by record checks and creation so far in this thread (for tests and measurements). */
export function recordBytesRead(): number {
  return bytesHashed;
}

async function hashRange(fh: fs.promises.FileHandle, start: number, end: number): Promise<string> {
  const buf = Buffer.allocUnsafe(end - start);
  let got = 0;
  // Read synchronously: 4 KiB blocks from the page cache, where an await per block was a thread-pool
  // round trip each (33 of them per record, on the live path of every append).
  while (got < buf.length) {
    const bytesRead = fs.readSync(fh.fd, buf, got, buf.length - got, start + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  bytesHashed += got;
  return createHash("sha256").update(buf.subarray(0, got)).digest("hex");
}

/** The verdict on a stored record against the file now. */
export type RecordCheck =
  | { readonly holds: true; readonly replaced: boolean; readonly grown: boolean }
  | { readonly holds: false; readonly reason: string; readonly rewritten: boolean };

/** Checks that the bytes a record vouches for are still there, unchanged. */
export async function checkVerificationRecord(file: string, record: VerificationRecord): Promise<RecordCheck> {
  let fh: fs.promises.FileHandle;
  try {
    const opened = await openLedgerFile(file);
    if (opened === null) return { holds: false, reason: "the ledger could not be opened", rewritten: false };
    fh = opened;
  } catch {
    return { holds: false, reason: "the ledger could not be opened", rewritten: false };
  }
  try {
    const st = await fh.stat();
    const replaced = st.dev !== record.dev || st.ino !== record.ino;
    if (st.size < record.length) {
      return {
        holds: false,
        reason: `the ledger is shorter (${st.size} bytes) than the ${record.length} bytes verified earlier: it was truncated or rolled back`,
        rewritten: true,
      };
    }
    if (!replaced && st.size === record.length && st.mtimeMs !== record.mtimeMs) {
      return { holds: false, reason: "the ledger was rewritten in place since it was verified", rewritten: true };
    }
    for (const f of [record.lastLine, ...record.samples]) {
      if ((await hashRange(fh, f.start, f.end)) !== f.sha256) {
        return {
          holds: false,
          reason: `bytes ${f.start}–${f.end} changed since the ledger was verified: its history was rewritten`,
          rewritten: true,
        };
      }
    }
    return { holds: true, replaced, grown: st.size > record.length };
  } finally {
    await fh.close();
  }
}
