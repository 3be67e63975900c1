/**
 * What `autodev resume` and `autodev execute` would do next, decided as their
 * Python code decides (`cli/commands/resume.py`, `Orchestrator.resume`,
 * `run_execute_phase`):
 * - resume, suspended inline: no response yet → it prints "Waiting for agent
 *   response" and stops; a response that is there → it clears the suspend
 *   state and continues (an invalid one makes it fail when collected);
 * - resume otherwise: the first task (phase order) in a working status
 *   (in_progress … tournamented) is re-run from the developer step, else the
 *   first `pending` task, else nothing;
 * - execute: the first `pending` task (dependencies are not consulted), else
 *   nothing.
 * In the plan phase (no plan stored yet) `resume` does not go on: it waits
 * while the response is missing, else deletes inline-state.json and says
 * "Nothing to resume"; the plan phase goes on when `autodev plan` is run
 * again with the same intent (it re-reads every plan response present). A
 * stale inline-state.json (the plan already stored) is deleted by the next
 * resume, which then goes on as if there were none — or, with its response
 * gone, waits for it forever.
 */
import type { InlineWaiting } from "../inline/inlineState";
import { RESUMABLE_STATUSES } from "../plan/planConstants";

/** A minimal plan view (the plan schema's tasks, in phase order). */
export interface PlanTasks {
  readonly phases: ReadonlyArray<{
    readonly tasks: ReadonlyArray<{
      readonly id: string;
      readonly status: string;
      readonly title: string;
      readonly retry_count?: number;
    }>;
  }>;
}

/** One command's next move. */
interface NextMove {
  readonly action:
    | "wait_for_response"
    | "collect_response"
    | "fail_invalid_response"
    | "rerun_task"
    | "start_task"
    | "clear_and_stop"
    | "rerun_plan"
    | "nothing";
  readonly taskId: string | null;
  /** One sentence for people. */
  readonly text: string;
}

/** What both commands would do, and in the plan phase what moves the plan on. */
export interface NextSteps {
  readonly resume: NextMove;
  readonly execute: NextMove;
  /** Before a plan is stored: what the user or agent does next (answer, then `autodev plan` again); else null. */
  readonly plan: NextMove | null;
}

function firstTask(
  plan: PlanTasks | null,
  pred: (status: string) => boolean,
): { id: string; status: string; title: string } | null {
  for (const phase of plan?.phases ?? []) for (const t of phase.tasks) if (pred(String(t.status))) return t;
  return null;
}

function planMove(plan: PlanTasks | null, forResume: boolean): NextMove {
  if (plan === null) {
    return {
      action: "nothing",
      taskId: null,
      text: forResume ? "does nothing: no plan yet" : 'does nothing: no plan yet ("No tasks to execute")',
    };
  }
  const working = forResume ? firstTask(plan, (s) => RESUMABLE_STATUSES.includes(s)) : null;
  if (working) {
    return {
      action: "rerun_task",
      taskId: working.id,
      text: `re-runs task ${working.id} (now '${working.status}') from the developer step`,
    };
  }
  const pending = firstTask(plan, (s) => s === "pending");
  if (pending) return { action: "start_task", taskId: pending.id, text: `starts task ${pending.id}: ${pending.title}` };
  return {
    action: "nothing",
    taskId: null,
    text: forResume ? "does nothing: no pending or in-progress tasks" : "does nothing: no pending task",
  };
}

const RERUN_PLAN = "run `autodev plan` again with the same intent (.autodev/spec.md holds it)";

/** The plan phase's next move for the user or agent. */
function planPhaseMove(waiting: InlineWaiting | null): NextMove {
  if (waiting === null) {
    return { action: "rerun_plan", taskId: null, text: 'no plan yet: run `autodev plan "<intent>"`' };
  }
  if (waiting.response.state === "missing") {
    return {
      action: "wait_for_response",
      taskId: waiting.taskId,
      text: `the ${waiting.role} must answer ${waiting.delegationPath} in ${waiting.responsePath}; then ${RERUN_PLAN}`,
    };
  }
  return { action: "rerun_plan", taskId: waiting.taskId, text: `the ${waiting.role} has answered: ${RERUN_PLAN}` };
}

/**
 * Decides the next move of `autodev resume` and `autodev execute`; `stale` says inline-state.json no
 * longer means "waiting" (see inlineHistory.ts).
 */
export function decideNextSteps(plan: PlanTasks | null, waiting: InlineWaiting | null, stale = false): NextSteps {
  const execute = planMove(plan, false);
  const planNext = plan === null ? planPhaseMove(waiting) : null;
  if (waiting !== null) {
    const who = `${waiting.taskId}/${waiting.role}`;
    if (waiting.response.state === "missing") {
      return {
        resume: {
          action: "wait_for_response",
          taskId: waiting.taskId,
          text: stale
            ? `waits forever: the stale suspend state names ${who}, whose response ${waiting.responsePath} is missing`
            : `waits: the agent must answer ${waiting.delegationPath} in ${waiting.responsePath} first`,
        },
        execute,
        plan: planNext,
      };
    }
    if (plan === null) {
      return {
        resume: {
          action: "clear_and_stop",
          taskId: waiting.taskId,
          text: "deletes inline-state.json and stops (Nothing to resume): resume does not continue the plan phase",
        },
        execute,
        plan: planNext,
      };
    }
    // A template AutoDev refuses fails like an invalid file; one it would take is collected.
    const refused =
      waiting.response.state === "invalid" ||
      (waiting.response.state === "unfilled" && waiting.response.response === null);
    if (refused && !stale) {
      const what = waiting.response.state === "unfilled" ? "not filled in" : "invalid";
      return {
        resume: {
          action: "fail_invalid_response",
          taskId: waiting.taskId,
          text: `fails: ${waiting.responsePath} is ${what} (${waiting.response.error?.message ?? "unreadable"}); fix or rewrite it`,
        },
        execute,
        plan: planNext,
      };
    }
    const after = planMove(plan, true);
    return {
      resume: {
        action: stale ? after.action : "collect_response",
        taskId: stale ? after.taskId : waiting.taskId,
        text: stale
          ? `deletes the stale suspend state (${who}) and ${after.text}`
          : `collects the ${who} response and ${after.text}`,
      },
      execute,
      plan: planNext,
    };
  }
  return { resume: planMove(plan, true), execute, plan: planNext };
}
