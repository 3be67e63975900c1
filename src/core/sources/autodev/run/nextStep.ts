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
 */
import type { InlineWaiting } from "../inline/inlineState";

/** The statuses `_find_in_progress_task` looks for. */
export const RESUMABLE_STATUSES: readonly string[] = [
  "in_progress",
  "coded",
  "auto_gated",
  "reviewed",
  "tested",
  "tournamented",
];

/** A minimal plan view (the plan schema's tasks, in phase order). */
export interface PlanTasks {
  readonly phases: ReadonlyArray<{
    readonly tasks: ReadonlyArray<{ readonly id: string; readonly status: string; readonly title: string }>;
  }>;
}

/** One command's next move. */
export interface NextMove {
  readonly action:
    "wait_for_response" | "collect_response" | "fail_invalid_response" | "rerun_task" | "start_task" | "nothing";
  readonly taskId: string | null;
  /** One sentence for people. */
  readonly text: string;
}

/** What both commands would do. */
export interface NextSteps {
  readonly resume: NextMove;
  readonly execute: NextMove;
}

function firstTask(
  plan: PlanTasks | null,
  pred: (status: string) => boolean,
): { id: string; status: string; title: string } | null {
  for (const phase of plan?.phases ?? []) for (const t of phase.tasks) if (pred(String(t.status))) return t;
  return null;
}

function planMove(plan: PlanTasks | null, forResume: boolean): NextMove {
  if (plan === null) return { action: "nothing", taskId: null, text: "no plan: run `autodev plan` first" };
  const working = forResume ? firstTask(plan, (s) => RESUMABLE_STATUSES.includes(s)) : null;
  if (working) {
    return {
      action: "rerun_task",
      taskId: working.id,
      text: `re-run task ${working.id} (now '${working.status}') from the developer step`,
    };
  }
  const pending = firstTask(plan, (s) => s === "pending");
  if (pending) return { action: "start_task", taskId: pending.id, text: `start task ${pending.id}: ${pending.title}` };
  return {
    action: "nothing",
    taskId: null,
    text: forResume ? "nothing to resume: no pending or in-progress tasks" : "nothing to execute: no pending task",
  };
}

/** Decides the next move of `autodev resume` and `autodev execute`. */
export function decideNextSteps(plan: PlanTasks | null, waiting: InlineWaiting | null): NextSteps {
  const execute = planMove(plan, false);
  if (waiting !== null) {
    const who = `${waiting.taskId}/${waiting.role}`;
    if (waiting.response.state === "missing") {
      return {
        resume: {
          action: "wait_for_response",
          taskId: waiting.taskId,
          text: `waits: the agent must answer ${waiting.delegationPath} in ${waiting.responsePath} first`,
        },
        execute,
      };
    }
    if (waiting.response.state === "invalid") {
      return {
        resume: {
          action: "fail_invalid_response",
          taskId: waiting.taskId,
          text: `fails: ${waiting.responsePath} is invalid (${waiting.response.error?.message ?? "unreadable"}); fix or rewrite it`,
        },
        execute,
      };
    }
    const after = planMove(plan, true);
    return {
      resume: {
        action: "collect_response",
        taskId: waiting.taskId,
        text: `collects the ${who} response and continues: ${after.text}`,
      },
      execute,
    };
  }
  return { resume: planMove(plan, true), execute };
}
