/**
 * Runs agloop's phase contract on one read of `.agloop/`: the parts that need the disk (whether
 * research_findings.json exists, the newest checkpoint's phase_history for the append-only rule)
 * are read here, guarded like every agloop read; the rest is agloopContract.ts.
 */
import { guardAgloopPath } from "../agloopFiles";
import type { CheckpointList } from "../checkpoints";
import { readCheckpoint } from "../checkpoints";
import type { LogRead } from "../log/logFile";
import type { PlanRead } from "../checks/planChecks";
import type { ValueLocator } from "../checks/schemaProblems";
import { checkAgloopContract, type AgloopContractResult } from "./agloopContract";
import { lastRecovery, shrinkProblem } from "./agloopHistory";
import { RESEARCH_FILE, type AgloopContractInput } from "./agloopRequirements";

/** What a contract check reads, besides the workspace. */
export interface AgloopContractFiles {
  readonly state: Record<string, unknown>;
  readonly stateFile: string;
  readonly where: ValueLocator | null;
  readonly plan: PlanRead;
  readonly log: LogRead;
  readonly checkpoints: CheckpointList;
}

/** Whether research_findings.json is a regular file inside the workspace. */
async function researchFindings(workspace: string): Promise<boolean> {
  return (await guardAgloopPath(workspace, RESEARCH_FILE, "file")).kind === "ok";
}

/** The contract of `files.state`, with the append-only check against the newest checkpoint since the last recovery. */
export async function loadAgloopContract(workspace: string, files: AgloopContractFiles): Promise<AgloopContractResult> {
  const input: AgloopContractInput = {
    state: files.state,
    stateFile: files.stateFile,
    where: files.where,
    plan: files.plan,
    log: files.log,
    researchFindings: await researchFindings(workspace),
  };
  const result = checkAgloopContract(input);
  const since = lastRecovery(files.log);
  const newest = files.checkpoints.checkpoints.find(
    (c) => c.format !== "invalid" && (since === null || (c.createdAt !== null && c.createdAt > since)),
  );
  if (!newest || newest.file === files.stateFile) return result;
  const read = await readCheckpoint(workspace, newest.name);
  const shrunk = read.ok ? shrinkProblem(input, read.state, newest.file) : null;
  return shrunk ? { view: result.view, problems: [...result.problems, shrunk] } : result;
}
