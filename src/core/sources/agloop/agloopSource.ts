/**
 * agloop as a state source: `.agloop/` (state.json, plan.yaml, log.json, checkpoints/) written
 * by agloop's coordinator agent and its VS Code hook scripts. Detection, checks, the CLI
 * summary, the tree, the timeline (log.json) and the "recover from checkpoint" action.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ActionPreview, SourceLocation, SourceProblem, StateSource } from "../stateSource";
import { AGLOOP_DIR } from "./agloopFiles";
import { agloopManifest } from "./agloopManifest";
import { planRecovery, previewRecovery, RECOVER_ACTION, RecoveryRefusedError, runRecovery } from "./agloopRecovery";
import { loadAgloopSnapshot } from "./agloopSnapshot";
import { agloopWaiting, agloopWaitingOf } from "./agloopWaiting";
import { asArray, asRecord, asString } from "./agloopText";
import { buildAgloopTree } from "./tree/agloopTree";
import { agloopGraph } from "./agloopGraph";
import { readLogFile } from "./log/logFile";
import { readLogTimelineRows } from "./log/logTimeline";
import { contractJson } from "../phaseContract";
import { unreadableKey } from "../sourceProblems";

/** Most tasks listed by `sources` (a real plan has tens). */
const SUMMARY_TASKS = 1000;

/** Files whose presence in `.agloop/` means agloop state lives here. */
const MARKERS = ["state.json", "plan.yaml", "log.json"] as const;

/**
 * Whether `p` exists (lstat: a link or FIFO counts as present, so the check can report it), or cannot
 * be told (EACCES on `.agloop/`): a state folder that cannot be read is a source with an error, never absent.
 */
async function present(p: string): Promise<boolean> {
  try {
    await fs.promises.lstat(p);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== "ENOENT" && code !== "ENOTDIR";
  }
}

/** True for the problem of a file that is present but was not read (a refusal of the guarded read). */
function isRefusal(p: SourceProblem): boolean {
  return (p.code === "unsafe_file" || p.code === "file_too_large") && p.line === null;
}

/** The action an agloop source offers, or a refusal. */
function requireRecoverAction(action: string): void {
  if (action !== RECOVER_ACTION) {
    throw new RecoveryRefusedError(`agloop has no action ${JSON.stringify(action).slice(0, 60)}.`);
  }
}

/** The agloop state source. */
export const agloopSource: StateSource = {
  ...agloopManifest,

  async detect(workspace: string): Promise<SourceLocation | null> {
    const dir = path.join(workspace, AGLOOP_DIR);
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(dir);
    } catch {
      return null;
    }
    const location: SourceLocation = { kind: "agloop", workspace, dir, relDir: AGLOOP_DIR };
    if (st.isSymbolicLink()) return location; // reported by check(), never followed
    if (!st.isDirectory()) return null;
    for (const name of MARKERS) if (await present(path.join(dir, name))) return location;
    return null;
  },

  watchGlobs(): readonly string[] {
    return [".agloop/state.json", ".agloop/plan.yaml", ".agloop/log.json", ".agloop/checkpoints/*.json"];
  },

  async check(location) {
    return (await loadAgloopSnapshot(location)).problems;
  },

  async summarize(location) {
    const snapshot = await loadAgloopSnapshot(location);
    const state = snapshot.stateValue;
    const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
    return {
      kind: "agloop",
      path: location.relDir,
      feature: text(state?.feature_name),
      phase: text(state?.current_phase),
      iteration: typeof state?.iteration === "number" ? state.iteration : null,
      current_task_id: text(state?.current_task_id),
      // At most SUMMARY_TASKS tasks (a hostile state.json of 40,000 `{}` tasks printed 4 MB); `tasks_total` says how many there are.
      ...(asArray(state?.tasks).length > SUMMARY_TASKS ? { tasks_total: asArray(state?.tasks).length } : {}),
      tasks: asArray(state?.tasks)
        .slice(0, SUMMARY_TASKS)
        .map((t) => {
          const task = asRecord(t);
          return {
            id: text(task?.id),
            title: text(task?.title),
            status: text(task?.status),
            depends_on: asArray(task?.depends_on).filter((d): d is string => typeof d === "string"),
          };
        }),
      checkpoints: snapshot.checkpoints.checkpoints.map((c) => c.name),
      log_entries: snapshot.log.present && snapshot.log.problems.some(isRefusal) ? null : snapshot.log.entries,
      contract: contractJson(snapshot.contract),
      // Files present but not read (only then): `sources` exits 1 for them (what could not be read is not "0").
      ...unreadableKey(snapshot.problems.filter(isRefusal)),
    };
  },

  waiting: agloopWaiting,

  async tree(location) {
    return buildAgloopTree(location.workspace, await loadAgloopSnapshot(location));
  },

  async readView(location) {
    const snapshot = await loadAgloopSnapshot(location);
    const [tree, waiting] = await Promise.all([
      buildAgloopTree(location.workspace, snapshot),
      agloopWaitingOf(snapshot),
    ]);
    return { problems: snapshot.problems, tree, waiting };
  },

  async timeline(location) {
    return (await readLogTimelineRows(location.workspace)) ?? (await readLogFile(location.workspace)).rows;
  },

  graph: agloopGraph,

  async previewAction(location, action, args): Promise<ActionPreview> {
    requireRecoverAction(action);
    return previewRecovery(await planRecovery(location, asString(args[0])));
  },

  async runAction(location, action, args): Promise<string> {
    requireRecoverAction(action);
    return runRecovery(location, asString(args[0]));
  },
};
