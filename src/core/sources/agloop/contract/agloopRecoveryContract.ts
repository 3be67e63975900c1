/**
 * "Recover from checkpoint" goes through the phase contract: the state a checkpoint would put back
 * is checked against agloop's table with today's plan.yaml and log.json (the approvals it needs are
 * logged there). A checkpoint whose state the contract forbids (a phase without its evidence, a
 * forbidden move in its history, a lost approval gate) is refused with the reason, before anything
 * is written. The append-only rule is not applied: going back to a checkpoint is what recovery is.
 */
import { CHECKPOINTS_DIR, guardAgloopPath } from "../agloopFiles";
import type { LogRead } from "../log/logFile";
import { readPlanFile } from "../checks/planChecks";
import { checkAgloopContract } from "./agloopContract";
import { RESEARCH_FILE } from "./agloopRequirements";

/** Why the contract forbids restoring `state` from checkpoint `name`, or null when it allows it. */
export async function recoveryContractRefusal(
  workspace: string,
  name: string,
  state: Record<string, unknown>,
  log: LogRead,
): Promise<string | null> {
  const checked = checkAgloopContract({
    state,
    stateFile: `${CHECKPOINTS_DIR}/${name}`,
    where: null,
    plan: await readPlanFile(workspace),
    log,
    researchFindings: (await guardAgloopPath(workspace, RESEARCH_FILE, "file")).kind === "ok",
  });
  const first = checked.problems[0];
  if (!first) return null;
  const more = checked.problems.length > 1 ? ` (and ${checked.problems.length - 1} more)` : "";
  return `the phase contract forbids the state in ${name}: ${first.code}: ${first.message}${more}`;
}
