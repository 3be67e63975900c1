/**
 * Status writes we make (the CLI's set-status, the extension's Skip and Resume) go through the
 * phase contract before anything is written: a move the state machine allows is still refused when
 * the target status would stand without its evidence (set-status 1.2 reviewed with no APPROVED
 * review), a block would carry no reason, or an inline step AutoDev is suspended on would never be
 * collected (the re-entry point lost). The state machine's own refusal (an edge it does not
 * have) stays PlanManager's, so its message keeps naming the allowed edges.
 */
import { ContractRefusedError } from "../../../errors";
import type { Plan } from "../plan/schemas";
import { canTransition } from "../plan/taskFsm";
import { listEvidence, readPatch } from "../evidence/evidenceStore";
import { expectationsFrom } from "../evidence/requiredEvidence";
import { readConfig } from "../config/configReader";
import { autodevStatusRow } from "./autodevStatusTable";
import { taskEvidence } from "./autodevEvidenceRules";
import { reentryProblems } from "./autodevReentry";
import { readInlineState } from "../inline/inlineState";
import { INLINE_STATE_REL } from "../inline/inlinePaths";

/** Why the contract forbids moving `taskId` of `plan` to `status` (with `reason` as blocked_reason), or null. */
async function contractRefusal(
  cwd: string,
  plan: Plan,
  taskId: string,
  status: string,
  reason?: string,
): Promise<string | null> {
  const task = plan.phases.flatMap((p) => p.tasks).find((t) => t.id === taskId);
  if (!task || !canTransition(String(task.status), status)) return null;
  const lost = await suspensionLost(cwd, plan, taskId, status);
  if (lost !== null) return `refusing to move task ${taskId} to '${status}': ${lost} The ledger was not changed.`;
  const row = autodevStatusRow(status);
  if (!row || (row.evidence.length === 0 && !row.needsReason)) return null;
  const items = row.evidence.length > 0 ? await listEvidence(cwd, taskId) : [];
  const dev = items.find((i) => i.ok && i.kind === "developer");
  const hasDiff = dev?.ok === true && typeof (dev.evidence as { diff?: unknown }).diff === "string";
  const { gaps } = taskEvidence(
    {
      id: taskId,
      status,
      blockedReason: reason ?? null,
      escalated: task.escalated === true,
      items,
      patch: hasDiff ? await readPatch(cwd, taskId) : null,
      line: null,
    },
    expectationsFrom((await readConfig(cwd)).config),
  );
  const gap = gaps[0];
  if (!gap) return null;
  const by = autodevStatusRow(gap.decides) ?? row;
  const hint = row.needsReason ? " Give the reason (set-status … --reason TEXT)." : "";
  return `refusing to move task ${taskId} to '${status}': ${gap.what}; AutoDev moves a task to ${by.status} only when ${by.entered} (${by.source}).${hint} The ledger was not changed.`;
}

/** Why the move would strand a suspended inline step (a re-entry the contract can no longer tell), or null. */
async function suspensionLost(cwd: string, plan: Plan, taskId: string, status: string): Promise<string | null> {
  const { waiting } = await readInlineState(cwd);
  if (waiting === null) return null;
  const inline = (p: Plan) =>
    reentryProblems(cwd, p, waiting).then((ps) => ps.filter((x) => x.file === INLINE_STATE_REL));
  const before = await inline(plan);
  const after = structuredClone(plan);
  for (const t of after.phases.flatMap((p) => p.tasks)) if (t.id === taskId) (t as { status: unknown }).status = status;
  const added = (await inline(after)).find((p) => !before.some((b) => b.message === p.message));
  return added ? `AutoDev is suspended in inline mode and ${added.message}` : null;
}

/** Throws {@link ContractRefusedError} when the contract forbids the move. */
export async function assertContractAllows(
  cwd: string,
  plan: Plan,
  taskId: string,
  status: string,
  reason?: string,
): Promise<void> {
  const why = await contractRefusal(cwd, plan, taskId, status, reason);
  if (why !== null) throw new ContractRefusedError(why);
}
