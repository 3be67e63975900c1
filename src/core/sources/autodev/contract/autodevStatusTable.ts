/**
 * AutoDev's phase contract as data: one row per task status (AutoDev's execute phase is a state
 * machine per task) plus one for the plan phase, from Python AutoDev's own code:
 * `orchestrator/execute_phase.py` (`_execute_one`: the evidence written before each
 * `update_task_status`, `_try_retry_or_escalate`), `orchestrator/task_state.py` (TASK_TRANSITIONS),
 * `orchestrator/plan_phase.py` (`run_plan_phase`: explorer and domain_expert evidence, the plan
 * tournament, then `init_plan`), `orchestrator/__init__.py` (`resume`, `_find_in_progress_task`)
 * and the state layer's design (seed 000 §3.4).
 *
 * `evidence` is the evidence a task stands on in the status (Python writes each file, then moves the
 * task); EVIDENCE_DECIDES says what in it decided the move. All of it is authoritative except the
 * tournament's: `_execute_one` catches any impl tournament error and moves to `tournamented` anyway
 * (in inline mode the tournament always fails), so its absence is shown, never reported.
 */
import { TASK_TRANSITIONS } from "../plan/taskFsm";

/** The evidence bundle kinds a status stands on (`.autodev/evidence/{task}-{kind}.json`). */
export type StatusEvidenceKind = "developer" | "review" | "test" | "tournament";

/** One row of the contract. */
export interface AutodevStatusRow {
  readonly status: string;
  /** How a task gets here, in Python's words. */
  readonly entered: string;
  /** The bundles it stands on, in gate order (`tournament` only when the impl tournament runs). */
  readonly evidence: readonly StatusEvidenceKind[];
  /** Whether the ledger entry that moved it here must carry a `blocked_reason`. */
  readonly needsReason: boolean;
  /** Statuses the state machine allows next. */
  readonly next: readonly string[];
  /** What `autodev resume` / `autodev execute` do with a task standing here. */
  readonly reentry: string;
  readonly source: string;
}

const EXEC = "orchestrator/execute_phase.py _execute_one";
const UP_TO_CODED: readonly StatusEvidenceKind[] = ["developer"];
const UP_TO_REVIEWED: readonly StatusEvidenceKind[] = ["developer", "review"];
const UP_TO_TESTED: readonly StatusEvidenceKind[] = ["developer", "review", "test"];
const ALL: readonly StatusEvidenceKind[] = ["developer", "review", "test", "tournament"];
const MID_FLIGHT = "resume re-runs it from the developer step (retry_count kept); execute skips it";

function row(
  status: string,
  entered: string,
  evidence: readonly StatusEvidenceKind[],
  reentry: string,
  source: string,
  needsReason = false,
): AutodevStatusRow {
  return { status, entered, evidence, needsReason, next: TASK_TRANSITIONS[status] ?? [], reentry, source };
}

/** The contract per task status, in the order a task moves through them. */
const AUTODEV_STATUSES: readonly AutodevStatusRow[] = [
  row(
    "pending",
    "init_plan writes every task pending",
    [],
    "execute starts the first pending task (phase order); resume too when no task is mid-flight",
    "orchestrator/plan_phase.py run_plan_phase → PlanManager.init_plan",
  ),
  row("in_progress", "the execute loop takes the task (or retries it)", [], MID_FLIGHT, `${EXEC} (step 1)`),
  row(
    "coded",
    "the developer succeeded: {task}-developer.json (success true) and {task}.patch (when the diff is not empty) are written first",
    UP_TO_CODED,
    MID_FLIGHT,
    `${EXEC} (step 2)`,
  ),
  row("auto_gated", "the QA gates passed (they leave no file)", UP_TO_CODED, MID_FLIGHT, `${EXEC} (step 3)`),
  row("reviewed", "the reviewer said APPROVED: {task}-review.json", UP_TO_REVIEWED, MID_FLIGHT, `${EXEC} (step 4)`),
  row("tested", "the tests passed: {task}-test.json with failed = 0", UP_TO_TESTED, MID_FLIGHT, `${EXEC} (step 5)`),
  row(
    "tournamented",
    "the impl tournament finished: {task}-tournament.json (when config.json runs it)",
    ALL,
    MID_FLIGHT,
    `${EXEC} (step 6)`,
  ),
  row("complete", "every gate passed", ALL, "neither resume nor execute re-enters it", `${EXEC} (step 8)`),
  row(
    "blocked",
    "a guardrail tripped or the retries ran out (escalated: the critic's sounding board wrote {task}-critic.json)",
    [],
    "neither resume nor execute re-enters it; only an explicit resume (blocked → in_progress) does",
    `${EXEC}, _try_retry_or_escalate`,
    true,
  ),
  row(
    "skipped",
    "the user skipped it (pending → skipped)",
    [],
    "never re-entered",
    "orchestrator/task_state.py (user escape hatch)",
  ),
];

/** The row of `status`, or undefined for a status the schema does not know. */
export function autodevStatusRow(status: string): AutodevStatusRow | undefined {
  return AUTODEV_STATUSES.find((r) => r.status === status);
}

/** What decided each bundle kind (the check of its content). */
export const EVIDENCE_DECIDES: Readonly<Record<StatusEvidenceKind, string>> = {
  developer: "developer evidence with success true",
  review: "review evidence with verdict APPROVED",
  test: "test evidence with failed = 0",
  tournament: "tournament evidence",
};

/** The plan phase: the bundles `run_plan_phase` writes before `init_plan`, and where they come from. */
export const PLAN_PHASE = {
  phase: "plan",
  evidence: [
    { what: "the explorer's findings", file: ".autodev/evidence/plan-explore-explore.json", kind: "explore" },
    {
      what: "the domain expert's findings",
      file: ".autodev/evidence/plan-domain_expert-domain_expert.json",
      kind: "domain_expert",
    },
  ],
  tournamentOp: "plan_tournament_complete",
  next: ["pending"],
  source: "orchestrator/plan_phase.py run_plan_phase (steps 1–7)",
} as const;
