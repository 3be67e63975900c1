/**
 * Warnings beyond hashes: tasks past `coded`/`reviewed`/`tested`/`tournamented` without the evidence
 * that status implies, and a `plan.json` that does not match the ledger
 * (design §13 "staleness detection"). Not corruption; shown at lower severity.
 */
import { findAutodevProcess } from "./run/autodevProcess";
import { readRegularText } from "../../fs/safeRead";
import { getMaxLineBytes } from "../../fs/lineLimit";
import { truncateText } from "../../text/displayText";
import { Plan } from "./plan/schemas";
import { planJsonText } from "./ledger/ledgerWriter";
import { DIRECT_EVIDENCE_READS, EvidenceReads, checkBundleRef } from "./evidence/evidenceStore";
import { resolveBundle } from "./evidence/taskEvidence";
import { danglingBundleMessage } from "./evidence/evidenceNames";
import { requiredEvidenceKinds } from "./evidence/requiredEvidence";
import { workspaceExpectations } from "./evidence/evidenceExpectations";
import { EntrySummary, VerifyWarning } from "./ledger/verifyTypes";
import * as fs from "node:fs";
import { ledgerPath, planPath } from "./autodevPaths";
import { errorText } from "../../text/errorText";

/** Evidence a task's status implies but that is missing (or invalid); `reads`: how bundles and patches are read. */
export async function missingEvidenceWarnings(
  cwd: string,
  plan: Plan,
  entries: readonly EntrySummary[],
  reads: EvidenceReads = DIRECT_EVIDENCE_READS,
): Promise<VerifyWarning[]> {
  const lastChange = new Map<string, EntrySummary>();
  for (const e of entries) if (e.taskId && e.toStatus) lastChange.set(e.taskId, e);
  const out: VerifyWarning[] = [];
  const expectations = await workspaceExpectations(cwd);
  for (const phase of plan.phases) {
    for (const task of phase.tasks) {
      const status = String(task.status);
      const needs = requiredEvidenceKinds(status, expectations.forTask(task.id));
      if (needs.length === 0) continue;
      const items = (await reads.listEvidence(cwd, task.id)).filter((i) => i.ok);
      const have = new Set(items.map((i) => i.kind));
      const missing = needs.filter((k) => !have.has(k));
      const at = lastChange.get(task.id);
      if (missing.length > 0) {
        const why =
          missing.includes("tournament") && missing.length === 1
            ? " (the impl tournament is enabled in config.json; it was skipped or failed)"
            : "";
        out.push({
          atLine: at?.line ?? 1,
          seq: at?.seq ?? null,
          kind: "missing_evidence",
          message: `task ${task.id} is '${status}' but has no valid ${missing.join(" or ")} evidence (.autodev/evidence/${task.id}-${missing[0]}.json)${why}`,
        });
      }
      const bundle = task.evidence_bundle;
      const ref = typeof bundle === "string" && bundle !== "" ? checkBundleRef(cwd, bundle) : null;
      const patch = ref?.ok ? await reads.readPatch(cwd, task.id) : null;
      const resolved = ref?.ok
        ? resolveBundle(task.id, ref.file, [...items.map((i) => i.file), ...(patch ? [patch.file] : [])])
        : null;
      const dangling = resolved ? danglingBundleMessage(task.id, resolved) : null;
      if (dangling !== null) {
        out.push({ atLine: at?.line ?? 1, seq: at?.seq ?? null, kind: "evidence_bundle_dangling", message: dangling });
      }
      const dev = items.find((i) => i.ok && i.evidence.kind === "developer");
      if (
        dev?.ok &&
        dev.evidence.kind === "developer" &&
        dev.evidence.diff &&
        (await reads.readPatch(cwd, task.id)) === null
      ) {
        out.push({
          atLine: at?.line ?? 1,
          seq: at?.seq ?? null,
          kind: "missing_evidence",
          message: `task ${task.id} is '${status}' and its developer evidence has a diff, but .autodev/evidence/${task.id}.patch (written with it) is missing`,
        });
      }
    }
  }
  return out;
}

/**
 * Compares plan.json with the bytes the ledger's plan would produce; a warning with the first differing line, or
 * null. Null too while AutoDev runs in the folder: it appends to the ledger first and replaces plan.json a few
 * milliseconds later (seen on every status change of the recorded default-mode run), so a plan.json that is one
 * write behind is its write in flight, not drift. Null also when the ledger grew after `plan` was read from
 * it (`ledgerBytes`: its size then): plan.json may be that newer write's; the next read compares again.
 */
export async function planJsonWarning(
  cwd: string,
  plan: Plan | null,
  ledgerBytes?: number,
): Promise<VerifyWarning | null> {
  const w = await planJsonDrift(cwd, plan);
  if (w && (w.kind === "plan_json_mismatch" || w.kind === "plan_json_missing") && plan) {
    if ((await findAutodevProcess(cwd)).state === "found") return null;
    // The ledger grew after `plan` was read from it: plan.json may already hold that newer write (seen
    // in the live replay: AutoDev appended, replaced plan.json and exited between the two reads).
    if (ledgerBytes !== undefined && (await ledgerSize(cwd)) !== ledgerBytes) return null;
  }
  return w;
}

async function ledgerSize(cwd: string): Promise<number | null> {
  try {
    return (await fs.promises.lstat(ledgerPath(cwd))).size;
  } catch {
    return null;
  }
}

async function planJsonDrift(cwd: string, plan: Plan | null): Promise<VerifyWarning | null> {
  let onDisk: string | null;
  try {
    onDisk = await readRegularText(planPath(cwd), { root: cwd, what: "plan.json", maxBytes: getMaxLineBytes() });
  } catch (e) {
    // A FIFO, device, link out of the workspace, unreadable or oversized plan.json: say so, never read it.
    return { atLine: 1, seq: null, kind: "plan_json_mismatch", message: errorText(e) };
  }
  if (onDisk === null) {
    return plan
      ? {
          atLine: 1,
          seq: null,
          kind: "plan_json_missing",
          message: "plan.json is missing; the ledger has a plan (run any write, or AutoDev, to recreate it)",
        }
      : null;
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
