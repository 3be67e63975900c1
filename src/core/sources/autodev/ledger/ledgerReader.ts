/**
 * Reading the ledger: full verification (chain + replay), Python's
 * `read_entries` / `replay_ledger` / `PlanManager.load` semantics, replay to a
 * seq for time travel, and a fast tail load for the first paint of a big ledger.
 * Everything streams; memory stays bounded by one plan plus the entries after
 * the latest snapshot.
 */
import { checkRegularFile } from "../../../fs/safeRead";
import { LineCursor, RawLine, START_CURSOR, readLines } from "./read/ledgerLineReader";
import { decodeUtf8Strict } from "../../../text/utf8";
import { pyStrip } from "../../../pyjson/pyBuiltins";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { LedgerScanner, ScanOptions } from "./ledgerScanner";
import { scanLedgerFile } from "./read/parallelScan";
import { LedgerCorruptError } from "../../../errors";
import { LedgerEntry, Plan, validateLedgerEntry, validatePlan } from "../plan/schemas";
import { ReplayError, applyTolerant, PLAN_OPS } from "./replay";
import { ledgerPath } from "../autodevPaths";
import { parseTailLine, readTailLines } from "./read/ledgerTail";
import { fastCanonicalLine, planOfFastLine } from "../canonical/fastCanonical";
import { EntrySummary, VerifyReport } from "./verifyTypes";

/** Result of a full verification. */
export interface VerifyResult {
  readonly report: VerifyReport;
  /** The replayed plan at the end (null when replay failed or the ledger is empty). */
  readonly plan: Plan | null;
  /** Where the next incremental scan should resume. */
  readonly cursor: LineCursor;
  /** The scanner, to continue incrementally with the lines appended later. */
  readonly scanner: LedgerScanner;
}

/**
 * True when the ledger exists; false only for ENOENT. Anything else (a FIFO, a
 * device, a link out of the workspace or in a loop, EACCES) throws
 * `UnsafeFileError`: a ledger that cannot be read is never "ok, 0 entries".
 */
async function exists(file: string, cwd: string): Promise<boolean> {
  return (await checkRegularFile(file, { root: cwd, what: "the ledger" })) !== null;
}

/** Verifies `<cwd>/.autodev/plan-ledger.jsonl`: chain checks then replay, reporting all damage. */
export async function verifyLedger(
  cwd: string,
  options: ScanOptions & { signal?: AbortSignal; file?: string; threads?: number } = {},
): Promise<VerifyResult> {
  const file = options.file ?? ledgerPath(cwd);
  const scanner = new LedgerScanner(options);
  let cursor: LineCursor = START_CURSOR;
  if (await exists(file, cwd)) {
    cursor = await scanLedgerFile(file, scanner, { signal: options.signal, threads: options.threads });
  }
  return { report: reportOf(scanner), plan: scanner.ok ? scanner.plan : null, cursor, scanner };
}

/** Builds the report from a scanner's current state. */
export function reportOf(scanner: LedgerScanner): VerifyReport {
  const errors = scanner.errors();
  return {
    ok: errors.length === 0,
    entries: scanner.entries,
    head: scanner.head,
    errors,
    warnings: scanner.warnings(),
    bytes: scanner.bytes,
  };
}

/** Raises the first problem as Python would (`LedgerCorruptError`). */
function raiseFirst(scanner: LedgerScanner): void {
  const first = scanner.errors()[0];
  if (first) throw new LedgerCorruptError(first.message, first);
}

/**
 * `PlanManager.load`: `read_entries` (throws the first chain error), then the
 * latest snapshot with the later entries applied by the tolerant rules — or,
 * without any snapshot, the strict replay of everything. One streaming pass
 * that builds no entry objects (summaries only), then a re-read of just the
 * latest snapshot line and the lines after it.
 */
export async function loadPlan(
  cwd: string,
  signal?: AbortSignal,
): Promise<{ plan: Plan | null; entries: number; head: VerifyReport["head"]; lastOp?: string }> {
  const file = ledgerPath(cwd);
  if (!(await exists(file, cwd))) return { plan: null, entries: 0, head: null };
  let snapshot: EntrySummary | null = null;
  let last: EntrySummary | null = null;
  const scanner = new LedgerScanner({
    replay: true,
    entryArgument: false,
    onEntry: (s) => {
      last = s;
      if (s.op === "snapshot") snapshot = s;
    },
  });
  await readLines(file, (l: RawLine) => scanner.feed(l), START_CURSOR, undefined, signal);
  const first = scanner.errors()[0];
  if (first && first.line !== null) throw new LedgerCorruptError(first.message, first);
  if (scanner.entries === 0) return { plan: null, entries: 0, head: null };
  const snap = snapshot as EntrySummary | null;
  if (!snap) {
    if (first) throw new LedgerCorruptError(first.message, first);
    return {
      plan: scanner.plan,
      entries: scanner.entries,
      head: scanner.head,
      lastOp: (last as EntrySummary | null)?.op,
    };
  }
  const tail: LedgerEntry[] = [];
  await readLines(
    file,
    (l) => {
      const e = parseEntryLine(l.bytes);
      if (e) tail.push(e);
    },
    { offset: snap.start, lineNo: snap.line, afterCR: false },
    (last as EntrySummary | null)?.end ?? snap.end,
    signal,
  );
  let plan: Plan = fromSnapshot(tail[0]);
  for (const later of tail.slice(1)) {
    try {
      plan = applyTolerant(plan, later).plan!;
    } catch (e) {
      if (e instanceof ReplayError) {
        throw new LedgerCorruptError(e.message, { line: null, seq: Number(e.seq), kind: e.kind, message: e.message });
      }
      throw e;
    }
  }
  return { plan, entries: scanner.entries, head: scanner.head, lastOp: (last as EntrySummary | null)?.op };
}

/** Parses one verified ledger line into an entry (null for a blank line). */
function parseEntryLine(bytes: Buffer): LedgerEntry | null {
  const text = decodeUtf8Strict(bytes);
  const stripped = text === null ? "" : pyStrip(text);
  if (!stripped) return null;
  const res = validateLedgerEntry(parsePyJson(stripped));
  if (!res.ok) throw new LedgerCorruptError(`ledger changed while it was read: ${res.error}`);
  return res.value;
}

function fromSnapshot(snap: LedgerEntry): Plan {
  const raw = snap.payload.get("plan");
  if (raw === undefined) {
    throw new LedgerCorruptError(`entry seq=${snap.seq} op=snapshot is missing payload.plan`, {
      line: null,
      seq: Number(snap.seq),
      kind: "missing_plan_payload",
      message: "snapshot without payload.plan",
    });
  }
  const res = validatePlan(raw);
  if (!res.ok) {
    const message = `entry seq=${snap.seq} op=snapshot: payload.plan is not a valid Plan: ${res.error}`;
    throw new LedgerCorruptError(message, { line: null, seq: Number(snap.seq), kind: "plan_invalid", message });
  }
  return res.value;
}

/**
 * `replay_ledger`, optionally stopping after entry `atSeq` (time travel).
 * Throws the first problem as `LedgerCorruptError`.
 */
export async function replayLedger(
  cwd: string,
  atSeq?: number,
  signal?: AbortSignal,
): Promise<{ plan: Plan | null; entries: number }> {
  const file = ledgerPath(cwd);
  if (!(await exists(file, cwd))) return { plan: null, entries: 0 };
  const scanner = new LedgerScanner({ replay: true, maxFindings: 1 });
  await readLines(
    file,
    (l) => {
      scanner.feed(l);
      if (!scanner.ok) return false;
      if (atSeq !== undefined && scanner.head && Number(scanner.head.seq) >= atSeq) return false;
    },
    START_CURSOR,
    undefined,
    signal,
  );
  raiseFirst(scanner);
  return { plan: scanner.plan, entries: scanner.entries };
}

/**
 * First paint for big ledgers: finds the latest plan-carrying entry by reading
 * backwards from the end, then applies the entries after it with the tolerant
 * rules. No chain verification (run `verifyLedger` in the background for that).
 */
export async function loadFromTail(cwd: string): Promise<{ plan: Plan | null; seq: number | null }> {
  const lines = await readTailLines(ledgerPath(cwd), (op) => PLAN_OPS.has(op), cwd);
  if (!lines || lines.length === 0) return { plan: null, seq: null };
  // The plan-carrying entry: proven canonical without building objects, else parsed and validated.
  const head = fastCanonicalLine(lines[0], true);
  let plan: Plan | null = head ? planOfFastLine(lines[0], head) : null;
  let seq: number | null = head ? Number(head.seq) : null;
  if (plan === null) {
    const parsed = parseTailLine(lines[0]);
    if (!parsed || !PLAN_OPS.has(parsed.op)) return { plan: null, seq: null };
    const res = validatePlan(parsed.payload.get("plan") ?? null);
    if (!res.ok) return { plan: null, seq: null };
    plan = res.value;
    seq = Number(parsed.seq);
  }
  try {
    for (const bytes of lines.slice(1)) {
      const entry = parseTailLine(bytes);
      if (!entry) continue;
      plan = applyTolerant(plan!, entry).plan;
      seq = Number(entry.seq);
    }
  } catch (e) {
    if (e instanceof ReplayError) return { plan: null, seq: null };
    throw e;
  }
  return { plan, seq };
}
