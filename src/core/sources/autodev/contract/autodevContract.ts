/**
 * AutoDev's phase contract (autodevStatusTable.ts) checked against `.autodev/`, the ledger being
 * the history: every task's status must stand on its evidence (`phase_without_evidence` at the
 * ledger line that moved it there), the plan phase's bundles must precede an `init_plan` that came
 * from `autodev plan`, every move in the ledger must be an edge of the state machine and the plan is
 * initialised once (`transition_not_allowed`), and the re-entry point must be clear (autodevReentry.ts).
 * The view of the current step (the task resume takes) uses the run state's "what comes next".
 */
import type { SourceProblem } from "../../stateSource";
import {
  PHASE_WITHOUT_EVIDENCE,
  TRANSITION_NOT_ALLOWED,
  contractProblem,
  type ContractView,
} from "../../phaseContract";
import type { Plan } from "../plan/schemas";
import type { EntrySummary, VerifyWarning } from "../ledger/verifyTypes";
import type { RunState } from "../run/runState";
import { DIRECT_EVIDENCE_READS, EvidenceReads } from "../evidence/evidenceStore";
import { expectationsFrom, type EvidenceExpectations } from "../evidence/requiredEvidence";
import { AUTODEV_DIR, LEDGER_FILE } from "../autodevPaths";
import { PLAN_PHASE, autodevStatusRow } from "./autodevStatusTable";
import { taskEvidence, type TaskEvidence } from "./autodevEvidenceRules";
import { nextStepsText, reentryProblems, resumeTarget } from "./autodevReentry";
import { pushAll } from "../../sourceProblems";

const LEDGER_REL = `${AUTODEV_DIR}/${LEDGER_FILE}`;

/** What the contract check reads (the ledger already verified intact). */
export interface AutodevContractInput {
  readonly workspace: string;
  readonly plan: Plan | null;
  readonly entries: readonly EntrySummary[];
  readonly warnings: readonly VerifyWarning[];
  readonly run: RunState;
  /** How bundles and patches are read (default: from disk each time; a snapshot shares its reads). */
  readonly evidence?: EvidenceReads;
}

/** The contract evaluated. */
export interface AutodevContractResult {
  readonly view: ContractView;
  readonly problems: readonly SourceProblem[];
}

/** Whether `run_plan_phase` runs the plan tournament with this config (enabled, judge not auto-disabled). */
function planTournamentRuns(run: RunState): boolean {
  const cfg = run.config.config;
  if (cfg === null) return false;
  const asImpl = { ...cfg, tournaments: { ...cfg.tournaments, impl: { enabled: cfg.tournaments.plan.enabled } } };
  return expectationsFrom(asImpl).implTournament;
}

/** The plan phase's evidence, when the plan came from `autodev plan` (spec.md is there). */
function planPhaseProblems(input: AutodevContractInput): SourceProblem[] {
  const init = input.entries.find((e) => e.op === "init_plan");
  if (!init || input.run.spec?.state !== "checked") return [];
  const gaps: string[] = [];
  for (const need of PLAN_PHASE.evidence) {
    if (!input.run.planEvidence.some((i) => i.ok && i.kind === need.kind)) gaps.push(`${need.file} is missing`);
  }
  if (
    planTournamentRuns(input.run) &&
    !input.entries.some((e) => e.op === PLAN_PHASE.tournamentOp && e.seq < init.seq)
  ) {
    gaps.push(`no ${PLAN_PHASE.tournamentOp} entry precedes it though config.json runs the plan tournament`);
  }
  return gaps.map((g) =>
    contractProblem(
      PHASE_WITHOUT_EVIDENCE,
      LEDGER_REL,
      init.line,
      `the plan was initialised from spec.md but ${g}; run_plan_phase writes the explorer's and the domain expert's findings (and runs the plan tournament) before init_plan (${PLAN_PHASE.source}).`,
    ),
  );
}

/** Moves the ledger shows that the contract does not allow. */
function historyProblems(input: AutodevContractInput): SourceProblem[] {
  const out: SourceProblem[] = [];
  for (const w of input.warnings) {
    if (w.kind !== "fsm_violation") continue;
    out.push(
      contractProblem(
        TRANSITION_NOT_ALLOWED,
        LEDGER_REL,
        w.atLine > 0 ? w.atLine : null,
        `${w.message} (orchestrator/task_state.py TASK_TRANSITIONS; Python's PlanManager refuses the move, so it did not come through AutoDev's commit path).`,
      ),
    );
  }
  const inits = input.entries.filter((e) => e.op === "init_plan");
  for (const again of inits.slice(1)) {
    out.push(
      contractProblem(
        TRANSITION_NOT_ALLOWED,
        LEDGER_REL,
        again.line,
        `entry seq=${again.seq} initialises the plan again (the first init_plan is line ${inits[0].line}); PlanManager.init_plan refuses when a plan exists, so the plan was replaced outside AutoDev's commit path.`,
      ),
    );
  }
  return out;
}

/** The evidence of every task that stands on some, with the problems of the gaps. */
async function evidenceOf(
  input: AutodevContractInput,
  expect: EvidenceExpectations,
  lastChange: ReadonlyMap<string, EntrySummary>,
): Promise<{ byTask: Map<string, TaskEvidence>; problems: SourceProblem[] }> {
  const byTask = new Map<string, TaskEvidence>();
  const problems: SourceProblem[] = [];
  const reads = input.evidence ?? DIRECT_EVIDENCE_READS;
  const initLine = input.entries.find((e) => e.op === "init_plan")?.line ?? null;
  for (const task of (input.plan?.phases ?? []).flatMap((p) => p.tasks)) {
    const status = String(task.status);
    const row = autodevStatusRow(status);
    if (!row || (row.evidence.length === 0 && !row.needsReason)) continue;
    const items = await reads.listEvidence(input.workspace, task.id);
    const dev = items.find((i) => i.ok && i.kind === "developer");
    const hasDiff = dev?.ok === true && typeof (dev.evidence as { diff?: unknown }).diff === "string";
    const line = lastChange.get(task.id)?.line ?? initLine;
    const ev = taskEvidence(
      {
        id: task.id,
        status,
        blockedReason: task.blocked_reason,
        escalated: task.escalated === true,
        items,
        patch: hasDiff ? await reads.readPatch(input.workspace, task.id) : null,
        line,
      },
      expect,
    );
    byTask.set(task.id, ev);
    for (const gap of ev.gaps) {
      const by = autodevStatusRow(gap.decides) ?? row;
      problems.push(
        contractProblem(
          PHASE_WITHOUT_EVIDENCE,
          LEDGER_REL,
          line,
          `task ${task.id} is '${status}' but ${gap.what}; Python moves a task to ${by.status} only when ${by.entered} (${by.source}).`,
        ),
      );
    }
  }
  return { byTask, problems };
}

/** Checks `.autodev/` against AutoDev's contract and describes the current step. */
export async function checkAutodevContract(input: AutodevContractInput): Promise<AutodevContractResult> {
  const lastChange = new Map<string, EntrySummary>();
  for (const e of input.entries) if (e.taskId && e.toStatus) lastChange.set(e.taskId, e);
  const expect = expectationsFrom(input.run.config.config);
  const { byTask, problems } = await evidenceOf(input, expect, lastChange);
  const reentry = await reentryProblems(input.workspace, input.plan, input.run.inline.waiting);
  pushAll(problems, planPhaseProblems(input));
  pushAll(problems, historyProblems(input));
  pushAll(problems, reentry);
  return { problems, view: currentView(input, byTask, lastChange, reentry.length === 0) };
}

function currentView(
  input: AutodevContractInput,
  byTask: ReadonlyMap<string, TaskEvidence>,
  lastChange: ReadonlyMap<string, EntrySummary>,
  clear: boolean,
): ContractView {
  const reentry = nextStepsText(input.run.next);
  const init = input.entries.find((e) => e.op === "init_plan");
  if (input.plan === null) {
    return {
      phase: "plan",
      task: null,
      preconditions: [{ what: "config.json is valid", met: input.run.config.present && input.run.config.ok }],
      evidence: PLAN_PHASE.evidence.map((n) => {
        const present = input.run.planEvidence.some((i) => i.ok && i.kind === n.kind);
        return { what: n.what, file: n.file, line: present ? 1 : null, present };
      }),
      next: PLAN_PHASE.next,
      reentry,
      reentryClear: clear,
      source: PLAN_PHASE.source,
    };
  }
  const waiting = input.run.inline.waiting;
  const ids = new Set(input.plan.phases.flatMap((p) => p.tasks.map((t) => t.id)));
  const targetId = waiting && ids.has(waiting.taskId) ? waiting.taskId : resumeTarget(input.plan)?.id;
  const task = input.plan.phases.flatMap((p) => p.tasks).find((t) => t.id === targetId);
  const row = task ? autodevStatusRow(String(task.status)) : undefined;
  if (!task || !row) {
    return {
      phase: "finished",
      task: null,
      preconditions: [],
      evidence: [],
      next: [],
      reentry,
      reentryClear: clear,
      source: "orchestrator/__init__.py Orchestrator.resume",
    };
  }
  const moved = lastChange.get(task.id);
  const badEdge =
    moved !== undefined && input.warnings.some((w) => w.kind === "fsm_violation" && w.atLine === moved.line);
  return {
    phase: row.status,
    task: task.id,
    preconditions: [
      { what: "init_plan recorded the plan", met: init !== undefined, file: LEDGER_REL, line: init?.line ?? null },
      {
        what: moved
          ? `moved here from ${moved.fromStatus ?? "?"} along an allowed edge`
          : "still as init_plan wrote it",
        met: !badEdge,
        file: LEDGER_REL,
        line: moved?.line ?? init?.line ?? null,
      },
    ],
    evidence: byTask.get(task.id)?.evidence ?? [],
    next: row.next,
    reentry,
    reentryClear: clear,
    source: row.source,
  };
}
