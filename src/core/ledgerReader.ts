/**
 * Reading the ledger: full verification (chain + replay), Python's
 * `read_entries` / `replay_ledger` / `PlanManager.load` semantics, replay to a
 * seq for time travel, and a fast tail load for the first paint of a big ledger.
 * Everything streams; memory stays bounded by one plan plus the entries after
 * the latest snapshot.
 */
import * as fs from "node:fs";
import { LineCursor, RawLine, START_CURSOR, readLines } from "./ledgerLineReader";
import { LedgerScanner, ScanOptions } from "./ledgerScanner";
import { LedgerCorruptError } from "./errors";
import { LedgerEntry, Plan, validatePlan } from "./schemas";
import { ReplayError, applyStrict, applyTolerant, PLAN_OPS } from "./replay";
import { ledgerPath } from "./paths";
import { readTailEntries } from "./ledgerTail";
import { VerifyReport } from "./verifyTypes";

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

async function exists(file: string): Promise<boolean> {
  try {
    await fs.promises.access(file);
    return true;
  } catch {
    return false;
  }
}

/** Verifies `<cwd>/.autodev/plan-ledger.jsonl`: chain checks then replay, reporting all damage. */
export async function verifyLedger(cwd: string, options: ScanOptions & { signal?: AbortSignal; file?: string } = {}): Promise<VerifyResult> {
  const file = options.file ?? ledgerPath(cwd);
  const scanner = new LedgerScanner(options);
  let cursor: LineCursor = START_CURSOR;
  if (await exists(file)) cursor = await readLines(file, (l) => scanner.feed(l), START_CURSOR, undefined, options.signal);
  return { report: reportOf(scanner), plan: scanner.ok ? scanner.plan : null, cursor, scanner };
}

/** Builds the report from a scanner's current state. */
export function reportOf(scanner: LedgerScanner): VerifyReport {
  const errors = scanner.errors();
  return { ok: errors.length === 0, entries: scanner.entries, head: scanner.head, errors, warnings: scanner.warnings(), bytes: scanner.bytes };
}

/** Raises the first problem as Python would (`LedgerCorruptError`). */
function raiseFirst(scanner: LedgerScanner): void {
  const first = scanner.errors()[0];
  if (first) throw new LedgerCorruptError(first.message, first);
}

/**
 * `read_entries` + collection of what load needs: streams once, throws the
 * first chain error, and returns the latest snapshot with the entries after it
 * (or, without any snapshot, the strict replay of everything).
 */
export async function loadPlan(cwd: string, signal?: AbortSignal): Promise<{ plan: Plan | null; entries: number; head: VerifyReport["head"] }> {
  const file = ledgerPath(cwd);
  if (!(await exists(file))) return { plan: null, entries: 0, head: null };
  let snapshot: LedgerEntry | null = null;
  let after: LedgerEntry[] = [];
  let strictPlan: Plan | null = null;
  let strictError: ReplayError | null = null;
  const scanner = new LedgerScanner({
    replay: false,
    onEntry: (_s, entry) => {
      if (!entry) return;
      if (entry.op === "snapshot") {
        snapshot = entry;
        after = [];
        return;
      }
      if (snapshot) after.push(entry);
      else if (!strictError) {
        try {
          strictPlan = applyStrict(strictPlan, entry).plan;
        } catch (e) {
          if (!(e instanceof ReplayError)) throw e;
          strictError = e;
        }
      }
    },
  });
  await readLines(file, (l: RawLine) => scanner.feed(l), START_CURSOR, undefined, signal);
  const chainErrors = scanner.errors().filter((e) => e.line !== null);
  if (chainErrors.length > 0) throw new LedgerCorruptError(chainErrors[0].message, chainErrors[0]);
  if (scanner.entries === 0) return { plan: null, entries: 0, head: null };
  const snap = snapshot as LedgerEntry | null;
  if (snap) {
    let plan: Plan = fromSnapshot(snap);
    for (const later of after) {
      try {
        plan = applyTolerant(plan, later).plan!;
      } catch (e) {
        if (e instanceof ReplayError) throw new LedgerCorruptError(e.message, { line: null, seq: Number(e.seq), kind: e.kind, message: e.message });
        throw e;
      }
    }
    return { plan, entries: scanner.entries, head: scanner.head };
  }
  const err = strictError as ReplayError | null;
  if (err) throw new LedgerCorruptError(err.message, { line: null, seq: Number(err.seq), kind: err.kind, message: err.message });
  return { plan: strictPlan, entries: scanner.entries, head: scanner.head };
}

function fromSnapshot(snap: LedgerEntry): Plan {
  const raw = snap.payload.get("plan");
  if (raw === undefined) {
    throw new LedgerCorruptError(`entry seq=${snap.seq} op=snapshot is missing payload.plan`, { line: null, seq: Number(snap.seq), kind: "missing_plan_payload", message: "snapshot without payload.plan" });
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
export async function replayLedger(cwd: string, atSeq?: number, signal?: AbortSignal): Promise<{ plan: Plan | null; entries: number }> {
  const file = ledgerPath(cwd);
  if (!(await exists(file))) return { plan: null, entries: 0 };
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
  const tail = await readTailEntries(ledgerPath(cwd), (e) => PLAN_OPS.has(e.op));
  if (!tail || tail.length === 0) return { plan: null, seq: null };
  let plan: Plan | null = null;
  for (const entry of tail) {
    if (plan === null) {
      const res = validatePlan(entry.payload.get("plan") ?? null);
      if (!res.ok) return { plan: null, seq: null };
      plan = res.value;
    } else plan = applyTolerant(plan, entry).plan;
  }
  return { plan, seq: Number(tail[tail.length - 1].seq) };
}
