/**
 * The protocol's recovery (state-protocol §5): when state.json is missing or does not parse,
 * take the newest checkpoint that parses, strip `_checkpoint` (or unwrap a legacy `state`), write
 * it to state.json atomically and append a log line saying so. The preview names the checkpoint
 * and the run writes exactly that checkpoint's state (it refuses if state.json became valid).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ActionPreview, SourceLocation } from "../stateSource";
import { ConfinedDir } from "../../fs/confinedDir";
import { stringifyOrNull } from "../../text/jsonPreview";
import { AGLOOP_DIR, CHECKPOINTS_DIR, LOG_FILE, STATE_FILE } from "./agloopFiles";
import { asString } from "./agloopText";
import { listCheckpoints, readCheckpoint } from "./checkpoints";
import { readLogFile } from "./log/logFile";
import { readStateFile, STATE_RETRY } from "./checks/stateChecks";
import { recoveryContractRefusal } from "./contract/agloopRecoveryContract";
import { RECOVER_ACTION } from "./agloopManifest";
import { labelText } from "../../text/untrustedText";
import { errorText } from "../../text/errorText";

const STATE_NAME = "state.json";
const LOG_NAME = "log.json";

/** The action id (the manifest names it for its palette command). */
export { RECOVER_ACTION };

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
async function stateNeedsRecovery(workspace: string, retry = STATE_RETRY): Promise<boolean> {
  const read = await readStateFile(workspace, retry);
  return read.kind === "missing" || read.kind === "invalid";
}

/** Refuses unless state.json is missing or does not parse, saying which other case it is. */
async function requireRecoverable(workspace: string, retry: typeof STATE_RETRY): Promise<void> {
  const read = await readStateFile(workspace, retry);
  if (read.kind === "missing" || read.kind === "invalid") return;
  throw new RecoveryRefusedError(
    read.kind === "refused"
      ? `state.json cannot be read (${read.problem.message}); recovery does not replace a file it cannot read. Fix the file's type or permissions first.`
      : "state.json exists and parses; recovery from a checkpoint is only offered when it is missing or corrupt.",
  );
}

/** Plans a recovery from `name`, or from the newest checkpoint that parses when `name` is undefined. */
export async function planRecovery(
  location: SourceLocation,
  name?: string,
  retry = STATE_RETRY,
): Promise<RecoveryPlan> {
  const ws = location.workspace;
  await requireRecoverable(ws, retry);
  const log = await readLogFile(ws);
  if (!log.endsWithNewline) {
    throw new RecoveryRefusedError(
      "log.json ends in a partial line (an append in progress or a torn write); nothing is appended after a corrupt tail. Fix or wait for log.json, then try again.",
    );
  }
  const listed = await listCheckpoints(ws);
  const candidates = name === undefined ? listed.checkpoints.map((c) => c.name) : [name];
  if (name !== undefined && (name.includes("/") || name.includes("\\") || path.basename(name) !== name)) {
    throw new RecoveryRefusedError(`${labelText(name, 80)} is not a checkpoint name.`);
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
    const stateText = stringifyOrNull(read.state, 2); // null: nested too deep to write back; try the next one
    if (stateText === null) continue;
    const info = listed.checkpoints.find((c) => c.name === candidate);
    return {
      checkpoint: candidate,
      stateText,
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
      : `Checkpoint ${labelText(name, 80)} does not parse or holds no state.`,
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
function recoveryLogLine(plan: RecoveryPlan, now: Date): string {
  return (
    JSON.stringify({
      timestamp: now.toISOString(),
      agent: "autodev-state",
      action: "state_recovered",
      task_id: plan.taskId,
      phase: plan.phase,
      input_summary: "state.json was missing or did not parse",
      output_summary: labelText(
        `Restored state.json from checkpoints/${plan.checkpoint}${plan.createdAt ? ` (${plan.createdAt})` : ""}`,
        500,
      ),
      status: "success",
      metadata: { checkpoint: plan.checkpoint },
    }) + "\n"
  );
}

/** What state.json is on disk, to tell whether a hook rewrote it while the recovery read checkpoints. */
interface StateIdentity {
  readonly stat: fs.Stats | null;
}

function sameState(a: StateIdentity, b: StateIdentity): boolean {
  if (a.stat === null || b.stat === null) return a.stat === b.stat;
  return (
    a.stat.ino === b.stat.ino &&
    a.stat.dev === b.stat.dev &&
    a.stat.size === b.stat.size &&
    a.stat.mtimeMs === b.stat.mtimeMs
  );
}

/** A recovery that replaced state.json but could not log it: says exactly what was written. */
export class RecoveryPartialError extends Error {}

/**
 * Runs a recovery planned by `planRecovery` (re-planned here so the checks hold at write time):
 * every write goes through the checked `.agloop/` folder (confinedDir.ts), log.json is opened
 * (non-blocking, a regular file) before anything is written, state.json is re-checked right
 * before the rename (same file, size and time, still broken) and keeps its mode and owner.
 */
export async function runRecovery(
  location: SourceLocation,
  name: string | undefined,
  now = new Date(),
  retry = STATE_RETRY,
): Promise<string> {
  const ws = location.workspace;
  const dir = await ConfinedDir.open(ws, AGLOOP_DIR).catch((e: unknown) => {
    throw new RecoveryRefusedError(errorText(e));
  });
  try {
    const before: StateIdentity = { stat: await dir.lstat(STATE_NAME) };
    if (before.stat !== null && !before.stat.isFile()) {
      throw new RecoveryRefusedError(
        `state.json is not a regular file; recovery does not replace it. Nothing was written.`,
      );
    }
    const plan = await planRecovery(location, name, retry);
    let log: fs.promises.FileHandle;
    try {
      log = await dir.openAppend(LOG_NAME);
    } catch (e) {
      throw new RecoveryRefusedError(`${LOG_FILE}: ${errorText(e)} Nothing was written.`);
    }
    try {
      // The commit point: state.json must still be the broken (or missing) file planned over.
      const current: StateIdentity = { stat: await dir.lstat(STATE_NAME) };
      if (!sameState(before, current) || !(await stateNeedsRecovery(ws, { ...retry, retries: 0 }))) {
        throw new RecoveryRefusedError(
          "state.json changed while the checkpoints were read (a hook rewrote it); nothing was written. Look at it again before recovering.",
        );
      }
      const mode = before.stat?.mode ?? 0o644;
      const owner = before.stat ? { uid: before.stat.uid, gid: before.stat.gid } : undefined;
      await dir.writeAtomic(STATE_NAME, plan.stateText, ".state.json.", mode, owner);
      try {
        // One O_APPEND write, as the hooks append: a hook appending at the same time loses nothing.
        await log.write(recoveryLogLine(plan, now));
      } catch (e) {
        throw new RecoveryPartialError(
          `state.json WAS replaced with the state of ${plan.checkpoint}, but the "state_recovered" line could not be appended to ${LOG_FILE} (${errorText(e)}). The state is recovered; add the log line by hand if the history matters.`,
        );
      }
    } finally {
      await log.close();
    }
    return `Recovered state.json from ${plan.checkpoint} (phase ${plan.phase}, task ${plan.taskId ?? "none"}); logged in log.json.`;
  } finally {
    dir.close();
  }
}
