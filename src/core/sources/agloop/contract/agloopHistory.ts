/**
 * The history half of agloop's phase contract: every move in `phase_history` and in log.json's
 * `phase_transition` entries must be one the table allows, the last history entry must be the
 * current phase (a move is recorded as it is made), and `phase_history` only grows: the newest
 * checkpoint written since the last recovery holds a prefix of it.
 */
import type { SourceProblem } from "../../stateSource";
import { TRANSITION_NOT_ALLOWED, contractProblem } from "../../phaseContract";
import { LOG_FILE } from "../agloopFiles";
import { asArray, asRecord, asString, quoteForMessage } from "../agloopText";
import type { LogRead } from "../log/logFile";
import { agloopMoveAllowed, agloopPhaseRow } from "./agloopPhaseTable";
import { stateLine, type AgloopContractInput } from "./agloopRequirements";
import { pushAll } from "../../sourceProblems";

const SOURCE = "agloop.agent.md §3 (each phase's transitions)";

function allowedText(from: string): string {
  const next = agloopPhaseRow(from)?.next ?? [];
  return next.length === 0 ? "none (it is final)" : next.join(", ");
}

/** The phases of phase_history, in order. */
function historyPhases(state: Record<string, unknown>): (string | undefined)[] {
  return asArray(state.phase_history).map((h) => asString(asRecord(h)?.phase));
}

/** Moves in phase_history and log.json the table does not allow; the last entry against current_phase. */
export function historyProblems(input: AgloopContractInput): SourceProblem[] {
  const out: SourceProblem[] = [];
  const phases = historyPhases(input.state);
  const seen = new Set<string>();
  for (let i = 1; i < phases.length; i++) {
    const from = phases[i - 1];
    const to = phases[i];
    if (from === undefined || to === undefined || !agloopPhaseRow(from) || agloopMoveAllowed(from, to)) continue;
    seen.add(`${from}→${to}`);
    out.push(
      contractProblem(
        TRANSITION_NOT_ALLOWED,
        input.stateFile,
        stateLine(input, ["phase_history", i, "phase"]),
        `phase_history[${i}] moves ${quoteForMessage(from)} → ${quoteForMessage(to)}; from ${from} the contract allows ${allowedText(from)} (${SOURCE}). A phase advances only on its completed outcome.`,
      ),
    );
  }
  const current = asString(input.state.current_phase);
  const last = phases.at(-1);
  if (current !== undefined && last !== undefined && last !== current && agloopPhaseRow(current)) {
    out.push(
      contractProblem(
        TRANSITION_NOT_ALLOWED,
        input.stateFile,
        stateLine(input, ["current_phase"]),
        `current_phase is ${quoteForMessage(current)} but the last phase_history entry is ${quoteForMessage(last)}: the move was not recorded (the coordinator pushes a phase_history entry with every transition).`,
      ),
    );
  }
  pushAll(out, logMoveProblems(input.log, seen));
  return out;
}

/** Moves between log.json's phase_transition entries (restarting after a recovery) not already reported. */
function logMoveProblems(log: LogRead, seen: Set<string>): SourceProblem[] {
  const out: SourceProblem[] = [];
  let prev: string | null = null;
  for (const e of log.events) {
    if (e.action === "state_recovered") {
      prev = e.phase;
      continue;
    }
    if (e.action !== "phase_transition" || e.phase === null) continue;
    const key = `${prev}→${e.phase}`;
    if (prev !== null && agloopPhaseRow(prev) && !agloopMoveAllowed(prev, e.phase) && !seen.has(key)) {
      seen.add(key);
      out.push(
        contractProblem(
          TRANSITION_NOT_ALLOWED,
          LOG_FILE,
          e.line,
          `log.json line ${e.line} records a transition ${quoteForMessage(prev)} → ${quoteForMessage(e.phase)}; from ${prev} the contract allows ${allowedText(prev)} (${SOURCE}).`,
        ),
      );
    }
    prev = e.phase;
  }
  return out;
}

/** The time of the last recovery logged, or null. */
export function lastRecovery(log: LogRead): string | null {
  for (let i = log.events.length - 1; i >= 0; i--) {
    if (log.events[i].action === "state_recovered") return log.events[i].time;
  }
  return null;
}

/**
 * phase_history only grows: `older` (the history of the newest checkpoint written since the last
 * recovery) must be a prefix of the state's, entry by entry (phase and entered_at; exited_at may be set since).
 */
export function shrinkProblem(
  input: AgloopContractInput,
  older: Record<string, unknown>,
  checkpointFile: string,
): SourceProblem | null {
  const before = asArray(older.phase_history).map(asRecord);
  const now = asArray(input.state.phase_history).map(asRecord);
  for (let i = 0; i < before.length; i++) {
    const a = before[i];
    const b = now[i];
    if (b && a?.phase === b.phase && a?.entered_at === b.entered_at) continue;
    const field = b && a?.phase === b.phase ? "entered_at" : "phase";
    const where: (string | number)[] = b ? ["phase_history", i, field] : ["phase_history"];
    const what = b
      ? `phase_history[${i}] is ${quoteForMessage(b.phase)} entered ${quoteForMessage(b.entered_at)}, but ${checkpointFile} has ${quoteForMessage(a?.phase)} entered ${quoteForMessage(a?.entered_at)} there`
      : `phase_history has ${now.length} entries, ${checkpointFile} already had ${before.length}`;
    return contractProblem(
      TRANSITION_NOT_ALLOWED,
      input.stateFile,
      stateLine(input, where),
      `${what}: phase_history is append-only (state-persistence skill), so it was rewritten or cut. Recover from a checkpoint (agloop: Recover from checkpoint) only when state.json is lost; otherwise restore the entries.`,
    );
  }
  return null;
}
