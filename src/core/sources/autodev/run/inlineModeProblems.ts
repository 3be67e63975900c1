/**
 * What inline mode means for a run, as problems: the hazards of the inline
 * history (responses AutoDev would read again to the run's harm, see
 * inlineHistory.ts), a stale inline-state.json, the plan tournament that
 * cannot run inline (Python's `run_plan_tournament` asserts it is not given
 * the inline adapter, so `autodev plan` stops with an AssertionError after the
 * architect answers and stores no plan), and once, as information, why tasks
 * of an inline run have no impl tournament evidence (the impl runner refuses
 * the inline adapter the same way; `execute` logs `impl_tournament_error` and
 * moves on).
 */
import type { SourceProblem } from "../../stateSource";
import { INLINE_STATE_REL } from "../inline/inlinePaths";
import { CONFIG_REL } from "../config/configReader";
import { expectationsFrom } from "../evidence/requiredEvidence";
import { DELEGATIONS_REL } from "../inline/inlinePaths";
import type { RunState } from "./runState";

const PAST_TESTS = ["tournamented", "complete"];

/** True when the run is (or was) in inline mode: config.json says so, or AutoDev wrote delegations. */
function isInlineRun(rs: RunState): boolean {
  return rs.config.config?.platform === "inline" || rs.inline.delegations.length > 0 || rs.inline.waiting !== null;
}

/** The inline-mode problems of `rs`. */
export function inlineModeProblems(rs: RunState): SourceProblem[] {
  const out: SourceProblem[] = [];
  for (const h of rs.history.hazards) {
    for (const file of h.files) {
      out.push({ file, line: null, severity: "warning", code: h.code, message: h.message });
    }
  }
  if (rs.history.staleWaiting !== null) {
    const missing = rs.inline.waiting?.response.state === "missing";
    out.push({
      file: INLINE_STATE_REL,
      line: null,
      severity: missing ? "warning" : "info",
      code: "inline_state_stale",
      message: `${rs.history.staleWaiting}; AutoDev is not waiting on anyone`,
    });
  }
  const cfg = rs.config.config;
  if (!cfg || !isInlineRun(rs)) return out;
  const expect = expectationsFrom(cfg);
  const judgeModel = cfg.agents.judge?.model ?? null;
  const autoDisabled =
    judgeModel !== null &&
    cfg.tournaments.auto_disable_for_models.some((m) => judgeModel.toLowerCase().includes(m.toLowerCase()));
  if (!rs.planStored && cfg.tournaments.plan.enabled && !autoDisabled) {
    out.push({
      file: CONFIG_REL,
      line: null,
      severity: "warning",
      code: "plan_tournament_inline",
      message: `tournaments.plan.enabled is true, but the plan tournament cannot run in inline mode: once the architect has answered, \`autodev plan\` stops with "AssertionError: Tournament runners must use subprocess adapters, not InlineAdapter" and stores no plan. Set tournaments.plan.enabled to false in ${CONFIG_REL} (or add the judge's model${judgeModel ? ` "${judgeModel}"` : ""} to auto_disable_for_models) before the plan phase ends.`,
    });
  }
  const evidence = new Set(rs.evidenceNames);
  const past = (rs.tasks ?? [])
    .filter((t) => PAST_TESTS.includes(t.status) && !evidence.has(`${t.id}-tournament.json`))
    .map((t) => t.id);
  if (expect.implTournament && past.length > 0) {
    out.push({
      file: rs.config.config?.platform === "inline" ? CONFIG_REL : DELEGATIONS_REL,
      line: null,
      severity: "info",
      code: "impl_tournament_inline",
      message: `no impl tournament evidence is expected for ${past.length === 1 ? "task" : "tasks"} ${past.join(", ")}: in inline mode AutoDev's impl tournament runner refuses the inline adapter (an assertion); \`autodev execute\` logs execute_phase.impl_tournament_error and moves the task on to 'tournamented'. AutoDev's orchestrator design says "Inline mode does not support tournaments".`,
    });
  }
  return out;
}
