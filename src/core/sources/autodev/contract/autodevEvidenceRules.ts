/**
 * The evidence half of AutoDev's contract for one task: what its status stands on
 * (autodevStatusTable.ts), found or not in `.autodev/evidence/`, and whether its content is the
 * outcome that moved the task (the developer succeeded, the reviewer APPROVED, no test failed).
 * Python rewrites a bundle on every retry but always goes back to `in_progress` first, so the
 * bundles a task has in a status are the ones of the attempt that reached it.
 */
import { AUTODEV_DIR, EVIDENCE_DIR } from "../autodevPaths";
import type { EvidenceItem, PatchItem } from "../evidence/evidenceStore";
import type { EvidenceExpectations } from "../evidence/requiredEvidence";
import type { ContractEvidence } from "../../phaseContract";
import { EVIDENCE_DECIDES, autodevStatusRow, type StatusEvidenceKind } from "./autodevStatusTable";

/** What the rules need about one task. */
export interface TaskEvidenceInput {
  readonly id: string;
  readonly status: string;
  readonly blockedReason: unknown;
  readonly escalated: boolean;
  readonly items: readonly EvidenceItem[];
  readonly patch: PatchItem | null;
  /** The ledger line that moved the task into its status (the value a problem points at). */
  readonly line: number | null;
}

/** One unmet need: what is missing or says otherwise, and the status whose move it decides. */
interface EvidenceGap {
  readonly what: string;
  readonly file: string;
  readonly decides: string;
}

/** The status each bundle kind moves a task to (execute_phase.py writes it, then moves the task). */
const DECIDES_STATUS: Readonly<Record<StatusEvidenceKind, string>> = {
  developer: "coded",
  review: "reviewed",
  test: "tested",
  tournament: "tournamented",
};

/** The task's evidence, as the contract lists it, and the gaps. */
export interface TaskEvidence {
  readonly evidence: readonly ContractEvidence[];
  readonly gaps: readonly EvidenceGap[];
}

const LEDGER = `${AUTODEV_DIR}/plan-ledger.jsonl`;

function bundleFile(taskId: string, kind: string): string {
  return `${AUTODEV_DIR}/${EVIDENCE_DIR}/${taskId}-${kind}.json`;
}

/** Why a valid bundle of `kind` does not decide the move (null when it does). */
function contentGap(item: EvidenceItem & { ok: true }): string | null {
  const e = item.evidence as unknown as Record<string, unknown>;
  switch (item.kind as StatusEvidenceKind) {
    case "developer":
      return e.success === true ? null : "says the developer failed (success: false)";
    case "review":
      return e.verdict === "APPROVED" ? null : `says ${String(e.verdict)}, not APPROVED`;
    case "test":
      return Number(e.failed) === 0 ? null : `says ${String(e.failed)} test(s) failed`;
    default:
      return null;
  }
}

/** The evidence of `task` for its status, with the gaps. */
export function taskEvidence(task: TaskEvidenceInput, expect: EvidenceExpectations): TaskEvidence {
  const row = autodevStatusRow(task.status);
  const evidence: ContractEvidence[] = [];
  const gaps: EvidenceGap[] = [];
  if (!row) return { evidence, gaps };
  const unreadable = task.items.find((i) => !i.ok && i.kind === "?");
  if (unreadable && !unreadable.ok && row.evidence.length > 0) {
    const file = `${AUTODEV_DIR}/${EVIDENCE_DIR}`;
    evidence.push({ what: "the task's evidence", file, line: null, present: false });
    gaps.push({ what: `its evidence cannot be read (${unreadable.error})`, file, decides: row.status });
    return { evidence, gaps };
  }
  for (const kind of row.evidence) {
    const decides = DECIDES_STATUS[kind];
    if (kind === "tournament" && !expect.implTournament) continue;
    const file = bundleFile(task.id, kind);
    const item = task.items.find((i) => i.kind === kind);
    const what = EVIDENCE_DECIDES[kind];
    if (kind === "tournament" && (!item || !item.ok)) {
      // Not authoritative: _execute_one catches any impl tournament error and moves to tournamented anyway
      // (inline mode always fails it), so a task stands there without it by the writer's own rule.
      evidence.push({
        what: `${what} (AutoDev moves on without it when the tournament fails)`,
        file,
        line: null,
        present: false,
      });
      continue;
    }
    if (!item || !item.ok) {
      evidence.push({ what, file, line: null, present: false });
      const why = item ? `is not valid (${item.error})` : "is missing";
      gaps.push({ what: `${file} ${why}`, file, decides });
      continue;
    }
    const gap = contentGap(item);
    evidence.push({ what, file, line: 1, present: gap === null });
    if (gap !== null) gaps.push({ what: `${file} ${gap}`, file, decides });
    if (kind === "developer") {
      const diff = (item.evidence as unknown as { diff?: unknown }).diff;
      if (typeof diff === "string" && diff !== "") {
        const patchFile = `${AUTODEV_DIR}/${EVIDENCE_DIR}/${task.id}.patch`;
        const ok = task.patch?.ok === true;
        evidence.push({ what: "the developer's diff as a patch", file: patchFile, line: 1, present: ok });
        if (!ok) {
          const what = `${patchFile} (written with the developer evidence, whose diff is not empty) is missing`;
          gaps.push({ what, file: patchFile, decides });
        }
      }
    }
  }
  if (row.needsReason) {
    const ok = typeof task.blockedReason === "string" && task.blockedReason.trim() !== "";
    evidence.push({ what: "the blocked_reason of the ledger entry", file: LEDGER, line: task.line, present: ok });
    if (!ok) gaps.push({ what: "no blocked_reason is given for the block", file: LEDGER, decides: "blocked" });
    if (task.escalated) {
      const file = bundleFile(task.id, "critic");
      const critic = task.items.find((i) => i.kind === "critic" && i.ok);
      evidence.push({
        what: "the critic's diagnosis of the escalation",
        file,
        line: critic ? 1 : null,
        present: !!critic,
      });
    }
  }
  return { evidence, gaps };
}
