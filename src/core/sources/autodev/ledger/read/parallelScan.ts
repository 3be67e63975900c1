/**
 * Parallel verification: cuts the ledger at line starts into chunks; this
 * thread scans chunks from the front while worker threads prove and hash
 * chunks from the back (chunkClaims.ts, segmentScan.ts), and the workers'
 * results are then fed to the same {@link LedgerScanner} in file order
 * (chunkScan.ts), so chain links, replay and the damage map run exactly as in
 * a sequential scan and give the same verdict, findings and plan. Small
 * files, one core, or scans that need entry objects take the sequential path.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { openExistingLedger } from "../ledgerOpen";
import { LineCursor, RawLine, START_CURSOR } from "./ledgerLineReader";
import { readWholeLines } from "./wholeLineReader";
import { LedgerScanner } from "../ledgerScanner";
import { MAX_CHUNKS } from "./chunkClaims";
import { scanChunks } from "./chunkScan";

/** A line as reported to `onLine` (its bytes are not available in the parallel path). */
export type ScannedLineInfo = Omit<RawLine, "bytes">;

/** Options of {@link scanLedgerFile}. */
export interface ParallelScanOptions {
  /** Scan up to this many bytes (default: the size when opened). */
  readonly until?: number;
  readonly signal?: AbortSignal;
  /** Called after each line was fed to the scanner. */
  readonly onLine?: (line: ScannedLineInfo) => void;
  /** Segments (worker threads); default {@link verifyThreads}. 1 scans in this thread only. */
  readonly threads?: number;
  /** Files smaller than this are scanned in this thread (default {@link parallelMinBytes}). */
  readonly minBytes?: number;
  /** Cut chunks near these offsets instead of evenly (tests); each moves forward to the next line start. */
  readonly splitAt?: readonly number[];
  /** Tests: this thread scans exactly the first `mainChunks` chunks and the workers all the others. */
  readonly mainChunks?: number;
  /** Told the chunk starts when the scan runs in parallel (diagnostics, tests). */
  readonly onSegments?: (starts: readonly number[]) => void;
}

/**
 * Files smaller than this are scanned in this thread: a worker thread costs
 * about 80 ms of CPU to start on Node 20 (and warms its JIT again), which a
 * smaller file does not win back (see the README benchmark notes).
 * `AUTODEV_VERIFY_MIN_MB` overrides the 256 MiB default (benchmarks).
 */
function parallelMinBytes(): number {
  const env = Number(process.env.AUTODEV_VERIFY_MIN_MB);
  return process.env.AUTODEV_VERIFY_MIN_MB && env >= 0 ? env * 2 ** 20 : 256 << 20;
}
const WINDOW = 64 << 10;
/** Chunks per thread: enough that the two sides meet within a small chunk of the balance point. */
const CHUNKS_PER_THREAD = 24;
const MIN_CHUNK = 1 << 20;

/** Threads for verification: `AUTODEV_VERIFY_THREADS` when set, else the cores available. */
function verifyThreads(): number {
  const env = Number(process.env.AUTODEV_VERIFY_THREADS);
  if (Number.isInteger(env) && env >= 1) return env;
  return typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
}

let script: string | null | undefined;

/** The bundled worker script, next to this module or one folder up (null when absent). */
function workerScript(): string | null {
  if (script === undefined) {
    const candidates = [
      path.join(__dirname, "ledgerSegmentWorker.js"),
      path.join(__dirname, "..", "ledgerSegmentWorker.js"),
    ];
    script = candidates.find((c) => fs.existsSync(c)) ?? null;
  }
  return script;
}

/**
 * Scans `file` from its start into `scanner` (which must be fresh), in
 * parallel when that pays off; returns the cursor after the last terminated line.
 */
export async function scanLedgerFile(
  file: string,
  scanner: LedgerScanner,
  options: ParallelScanOptions = {},
): Promise<LineCursor> {
  const threads = options.threads ?? verifyThreads();
  const onLine = (l: RawLine): void => {
    scanner.feed(l);
    options.onLine?.(l);
  };
  const sequential = async (fh: fs.promises.FileHandle, size: number): Promise<LineCursor> =>
    readWholeLines(
      async (b, off, len, position) => (await fh.read(b, off, len, position)).bytesRead,
      START_CURSOR,
      size,
      true,
      onLine,
      { signal: options.signal },
    );
  // The guarded open (ledgerOpen.ts): a regular file inside the workspace, never a FIFO, device or outside file.
  const fh = await openExistingLedger(file);
  try {
    const st = await fh.stat();
    const size = options.until ?? st.size;
    const worker =
      threads > 1 && scanner.acceptsScannedLines && size >= (options.minBytes ?? parallelMinBytes())
        ? workerScript()
        : null;
    if (worker === null) return await sequential(fh, size);
    const bounds = await lineStarts(fh, size, options.splitAt ?? chunkTargets(size, threads));
    if (bounds.length === 0) return await sequential(fh, size);
    const starts = [0, ...bounds];
    options.onSegments?.(starts);
    return await scanChunks(
      worker,
      fh,
      size,
      starts,
      scanner,
      { threads: threads - 1, signal: options.signal, onLine: options.onLine, mainChunks: options.mainChunks },
      onLine,
    );
  } finally {
    await fh.close();
  }
}

/** Where to cut a file of `size` bytes into chunks for `threads` threads (moved to line starts later). */
function chunkTargets(size: number, threads: number): number[] {
  const count = Math.min(MAX_CHUNKS, Math.max(2, Math.min(threads * CHUNKS_PER_THREAD, Math.floor(size / MIN_CHUNK))));
  return Array.from({ length: count - 1 }, (_, k) => Math.floor((size * (k + 1)) / count));
}

/** Line starts at or after each target (a byte after `\n`, or after a `\r` not followed by `\n`), strictly inside (0, size). */
async function lineStarts(fh: fs.promises.FileHandle, size: number, targets: readonly number[]): Promise<number[]> {
  const out: number[] = [];
  const buf = Buffer.allocUnsafe(WINDOW + 1);
  for (const target of [...targets].sort((a, b) => a - b)) {
    let pos = Math.max(target, out.at(-1) ?? 0, 1);
    let found = -1;
    while (found < 0 && pos < size) {
      const { bytesRead } = await fh.read(buf, 0, Math.min(WINDOW + 1, size - pos), pos);
      if (bytesRead === 0) break;
      const window = buf.subarray(0, bytesRead);
      const lf = window.indexOf(0x0a);
      const cr = window.indexOf(0x0d);
      const j = lf >= 0 && (cr < 0 || lf < cr) ? lf : cr;
      if (j < 0) {
        pos += bytesRead;
        continue;
      }
      if (window[j] === 0x0a) found = pos + j + 1;
      else if (j + 1 < bytesRead) found = pos + j + (window[j + 1] === 0x0a ? 2 : 1);
      else if (pos + j + 1 >= size) found = size;
      else pos += j; // a `\r` at the window's end: read on from it to see the byte after it
    }
    // No line starts after this target: none after the later ones either (a file with no
    // newline must be read once here, not once per target).
    if (found < 0 || found >= size) break;
    if (found > (out.at(-1) ?? 0)) out.push(found);
  }
  return out;
}
