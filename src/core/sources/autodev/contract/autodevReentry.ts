/**
 * AutoDev's re-entry point and where it is unclear: Python's `resume` re-runs the first task in a
 * working status (phase order), else starts the first pending one; in inline mode it first collects
 * the suspended step's response. A restart cannot pick up the run as it stands when the suspended
 * step belongs to another task than the one resume will run (its response is not collected where the
 * run stopped), or when the plan phase waits on a response although the ledger already has a plan
 * (an answered one is fine: Python leaves plan/architect behind after storing the plan). Several
 * tasks mid-flight are not unclear: resume re-runs them one by one, first in phase order.
 */
import type { SourceProblem } from "../../stateSource";
import { REENTRY_UNCLEAR, contractProblem } from "../../phaseContract";
import type { Plan } from "../plan/schemas";
import type { InlineWaiting } from "../inline/inlineState";
import { INLINE_STATE_REL } from "../inline/inlinePaths";
import type { NextSteps } from "../run/nextStep";
import { RESUMABLE_STATUSES } from "../plan/planConstants";
import { readWorkspaceStateFile } from "../stateFile";
import { JsonLines } from "../jsonLocate";

const SOURCE = "orchestrator/__init__.py Orchestrator.resume, _find_in_progress_task";

/** What comes next in the words `autodev-state status` prints after "next:" (its two lines joined by "; "). */
export function nextStepsText(next: NextSteps): string {
  if (next.plan) return next.plan.text;
  if (next.resume.text === next.execute.text) return `autodev resume (and autodev execute) ${next.resume.text}`;
  return `autodev resume ${next.resume.text}; autodev execute ${next.execute.text}`;
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
): Promise<SourceProblem[]> {
  const out: SourceProblem[] = [];
  if (waiting !== null && plan !== null) {
    const who = `${waiting.taskId}/${waiting.role}`;
    const ids = new Set(plan.phases.flatMap((p) => p.tasks.map((t) => t.id)));
    const target = resumeTarget(plan);
    let why: string | null = null;
    if (waiting.taskId === "plan") {
      // Python leaves the answered plan/architect suspension after storing the plan; resume clears it and executes.
      if (waiting.response.state === "missing") {
        why = `the plan phase waits on ${who} but the ledger already has a plan: resume waits for a response the plan no longer needs, and never executes`;
      }
    } else if (!ids.has(waiting.taskId)) {
      why = `the suspended step ${who} names a task the plan does not have: resume cannot continue it`;
    } else if (target?.id !== waiting.taskId) {
      why = `the suspended step is ${who}, but resume runs ${target ? `task ${target.id} (${target.status})` : "no task"} instead: the ${waiting.role} response in ${waiting.responsePath} is not collected where the run stopped`;
    }
    if (why) {
      out.push(contractProblem(REENTRY_UNCLEAR, INLINE_STATE_REL, await pendingTaskLine(cwd), `${why} (${SOURCE}).`));
    }
  }
  return out;
}
