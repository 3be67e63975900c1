/**
 * The evidence a task's status implies, as Python's execute loop writes it
 * (`orchestrator/execute_phase.py`): developer evidence before `coded` (and
 * `{task}.patch` when its diff is not empty), review evidence before
 * `reviewed`, test evidence before `tested`, tournament evidence before
 * `tournamented` (the contract table's evidence column) — unless the impl tournament is off in config.json, its
 * judge model is auto-disabled (`auto_disable_for_models`), or the task ran in
 * inline mode, where `run_impl_tournament` asserts it is not given the inline
 * adapter and `execute` logs `impl_tournament_error` and moves on: in each case
 * Python moves on without one.
 */
import { autodevStatusRow } from "../contract/autodevStatusTable";

/** Why a task has (or has not) an impl tournament. */
type ImplTournamentRule = "runs" | "disabled" | "auto_disabled" | "inline";

/** What the workspace's config says about optional evidence. */
export interface EvidenceExpectations {
  /** True when the impl tournament runs (config enables it and does not auto-disable its model). */
  readonly implTournament: boolean;
  /** Why not, when known. */
  readonly rule?: ImplTournamentRule;
}

/** Defaults of the shipped config: the impl tournament runs. */
export const DEFAULT_EXPECTATIONS: EvidenceExpectations = { implTournament: true };

/** Minimal view of config.json's tournament and judge settings (null = no valid config: defaults). */
export interface TournamentSettings {
  readonly tournaments: {
    readonly impl: { readonly enabled: boolean };
    readonly auto_disable_for_models: readonly string[];
  };
  readonly agents: Readonly<Record<string, { readonly model: string | null }>>;
}

/** `_is_auto_disabled` applied to the judge model, as both tournament runners do. */
export function expectationsFrom(cfg: TournamentSettings | null): EvidenceExpectations {
  if (cfg === null) return DEFAULT_EXPECTATIONS;
  const model = Object.prototype.hasOwnProperty.call(cfg.agents, "judge") ? cfg.agents.judge.model : null;
  const low = model?.toLowerCase() ?? "";
  const autoDisabled = low !== "" && cfg.tournaments.auto_disable_for_models.some((m) => low.includes(m.toLowerCase()));
  const rule: ImplTournamentRule = !cfg.tournaments.impl.enabled ? "disabled" : autoDisabled ? "auto_disabled" : "runs";
  return { implTournament: rule === "runs", rule };
}

/** The expectations of a task that ran in inline mode (no impl tournament can run there). */
export function inlineExpectations(base: EvidenceExpectations): EvidenceExpectations {
  return base.implTournament ? { implTournament: false, rule: "inline" } : base;
}

/** The bundle kinds `status` implies, in gate order (the phase contract's table, contract/autodevStatusTable.ts). */
export function requiredEvidenceKinds(status: string, expect: EvidenceExpectations = DEFAULT_EXPECTATIONS): string[] {
  const kinds = autodevStatusRow(status)?.evidence ?? [];
  return kinds.filter((k) => k !== "tournament" || expect.implTournament);
}
