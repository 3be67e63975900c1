/**
 * agloop's phase contract (agloopPhaseTable.ts) checked against a state: the current phase's
 * preconditions (`phase_without_evidence` at current_phase when one is missing), every `done` task's
 * PASS verification (at its status), the history (agloopHistory.ts: `transition_not_allowed`), and
 * the re-entry point in plain words — what the coordinator's state-first protocol would resume
 * (`reentry_unclear` where it cannot tell, e.g. an approved plan whose approval gate was lost).
 */
import type { SourceProblem } from "../../stateSource";
import { PHASE_WITHOUT_EVIDENCE, REENTRY_UNCLEAR, contractProblem, type ContractView } from "../../phaseContract";
import { asArray, asRecord, asString, quoteForMessage } from "../agloopText";
import { AGLOOP_MAX_RETRIES, DONE_NEEDS_PASS, agloopPhaseRow, type AgloopPhaseRow } from "./agloopPhaseTable";
import { historyProblems } from "./agloopHistory";
import {
  approvalIn,
  criticVerdict,
  currentTask,
  evaluate,
  stateLine,
  type AgloopContractInput,
} from "./agloopRequirements";
import { labelText } from "../../../text/untrustedText";

/** The contract evaluated: the view of the current phase and every contract problem. */
export interface AgloopContractResult {
  readonly view: ContractView | null;
  readonly problems: readonly SourceProblem[];
}

/** The re-entry point of the current phase, and a problem when it is unclear. */
interface Reentry {
  readonly text: string;
  readonly problem: SourceProblem | null;
}

/** The next task by the coordinator's topological sort (§5): pending, dependencies done, fewest, lowest id. */
function nextByDependencies(state: Record<string, unknown>): string | null {
  const tasks = asArray(state.tasks).map(asRecord);
  const status = new Map<string, unknown>();
  for (const t of tasks) if (t && typeof t.id === "string") status.set(t.id, t.status);
  const ready = tasks
    .filter((t) => t?.status === "pending" && typeof t.id === "string")
    .map((t) => ({ id: t!.id as string, deps: asArray(t!.depends_on).filter((d) => typeof d === "string") }))
    .filter((t) => t.deps.every((d) => status.get(d as string) === "done"))
    .sort((a, b) => a.deps.length - b.deps.length || a.id.localeCompare(b.id));
  return ready[0]?.id ?? null;
}

function retryText(state: Record<string, unknown>, id: string): string {
  const r = asRecord(state.retry_count)?.[id];
  return typeof r === "number" && r > 0 ? ` (retry ${r} of ${AGLOOP_MAX_RETRIES}: a fresh executor)` : "";
}

/** What a restart resumes, from the coordinator's rules for `row`'s phase. */
function reentryOf(row: AgloopPhaseRow, input: AgloopContractInput): Reentry {
  const { state } = input;
  const iteration = typeof state.iteration === "number" ? state.iteration : "?";
  const cur = currentTask(state);
  const curId = asString(state.current_task_id);
  const unclear = (path: (string | number)[], text: string, why: string): Reentry => ({
    text,
    problem: contractProblem(REENTRY_UNCLEAR, input.stateFile, stateLine(input, path), why),
  });
  switch (row.phase) {
    case "critique": {
      if (criticVerdict(state) !== "APPROVE") return { text: `${row.reentry}, iteration ${iteration}`, problem: null };
      const first = nextByDependencies(state) ?? "the first task";
      if (approvalIn(input.log, "critique")) {
        return { text: `moves to execute (the user approved), starting with ${first}`, problem: null };
      }
      const pending = asString(asRecord(state.compaction_context)?.pending_decision) ?? "";
      if (/approv/i.test(pending)) {
        return { text: `asks the user to approve execution, starting with ${first}`, problem: null };
      }
      return unclear(
        ["compaction_context", "pending_decision"],
        "cannot tell it is waiting for the user's approval",
        `The critic approved the plan (critique_digest) but compaction_context.pending_decision is ${quoteForMessage(pending)}: the approval gate is lost, so a restart cannot tell it must ask the user before execute (agloop.agent.md §3 critique: "update pending_decision … This persists the approval-gate sub-state"). Set pending_decision to the approval question, or re-run the critique.`,
      );
    }
    case "execute": {
      if (curId === undefined) {
        const next = nextByDependencies(state);
        return {
          text: next
            ? `starts ${next} in execute (next by dependencies)`
            : "finds no pending task and moves to complete",
          problem: null,
        };
      }
      if (!cur) return { text: `cannot find the current task ${quoteForMessage(curId)}`, problem: null };
      const status = asString(cur.task.status);
      if (status === "in_progress" || status === "pending") {
        return { text: `resumes ${curId} in execute, iteration ${iteration}${retryText(state, curId)}`, problem: null };
      }
      return unclear(
        ["current_task_id"],
        `cannot tell which task to resume: ${curId} is ${status ?? "?"}`,
        `current_phase is execute but the current task ${quoteForMessage(curId)} is ${quoteForMessage(status)}; after a verification the coordinator moves current_task_id to the next task (agloop.agent.md §3 verify). A restart would redo finished work or stall.`,
      );
    }
    case "verify":
      if (!cur) {
        return unclear(
          ["current_task_id"],
          "cannot tell which task to verify",
          `current_phase is verify but current_task_id is ${quoteForMessage(curId ?? null)}, not a task of this state; a restart cannot tell which result to verify.`,
        );
      }
      return { text: `re-verifies ${curId} (verify, iteration ${iteration})`, problem: null };
    default:
      return { text: row.reentry, problem: null };
  }
}

/** `done` tasks without a PASS verification. */
function doneWithoutPass(input: AgloopContractInput): SourceProblem[] {
  const out: SourceProblem[] = [];
  asArray(input.state.tasks).forEach((t, i) => {
    const task = asRecord(t);
    if (task?.status !== "done") return;
    const verdict = asString(asRecord(task.verification)?.verdict);
    if (verdict === "PASS") return;
    out.push(
      contractProblem(
        PHASE_WITHOUT_EVIDENCE,
        input.stateFile,
        stateLine(input, ["tasks", i, "status"]),
        `tasks[${i}] (${quoteForMessage(task.id ?? "?")}) is done but its verification verdict is ${quoteForMessage(verdict ?? null)}; a task is done only after the verifier's PASS (${DONE_NEEDS_PASS}).`,
      ),
    );
  });
  return out;
}

/** Checks `input` against the contract. */
export function checkAgloopContract(input: AgloopContractInput): AgloopContractResult {
  const phase = asString(input.state.current_phase);
  const row = phase === undefined ? undefined : agloopPhaseRow(phase);
  const problems: SourceProblem[] = [...historyProblems(input), ...doneWithoutPass(input)];
  if (!row) return { view: null, problems };
  const pre = row.requires.map((r) => evaluate(r, input));
  for (const p of pre.filter((x) => !x.met)) {
    problems.push(
      contractProblem(
        PHASE_WITHOUT_EVIDENCE,
        input.stateFile,
        stateLine(input, ["current_phase"]),
        `current_phase is ${quoteForMessage(row.phase)} but ${p.what} is missing (${p.file}${p.line ? `:${p.line}` : ""}); the coordinator enters ${row.phase} only on that outcome (${row.source}).`,
      ),
    );
  }
  const reentry = reentryOf(row, input);
  if (reentry.problem) problems.push(reentry.problem);
  const pending = labelText(asString(asRecord(input.state.compaction_context)?.pending_decision) ?? "", 120);
  const said =
    pending && reentry.problem === null && row.phase !== "complete" ? `; pending decision: "${pending}"` : "";
  return {
    problems,
    view: {
      phase: row.phase,
      task: asString(input.state.current_task_id) ?? null,
      preconditions: pre.map((p) => ({ what: p.what, met: p.met, file: p.file, line: p.line })),
      evidence: row.produces
        .map((r) => evaluate(r, input))
        .map((e) => ({ what: e.what, file: e.file, line: e.line, present: e.met })),
      next: row.next,
      reentry: `a restart ${reentry.text}${said}`,
      reentryClear: reentry.problem === null,
      source: row.source,
    },
  };
}
