/**
 * A ledger's last line without its newline, seen by a live refresh, may be an append still being
 * written in place (a writer between its writes) rather than one cut off by a crash. Python
 * AutoDev itself appends by an atomic replace, so its readers never see half a line; another
 * writer (or a copy tool) may. While the ledger was written less than {@link TAIL_GRACE_MS} ago,
 * the refresh that read it is held back (what was shown stays) and the ledger is read again once
 * the grace is over: a completed line then shows as the entry it is, and a line still cut off as
 * the error it is. Manual verification never waits. Asked by the worker's refresh, which has just
 * read the ledger (the host does no file I/O).
 */
import * as fs from "node:fs";
import type { VerifyReport } from "./verifyTypes";

/** How long after its last write a ledger whose last line has no newline counts as still being written (ms). */
export const TAIL_GRACE_MS = 1000;

/**
 * How many ms to hold back `report` before showing it, or null to show it now: null unless its
 * only errors are about a cut-off last line and `ledgerFile` was last written less than
 * {@link TAIL_GRACE_MS} before `now`.
 */
export async function tailHoldMs(report: VerifyReport, ledgerFile: string, now = Date.now()): Promise<number | null> {
  // Python's own check reports the same line first (invalid_json); any error elsewhere is shown now.
  const tail = report.errors.find((e) => e.kind === "truncated_tail");
  if (!tail || report.errors.some((e) => e.atLine !== tail.atLine)) return null;
  const st = await fs.promises.stat(ledgerFile).catch(() => null);
  if (!st) return null;
  const age = now - st.mtimeMs;
  return age >= 0 && age < TAIL_GRACE_MS ? TAIL_GRACE_MS - age : null;
}
