/**
 * The requirements of agloop's phase contract (agloopPhaseTable.ts), evaluated against one state:
 * each says what it asks for, whether the state has it, and where the deciding value is (state.json,
 * plan.yaml, log.json or research_findings.json, with its line), so a problem and a tree link can
 * point at it. The user's approvals are read from log.json: the coordinator "logs approval and
 * transition" (agloop.agent.md, research and critique); an approval is an entry of the coordinator
 * whose action names an approval (`user_approved`, `plan_approved`, …; not a request for one),
 * logged in that phase after the latest transition into it.
 */
import type { JsonPath } from "../../../text/jsonOffsets";
import { LOG_FILE, PLAN_FILE } from "../agloopFiles";
import { asArray, asRecord, asString } from "../agloopText";
import type { LogEvent, LogRead } from "../log/logFile";
import type { PlanRead } from "../checks/planChecks";
import type { ValueLocator } from "../checks/schemaProblems";
import type { AgloopRequirement } from "./agloopPhaseTable";

/** The research file the coordinator persists after research (agloop.agent.md, research, COMPLETE). */
export const RESEARCH_FILE = ".agloop/research_findings.json";

/** Everything a requirement may look at. */
export interface AgloopContractInput {
  readonly state: Record<string, unknown>;
  /** The file the state came from (state.json, or a checkpoint for a recovery). */
  readonly stateFile: string;
  /** Positions in `stateFile`, or null when lines are not known. */
  readonly where: ValueLocator | null;
  readonly plan: PlanRead;
  readonly log: LogRead;
  /** Whether .agloop/research_findings.json is a regular file. */
  readonly researchFindings: boolean;
}

/** One requirement, evaluated. */
export interface RequirementResult {
  readonly what: string;
  readonly met: boolean;
  readonly file: string;
  readonly line: number | null;
}

/** The line of `path` in the state file. */
export function stateLine(input: AgloopContractInput, path: JsonPath): number | null {
  return input.where?.lineAt(path) ?? null;
}

/** The critic's verdict as the coordinator stored it (a normalized object, or a string digest). */
export function criticVerdict(state: Record<string, unknown>): "APPROVE" | "REVISE" | null {
  const digest = asRecord(state.compaction_context)?.critique_digest;
  const text = asString(asRecord(digest)?.verdict) ?? asString(digest) ?? "";
  if (/\bAPPROVE/i.test(text)) return "APPROVE";
  if (/\bREVISE/i.test(text)) return "REVISE";
  return null;
}

/** An action or question that names an approval. */
export const APPROVAL = /approv/i;
const NOT_AN_ANSWER = /request|await|wait|pending|ask/i;
const COORDINATOR = /^(agloop|coordinator|user)\b/i;

/** Whether a log event records the user's approval. */
function isApproval(e: LogEvent): boolean {
  return APPROVAL.test(e.action) && !NOT_AN_ANSWER.test(e.action) && COORDINATOR.test(e.agent ?? "");
}

/** The latest approval logged in `phase` after the latest transition into it, or null. */
export function approvalIn(log: LogRead, phase: string): LogEvent | null {
  let found: LogEvent | null = null;
  for (const e of log.events) {
    if (e.action === "phase_transition" && e.phase === phase) found = null;
    else if (e.phase === phase && isApproval(e)) found = e;
  }
  return found;
}

/** The index and record of the current task, or null. */
export function currentTask(state: Record<string, unknown>): { index: number; task: Record<string, unknown> } | null {
  const id = asString(state.current_task_id);
  if (id === undefined) return null;
  const index = asArray(state.tasks).findIndex((t) => asRecord(t)?.id === id);
  return index < 0 ? null : { index, task: asRecord(asArray(state.tasks)[index]) ?? {} };
}

/** Tasks that are not done or failed and not held back by a failed dependency (transitively). */
function unsettledTasks(state: Record<string, unknown>): number[] {
  const tasks = asArray(state.tasks).map(asRecord);
  const byId = new Map<string, Record<string, unknown>>();
  for (const t of tasks) if (t && typeof t.id === "string" && !byId.has(t.id)) byId.set(t.id, t);
  const failedBelow = (id: string, seen: Set<string>): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const t = byId.get(id);
    if (!t) return false;
    if (t.status === "failed") return true;
    return asArray(t.depends_on).some((d) => typeof d === "string" && failedBelow(d, seen));
  };
  const out: number[] = [];
  tasks.forEach((t, i) => {
    if (!t || t.status === "done" || t.status === "failed") return;
    const deps = asArray(t.depends_on).filter((d): d is string => typeof d === "string");
    if (!deps.some((d) => failedBelow(d, new Set()))) out.push(i);
  });
  return out;
}

function nonEmpty(v: unknown): boolean {
  if (typeof v === "string") return v.trim().length > 0;
  return v !== null && v !== undefined && (typeof v !== "object" || Object.keys(v).length > 0);
}

/** Evaluates one requirement against `input`. */
export function evaluate(req: AgloopRequirement, input: AgloopContractInput): RequirementResult {
  const { state, stateFile } = input;
  const cc = asRecord(state.compaction_context);
  const inState = (what: string, met: boolean, path: JsonPath): RequirementResult => ({
    what,
    met,
    file: stateFile,
    line: stateLine(input, path),
  });
  const inLog = (what: string, e: LogEvent | null): RequirementResult => ({
    what,
    met: e !== null,
    file: LOG_FILE,
    line: e?.line ?? null,
  });
  const cur = currentTask(state);
  const curId = asString(state.current_task_id) ?? "the current task";
  switch (req) {
    case "feature_named":
      return inState("feature_name is set", nonEmpty(state.feature_name), ["feature_name"]);
    case "research_done":
      if (input.researchFindings) return { what: "the research is recorded", met: true, file: RESEARCH_FILE, line: 1 };
      return inState("the research is recorded (research_digest)", nonEmpty(cc?.research_digest), [
        "compaction_context",
        "research_digest",
      ]);
    case "user_approved_plan":
      return inLog("the user approved planning (log.json)", approvalIn(input.log, "research"));
    case "plan_has_tasks": {
      const ok = input.plan.kind === "ok" && asArray(asRecord(input.plan.value)?.tasks).length > 0;
      const line = input.plan.kind === "ok" ? input.plan.where.lineAt(["tasks"]) : null;
      return { what: "plan.yaml has at least one task", met: ok, file: PLAN_FILE, line };
    }
    case "state_has_tasks":
      return inState("state.json holds the plan's tasks", asArray(state.tasks).length > 0, ["tasks"]);
    case "iteration_started":
      return inState(
        "iteration is 1 or more (set when the plan completes)",
        typeof state.iteration === "number" && state.iteration >= 1,
        ["iteration"],
      );
    case "critic_verdict":
      return inState("the critic's verdict (critique_digest)", criticVerdict(state) !== null, [
        "compaction_context",
        "critique_digest",
      ]);
    case "critic_approved": {
      const maxed = typeof state.iteration === "number" && state.iteration >= 3;
      return inState(
        maxed ? "the critic approved, or the user chose to execute after 3 iterations" : "the critic approved the plan",
        criticVerdict(state) === "APPROVE" || maxed,
        ["compaction_context", "critique_digest"],
      );
    }
    case "user_approved_execute":
      return inLog("the user approved execution (log.json)", approvalIn(input.log, "critique"));
    case "current_task_result":
      return inState(
        `the executor's result for ${curId}`,
        cur !== null && nonEmpty(cur.task.result),
        cur ? ["tasks", cur.index, "result"] : ["current_task_id"],
      );
    case "current_task_verdict":
      return inState(
        `the verifier's verdict on ${curId}`,
        cur !== null && nonEmpty(cur.task.verification),
        cur ? ["tasks", cur.index, "verification"] : ["current_task_id"],
      );
    case "all_tasks_settled": {
      const open = unsettledTasks(state);
      return inState(
        open.length === 0 ? "every task is done or failed" : `${open.length} task(s) neither done nor failed`,
        open.length === 0,
        open.length === 0 ? ["tasks"] : ["tasks", open[0], "status"],
      );
    }
    case "loop_complete_logged": {
      const e = [...input.log.events].reverse().find((x) => x.action === "loop_complete") ?? null;
      return inLog("loop_complete is logged", e);
    }
    case "ctf_mode":
      return inState('mode is "ctf"', state.mode === "ctf", ["mode"]);
  }
}
