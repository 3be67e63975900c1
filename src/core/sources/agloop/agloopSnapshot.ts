/**
 * One consistent read of a `.agloop/` folder: state.json, plan.yaml, log.json and the
 * checkpoints, with every problem found, sorted by file then line. The tree, the CLI summary,
 * the timeline and the checks are all views of a snapshot.
 */
import type { SourceLocation, SourceProblem } from "../stateSource";
import { AGLOOP_DIR, STATE_FILE, guardAgloopPath } from "./agloopFiles";
import { asArray, asRecord, asString } from "./agloopText";
import { listCheckpoints, type CheckpointList } from "./checkpoints";
import { readLogFile, type LogRead } from "./log/logFile";
import { checkPlan, readPlanFile, type PlanRead, type StateTaskView } from "./checks/planChecks";
import {
  checkState,
  jsonLocator,
  readStateFile,
  STATE_RETRY,
  type RetryPolicy,
  type StateRead,
} from "./checks/stateChecks";
import type { ContractView } from "../phaseContract";
import { loadAgloopContract } from "./contract/agloopContractRead";
import { ProblemCollector, pushAll } from "../sourceProblems";

/** Everything read from one `.agloop/` folder. */
export interface AgloopSnapshot {
  readonly state: StateRead;
  /** The parsed state object (undefined when state.json is missing, refused or invalid). */
  readonly stateValue: Record<string, unknown> | undefined;
  readonly plan: PlanRead;
  readonly log: LogRead;
  readonly checkpoints: CheckpointList;
  /** The phase contract of the current phase (null without a usable state). */
  readonly contract: ContractView | null;
  readonly problems: readonly SourceProblem[];
}

/** Options for tests: the half-written-file retry. */
export interface SnapshotOptions {
  readonly retry?: RetryPolicy;
}

/** The tasks and dependencies of a state, for comparing with plan.yaml. */
function taskView(state: Record<string, unknown> | undefined): StateTaskView | null {
  const tasks = asArray(state?.tasks).map(asRecord);
  if (tasks.length === 0) return null;
  const ids = new Set<string>();
  const dependsOn = new Map<string, string[]>();
  for (const t of tasks) {
    const id = asString(t?.id);
    if (id === undefined || ids.has(id)) continue;
    ids.add(id);
    dependsOn.set(
      id,
      asArray(t?.depends_on).filter((d): d is string => typeof d === "string"),
    );
  }
  return { ids, dependsOn };
}

/** Sorts problems by file, then line (null first), then code. */
function sortProblems(problems: readonly SourceProblem[]): SourceProblem[] {
  return [...problems].sort(
    (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.code.localeCompare(b.code),
  );
}

/** Reads and checks the `.agloop/` folder of `location`. */
export async function loadAgloopSnapshot(
  location: SourceLocation,
  options: SnapshotOptions = {},
): Promise<AgloopSnapshot> {
  const ws = location.workspace;
  const folder = await guardAgloopPath(ws, AGLOOP_DIR, "dir");
  if (folder.kind !== "ok") {
    const problems = folder.kind === "refused" ? [folder.problem] : [];
    const none = { kind: "missing" } as const;
    return {
      state: none,
      stateValue: undefined,
      plan: none,
      log: { present: false, entries: 0, rows: [], problems: [], endsWithNewline: true, events: [] },
      checkpoints: { checkpoints: [], problems: [] },
      contract: null,
      problems,
    };
  }
  const [state, plan, log, checkpoints] = await Promise.all([
    readStateFile(ws, options.retry ?? STATE_RETRY),
    readPlanFile(ws),
    readLogFile(ws),
    listCheckpoints(ws),
  ]);
  const problems = new ProblemCollector(); // at most PROBLEMS_PER_FILE per file, the rest summarised
  let stateValue: Record<string, unknown> | undefined;
  let contract: ContractView | null = null;
  if (state.kind === "ok") {
    stateValue = asRecord(state.json.value);
    const where = jsonLocator(".agloop/state.json", state.json);
    pushAll(problems, checkState(state.json.value, where));
    if (stateValue) {
      const checked = await loadAgloopContract(ws, {
        state: stateValue,
        stateFile: STATE_FILE,
        where,
        plan,
        log,
        checkpoints,
      });
      contract = checked.view;
      pushAll(problems, checked.problems);
    }
  } else if (state.kind === "refused" || state.kind === "invalid") problems.push(state.problem);
  if (plan.kind === "ok") pushAll(problems, checkPlan(plan.value, plan.where, taskView(stateValue)));
  else if (plan.kind === "refused") problems.push(plan.problem);
  else if (plan.kind === "invalid") pushAll(problems, plan.problems);
  pushAll(problems, log.problems);
  pushAll(problems, checkpoints.problems);
  return { state, stateValue, plan, log, checkpoints, contract, problems: sortProblems(problems.result()) };
}
