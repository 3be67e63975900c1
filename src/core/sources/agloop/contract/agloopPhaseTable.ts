/**
 * agloop's phase contract as data: one row per `current_phase`, from the coordinator's own prompt
 * (`.github/agents/agloop.agent.md` of the public install, §3 "THE AGENTIC LOOP — PHASE BY PHASE",
 * §5 scheduling, §6 error recovery, §6.1 compaction recovery) and the `state-persistence` skill
 * (phase_history "append-only", the approval gate kept in `compaction_context.pending_decision`).
 *
 * `requires` are the preconditions of standing in the phase: the authoritative evidence of the
 * phase that advanced into it (only a completed outcome advances, seed 001). `produces` is the
 * phase's own authoritative evidence (pending while the phase runs). Both name requirements that
 * agloopRequirements.ts evaluates against a state. `next` is the transition table.
 */

/** What the contract can ask of a state (each is evaluated in agloopRequirements.ts). */
export type AgloopRequirement =
  | "feature_named"
  | "research_done"
  | "user_approved_plan"
  | "plan_has_tasks"
  | "state_has_tasks"
  | "iteration_started"
  | "critic_verdict"
  | "critic_approved"
  | "user_approved_execute"
  | "current_task_result"
  | "current_task_verdict"
  | "all_tasks_settled"
  | "loop_complete_logged"
  | "ctf_mode";

/** One row of the contract. */
export interface AgloopPhaseRow {
  readonly phase: string;
  readonly purpose: string;
  readonly requires: readonly AgloopRequirement[];
  readonly produces: readonly AgloopRequirement[];
  /** Phases the coordinator may move to from here (a repeated phase is a retry of it). */
  readonly next: readonly string[];
  /** What a restart does in this phase, as the prompt says (the words of the re-entry point). */
  readonly reentry: string;
  readonly source: string;
}

const PROMPT = ".github/agents/agloop.agent.md";

/** The contract, in lifecycle order. */
const AGLOOP_PHASES: readonly AgloopPhaseRow[] = [
  {
    phase: "init",
    purpose: "create state.json from the user's request",
    requires: [],
    produces: ["feature_named"],
    next: ["research", "ctf_delegate"],
    reentry: "initialises the run and moves to research",
    source: `${PROMPT} §3 Phase: init (guard: feature_name non-empty)`,
  },
  {
    phase: "research",
    purpose: "the researcher gathers codebase context and current guidance",
    requires: ["feature_named"],
    produces: ["research_done", "user_approved_plan"],
    next: ["research", "plan"],
    reentry: "re-delegates research to a researcher",
    source: `${PROMPT} §3 Phase: research ("only after explicit approval … transition to plan")`,
  },
  {
    phase: "plan",
    purpose: "the planner writes plan.yaml (a DAG of tasks); the coordinator syncs the tasks",
    requires: ["research_done", "user_approved_plan"],
    produces: ["plan_has_tasks", "state_has_tasks"],
    next: ["plan", "critique", "research"],
    reentry: "re-delegates planning to a planner",
    source: `${PROMPT} §3 Phase: plan (guards: plan.yaml exists, at least one task)`,
  },
  {
    phase: "critique",
    purpose: "the critic reviews plan.yaml; on APPROVE the user is asked before execution",
    requires: ["plan_has_tasks", "state_has_tasks", "iteration_started"],
    produces: ["critic_verdict"],
    next: ["critique", "plan", "execute", "research"],
    reentry: "re-delegates the review to a critic",
    source: `${PROMPT} §3 Phase: critique (APPROVE: pending_decision holds the approval gate; REVISE: back to plan)`,
  },
  {
    phase: "execute",
    purpose: "an executor implements the current task",
    requires: ["critic_approved", "user_approved_execute"],
    produces: ["current_task_result"],
    next: ["execute", "verify", "complete", "plan"],
    reentry: "gives the current task to a fresh executor (retry counter not incremented)",
    source: `${PROMPT} §3 Phase: execute, §6 "Mid-task interrupt"`,
  },
  {
    phase: "verify",
    purpose: "a verifier checks the executor's result against the acceptance criteria",
    requires: ["current_task_result"],
    produces: ["current_task_verdict"],
    next: ["verify", "execute", "complete"],
    reentry: "re-delegates verification of the current task",
    source: `${PROMPT} §3 Phase: verify (PASS: done, next task; FAIL: retry while retry_count < 2)`,
  },
  {
    phase: "complete",
    purpose: "every task done and verified (or failed with a reason); the user is asked",
    requires: ["all_tasks_settled"],
    produces: ["loop_complete_logged"],
    next: [],
    reentry: "reports the completion and asks whether to /reset",
    source: `${PROMPT} §3 Phase: complete, <verification_criteria>`,
  },
  {
    phase: "ctf_delegate",
    purpose: "the CTF agent solves a challenge (bypasses research to verify)",
    requires: ["ctf_mode"],
    produces: [],
    next: ["ctf_delegate", "complete"],
    reentry: "re-delegates the challenge to the ctf agent",
    source: `${PROMPT} §3 Phase: ctf_delegate (guard: mode "ctf")`,
  },
];

/** The row of `phase`, or undefined for a phase the protocol does not know. */
export function agloopPhaseRow(phase: string): AgloopPhaseRow | undefined {
  return AGLOOP_PHASES.find((r) => r.phase === phase);
}

/** Whether the contract allows `from → to`. */
export function agloopMoveAllowed(from: string, to: string): boolean {
  return agloopPhaseRow(from)?.next.includes(to) ?? false;
}

/** Task-level rule (§3 verify, <verification_criteria> 1): a task is `done` only with a PASS verification. */
export const DONE_NEEDS_PASS = `${PROMPT} §3 Phase: verify ("If verdict PASS: mark current task status = done")`;

/** How many retries a task gets before it is marked failed (§3 verify: retry_count < 2). */
export const AGLOOP_MAX_RETRIES = 2;
