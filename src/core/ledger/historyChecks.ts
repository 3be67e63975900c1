/**
 * Warnings beyond hashes: tasks past `reviewed`/`tested` without the evidence
 * that status implies, and a `plan.json` that does not match the ledger
 * (design §13 "staleness detection"). Not corruption; shown at lower severity.
 */
import { readRegularText } from "../fs/safeRead";
import { getMaxLineBytes } from "./ledgerLineReader";
import { truncateText } from "../text/displayText";
import { Plan } from "../plan/schemas";
import { planJsonText } from "./ledgerWriter";
import { listEvidence } from "../evidence/evidenceStore";
import { NEEDS_REVIEW_EVIDENCE, NEEDS_TEST_EVIDENCE } from "../plan/taskFsm";
import { EntrySummary, VerifyWarning } from "./verifyTypes";
import { planPath } from "../sources/autodev/paths";

/** Evidence a task's status implies but that is missing (or invalid). */
export async function missingEvidenceWarnings(cwd: string, plan: Plan, entries: readonly EntrySummary[]): Promise<VerifyWarning[]> {
  const lastChange = new Map<string, EntrySummary>();
  for (const e of entries) if (e.taskId && e.toStatus) lastChange.set(e.taskId, e);
  const out: VerifyWarning[] = [];
  for (const phase of plan.phases) {
    for (const task of phase.tasks) {
      const status = String(task.status);
      const needs: string[] = [];
      if (NEEDS_REVIEW_EVIDENCE.includes(status)) needs.push("review");
      if (NEEDS_TEST_EVIDENCE.includes(status)) needs.push("test");
      if (needs.length === 0) continue;
      const have = new Set((await listEvidence(cwd, task.id)).filter((i) => i.ok).map((i) => i.kind));
      const missing = needs.filter((k) => !have.has(k));
      if (missing.length === 0) continue;
      const at = lastChange.get(task.id);
      out.push({
        atLine: at?.line ?? 1,
        seq: at?.seq ?? null,
        kind: "missing_evidence",
        message: `task ${task.id} is '${status}' but has no valid ${missing.join(" or ")} evidence (.autodev/evidence/${task.id}-${missing[0]}.json)`,
      });
    }
  }
  return out;
}

/** Compares plan.json with the bytes the ledger's plan would produce; a warning with the first differing line, or null. */
export async function planJsonWarning(cwd: string, plan: Plan | null): Promise<VerifyWarning | null> {
  let onDisk: string | null;
  try {
    onDisk = await readRegularText(planPath(cwd), { root: cwd, what: "plan.json", maxBytes: getMaxLineBytes() });
  } catch (e) {
    // A FIFO, device, link out of the workspace, unreadable or oversized plan.json: say so, never read it.
    return { atLine: 1, seq: null, kind: "plan_json_mismatch", message: e instanceof Error ? e.message : String(e) };
  }
  if (onDisk === null) {
    return plan ? { atLine: 1, seq: null, kind: "plan_json_missing", message: "plan.json is missing; the ledger has a plan (run any write, or AutoDev, to recreate it)" } : null;
  }
  if (!plan) return null;
  const expected = planJsonText(plan);
  if (onDisk === expected) return null;
  const a = onDisk.split("\n");
  const b = expected.split("\n");
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return {
    atLine: i + 1,
    seq: null,
    kind: "plan_json_mismatch",
    message: `plan.json does not match the plan in the ledger (first difference at line ${i + 1}: expected ${JSON.stringify(truncateText((b[i] ?? "<end of file>").trim()))}, found ${JSON.stringify(truncateText((a[i] ?? "<end of file>").trim()))}). The ledger is the source of truth; run "Replay Ledger" to compare.`,
  };
}
