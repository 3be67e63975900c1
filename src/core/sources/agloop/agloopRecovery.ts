/**
 * The protocol's recovery (state-protocol §5): when state.json is missing or does not parse,
 * take the newest checkpoint that parses, strip `_checkpoint` (or unwrap a legacy `state`), write
 * it to state.json atomically and append a log line saying so. The preview names the checkpoint
 * and the run writes exactly that checkpoint's state (it refuses if state.json became valid).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ActionPreview, SourceLocation } from "../stateSource";
import { atomicWriteFile } from "../../fs/atomicFile";
import { CHECKPOINTS_DIR, LOG_FILE, STATE_FILE, guardAgloopPath } from "./agloopFiles";
import { asString, oneLine } from "./agloopText";
import { listCheckpoints, readCheckpoint } from "./checkpoints";
import { readLogFile } from "./logFile";
import { readStateFile, STATE_RETRY } from "./stateChecks";
import { recoveryContractRefusal } from "./contract/agloopRecoveryContract";

/** The action id. */
export const RECOVER_ACTION = "recoverFromCheckpoint";

/** What a recovery will write. */
export interface RecoveryPlan {
  readonly checkpoint: string;
  /** The new state.json, byte for byte (JSON.stringify(state, null, 2), as the hooks write it). */
  readonly stateText: string;
  readonly phase: string;
  readonly taskId: string | null;
  readonly createdAt: string | null;
}

/** Why recovery cannot run (shown to the user as is). */
export class RecoveryRefusedError extends Error {}

/** Whether state.json is missing or does not parse (the only cases recovery is offered). */
export async function stateNeedsRecovery(workspace: string, retry = STATE_RETRY): Promise<boolean> {
  const read = await readStateFile(workspace, retry);
  return read.kind === "missing" || read.kind === "invalid";
}

/** Plans a recovery from `name`, or from the newest checkpoint that parses when `name` is undefined. */
export async function planRecovery(
  location: SourceLocation,
  name?: string,
  retry = STATE_RETRY,
): Promise<RecoveryPlan> {
  const ws = location.workspace;
  if (!(await stateNeedsRecovery(ws, retry))) {
    throw new RecoveryRefusedError(
      "state.json exists and parses; recovery from a checkpoint is only offered when it is missing or corrupt.",
    );
  }
  const log = await readLogFile(ws);
  if (!log.endsWithNewline) {
    throw new RecoveryRefusedError(
      "log.json ends in a partial line (an append in progress or a torn write); nothing is appended after a corrupt tail. Fix or wait for log.json, then try again.",
    );
  }
  const listed = await listCheckpoints(ws);
  const candidates = name === undefined ? listed.checkpoints.map((c) => c.name) : [name];
  if (name !== undefined && (name.includes("/") || name.includes("\\") || path.basename(name) !== name)) {
    throw new RecoveryRefusedError(`${oneLine(name, 80)} is not a checkpoint name.`);
  }
  const forbidden: string[] = [];
  for (const candidate of candidates) {
    const read = await readCheckpoint(ws, candidate);
    if (!read.ok) continue;
    const refusal = await recoveryContractRefusal(ws, candidate, read.state, log);
    if (refusal !== null) {
      if (name !== undefined) throw new RecoveryRefusedError(`Not recovered: ${refusal}. Choose another checkpoint.`);
      forbidden.push(refusal);
      continue;
    }
    const info = listed.checkpoints.find((c) => c.name === candidate);
    return {
      checkpoint: candidate,
      stateText: JSON.stringify(read.state, null, 2),
      phase: asString(read.state.current_phase) ?? "unknown",
      taskId: asString(read.state.current_task_id) ?? null,
      createdAt: info?.createdAt ?? null,
    };
  }
  if (forbidden.length > 0) {
    throw new RecoveryRefusedError(
      `No checkpoint can be restored: ${forbidden[0]}${forbidden.length > 1 ? ` (${forbidden.length - 1} more checkpoint(s) refused likewise)` : ""}.`,
    );
  }
  throw new RecoveryRefusedError(
    name === undefined
      ? `No checkpoint in ${CHECKPOINTS_DIR} parses. Run /reset in agloop to start a fresh state (the protocol's CONTEXT_INSUFFICIENT case).`
      : `Checkpoint ${oneLine(name, 80)} does not parse or holds no state.`,
  );
}

/** The confirmation text of a recovery plan. */
export function previewRecovery(plan: RecoveryPlan): ActionPreview {
  const lines = plan.stateText.split("\n").length;
  return {
    title: `Recover .agloop/state.json from ${plan.checkpoint}`,
    detail:
      `Writes ${STATE_FILE} (${lines} lines, atomically: temp file + rename) with the state saved in ${CHECKPOINTS_DIR}/${plan.checkpoint}` +
      `${plan.createdAt ? ` (${plan.createdAt})` : ""}, without its _checkpoint metadata: phase ${plan.phase}, current task ${plan.taskId ?? "none"}. ` +
      `Appends one "state_recovered" line to ${LOG_FILE}. Work done after the checkpoint is not in it and may need to be redone.`,
    writes: [STATE_FILE, LOG_FILE],
  };
}

/** The log line a recovery appends (the protocol's log entry fields, plus metadata). */
export function recoveryLogLine(plan: RecoveryPlan, now: Date): string {
  return (
    JSON.stringify({
      timestamp: now.toISOString(),
      agent: "autodev-state",
      action: "state_recovered",
      task_id: plan.taskId,
      phase: plan.phase,
      input_summary: "state.json was missing or did not parse",
      output_summary: oneLine(
        `Restored state.json from checkpoints/${plan.checkpoint}${plan.createdAt ? ` (${plan.createdAt})` : ""}`,
        500,
      ),
      status: "success",
      metadata: { checkpoint: plan.checkpoint },
    }) + "\n"
  );
}

/** Runs a recovery planned by `planRecovery` (re-planned here so the checks hold at write time). */
export async function runRecovery(
  location: SourceLocation,
  name: string | undefined,
  now = new Date(),
  retry = STATE_RETRY,
): Promise<string> {
  const plan = await planRecovery(location, name, retry);
  const ws = location.workspace;
  const stateAbs = path.join(ws, ...STATE_FILE.split("/"));
  const logAbs = path.join(ws, ...LOG_FILE.split("/"));
  for (const rel of [STATE_FILE, LOG_FILE]) {
    const g = await guardAgloopPath(ws, rel, "file");
    if (g.kind === "refused") throw new RecoveryRefusedError(g.problem.message);
  }
  await atomicWriteFile(stateAbs, plan.stateText, ".state.json.");
  const line = recoveryLogLine(plan, now);
  // One O_APPEND write, as the hooks append: a hook appending at the same time loses nothing.
  const fh = await fs.promises.open(
    logAbs,
    fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await fh.write(line);
  } finally {
    await fh.close();
  }
  return `Recovered state.json from ${plan.checkpoint} (phase ${plan.phase}, task ${plan.taskId ?? "none"}); logged in log.json.`;
}
