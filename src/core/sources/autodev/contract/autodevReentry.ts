/**
 * AutoDev's re-entry point and where it is unclear: Python's `resume` re-runs the first task in a
 * working status (phase order), else starts the first pending one; in inline mode it first collects
 * the suspended step's response. A restart cannot pick up the run as it stands when the suspended
 * step belongs to another task than the one resume will run (its response is never collected), when
 * the plan phase is suspended although the ledger already has a plan, or when more than one task is
 * mid-flight (resume re-runs the first; execute only takes pending tasks, so the others stay).
 */
import type { SourceProblem } from "../../stateSource";
import { REENTRY_UNCLEAR, contractProblem } from "../../phaseContract";
import type { Plan } from "../plan/schemas";
import type { EntrySummary } from "../ledger/verifyTypes";
import type { InlineWaiting } from "../inline/inlineState";
import { INLINE_STATE_REL } from "../inline/inlineSchemas";
import { RESUMABLE_STATUSES, type NextSteps } from "../run/nextStep";
import { AUTODEV_DIR, LEDGER_FILE } from "../autodevPaths";
import { readWorkspaceStateFile } from "../stateFile";
import { JsonLines } from "../jsonLocate";

const LEDGER_REL = `${AUTODEV_DIR}/${LEDGER_FILE}`;
const SOURCE = "orchestrator/__init__.py Orchestrator.resume, _find_in_progress_task";

/** `autodev resume …; autodev execute: …`, as `autodev-state status` prints "next". */
export function nextStepsText(next: NextSteps): string {
  return `autodev resume ${next.resume.text}; autodev execute: ${next.execute.text}`;
}

/** The task resume takes: the first in a working status, else the first pending one (phase order). */
export function resumeTarget(plan: Plan): { id: string; status: string } | null {
  const tasks = plan.phases.flatMap((p) => p.tasks);
  const working = tasks.find((t) => RESUMABLE_STATUSES.includes(String(t.status)));
  const pending = tasks.find((t) => String(t.status) === "pending");
  const t = working ?? pending;
  return t ? { id: t.id, status: String(t.status) } : null;
}

/** The line of pending_task_id in inline-state.json (null when it cannot be read). */
async function pendingTaskLine(cwd: string): Promise<number | null> {
  const read = await readWorkspaceStateFile(cwd, INLINE_STATE_REL);
  if (read.kind !== "ok") return null;
  try {
    JSON.parse(read.text);
  } catch {
    return null;
  }
  return new JsonLines(read.text).exactLineOf(["pending_task_id"]) ?? null;
}

/** The re-entry problems of `plan` with the inline suspension `waiting` (null when not suspended). */
export async function reentryProblems(
  cwd: string,
  plan: Plan | null,
  waiting: InlineWaiting | null,
  lastChange: ReadonlyMap<string, EntrySummary>,
  initLine: number | null,
): Promise<SourceProblem[]> {
  const out: SourceProblem[] = [];
  if (waiting !== null && plan !== null) {
    const who = `${waiting.taskId}/${waiting.role}`;
    const ids = new Set(plan.phases.flatMap((p) => p.tasks.map((t) => t.id)));
    const target = resumeTarget(plan);
    let why: string | null = null;
    if (waiting.taskId === "plan") {
      why = `the plan phase is suspended (${who}) but the ledger already has a plan: resume runs the execute loop and never collects ${waiting.responsePath}`;
    } else if (!ids.has(waiting.taskId)) {
      why = `the suspended step ${who} names a task the plan does not have: resume cannot continue it`;
    } else if (target?.id !== waiting.taskId) {
      why = `the suspended step is ${who}, but resume runs ${target ? `task ${target.id} (${target.status})` : "no task"} first: the ${waiting.role} response in ${waiting.responsePath} is never collected`;
    }
    if (why) {
      out.push(contractProblem(REENTRY_UNCLEAR, INLINE_STATE_REL, await pendingTaskLine(cwd), `${why} (${SOURCE}).`));
    }
  }
  if (plan !== null) {
    const working = plan.phases.flatMap((p) => p.tasks).filter((t) => RESUMABLE_STATUSES.includes(String(t.status)));
    for (const t of working.slice(1)) {
      out.push(
        contractProblem(
          REENTRY_UNCLEAR,
          LEDGER_REL,
          lastChange.get(t.id)?.line ?? initLine,
          `task ${t.id} is '${String(t.status)}' while task ${working[0].id} is '${String(working[0].status)}': the execute loop runs one task at a time, resume re-runs only ${working[0].id}, and execute takes pending tasks only, so ${t.id} stays mid-flight (${SOURCE}).`,
        ),
      );
    }
  }
  return out;
}
