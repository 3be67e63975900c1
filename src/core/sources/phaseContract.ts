/**
 * Phase contracts, source-neutral (seed 001: one authoritative commit path; only a completed outcome
 * advances). Each source writes its own table down as data in its folder (`<kind>/contract/`) and
 * evaluates it against its state into a {@link ContractView}: the current phase, its preconditions
 * met or not, its authoritative evidence found or not (with where), the allowed next phases and the
 * re-entry point in plain words. The problem codes are shared; the CLI (`sources --json`) and the
 * tree show a view the same way for every source.
 */
import type { SourceProblem, SourceTreeNode } from "./stateSource";
import { displayValue } from "../text/displayText";
import { escapeMarkdown } from "../text/markdownText";

/** A phase stands where the evidence that allows it (the previous phase's completed outcome) is missing. */
export const PHASE_WITHOUT_EVIDENCE = "phase_without_evidence";
/** The history shows a move the contract does not allow (or one made outside the commit path). */
export const TRANSITION_NOT_ALLOWED = "transition_not_allowed";
/** A restart could not tell what to resume from. */
export const REENTRY_UNCLEAR = "reentry_unclear";

/** The codes a contract check reports. */
export type ContractCode = typeof PHASE_WITHOUT_EVIDENCE | typeof TRANSITION_NOT_ALLOWED | typeof REENTRY_UNCLEAR;

/** One precondition of the current phase, and whether the state meets it. */
interface ContractCondition {
  readonly what: string;
  readonly met: boolean;
  /** Where the deciding value is (relative to the workspace folder), when there is one. */
  readonly file?: string;
  readonly line?: number | null;
}

/** One piece of authoritative evidence, and whether it is there. */
export interface ContractEvidence {
  readonly what: string;
  /** Relative to the workspace folder, forward slashes. */
  readonly file: string;
  readonly line: number | null;
  readonly present: boolean;
}

/** The contract of the phase a state stands in, evaluated against that state. */
export interface ContractView {
  /** The phase (or, for sources whose table is per status, the status) the state stands in. */
  readonly phase: string;
  /** The task the phase is about, when there is one. */
  readonly task: string | null;
  readonly preconditions: readonly ContractCondition[];
  readonly evidence: readonly ContractEvidence[];
  /** Phases the contract allows next. */
  readonly next: readonly string[];
  /** What a restart resumes from, in plain words. */
  readonly reentry: string;
  /** Whether the re-entry point is clear (false when a `reentry_unclear` problem stands). */
  readonly reentryClear: boolean;
  /** Where the contract row came from (the writer's code or prompt). */
  readonly source: string;
}

/** The `contract` key of a `sources --json` summary. */
export function contractJson(view: ContractView | null): Record<string, unknown> | null {
  if (view === null) return null;
  return {
    phase: view.phase,
    task: view.task,
    evidence: view.evidence.map((e) => ({ what: e.what, file: e.file, present: e.present })),
    reentry: view.reentry,
    preconditions: view.preconditions.map((c) => ({ what: c.what, met: c.met })),
    next: [...view.next],
  };
}

/** A contract problem (always a warning: the state stays readable; the run's honesty is in question). */
export function contractProblem(code: ContractCode, file: string, line: number | null, message: string): SourceProblem {
  return { file, line, severity: "warning", code, message };
}

/**
 * The tree node "Contract: <phase>" with its preconditions (met or not), its evidence (present or
 * not, each a link to where it is) and the re-entry point; `id` is the source's node id prefix.
 */
export function contractTreeNode(id: string, view: ContractView): SourceTreeNode {
  const unmet = view.preconditions.filter((c) => !c.met).length;
  const missing = view.evidence.filter((e) => !e.present).length;
  const ok = unmet === 0 && view.reentryClear;
  const children: SourceTreeNode[] = [];
  view.preconditions.forEach((c, i) => {
    children.push({
      id: `${id}/pre/${i}`,
      label: displayValue(c.what),
      description: c.met ? "met" : "not met",
      icon: c.met ? { id: "pass", color: "autodevStatus.complete" } : { id: "error", color: "errorForeground" },
      target: c.file ? { kind: "file", file: c.file, line: c.line ?? undefined } : undefined,
    });
  });
  view.evidence.forEach((e, i) => {
    children.push({
      id: `${id}/evidence/${i}`,
      label: displayValue(e.what),
      description: e.present ? e.file : `not yet (${e.file})`,
      icon: e.present ? { id: "file" } : { id: "circle-large-outline" },
      target: e.present ? { kind: "file", file: e.file, line: e.line ?? undefined } : undefined,
    });
  });
  children.push({
    id: `${id}/reentry`,
    label: displayValue(view.reentry),
    description: view.reentryClear ? "re-entry" : "re-entry unclear",
    tooltip: escapeMarkdown(view.reentry),
    icon: view.reentryClear ? { id: "debug-restart" } : { id: "warning", color: "problemsWarningIcon.foreground" },
  });
  if (view.next.length > 0) {
    children.push({ id: `${id}/next`, label: `Next: ${view.next.join(", ")}`, icon: { id: "arrow-right" } });
  }
  const parts = [unmet > 0 ? `${unmet} precondition${unmet === 1 ? "" : "s"} not met` : "preconditions met"];
  if (missing > 0) parts.push(`${missing} evidence pending`);
  return {
    id,
    label: `Contract: ${view.phase}${view.task ? ` · ${view.task}` : ""}`,
    description: parts.join(" · "),
    tooltip: escapeMarkdown(`From ${view.source}. A restart: ${view.reentry}`),
    icon: ok
      ? { id: "verified", color: "autodevStatus.complete" }
      : { id: "warning", color: "problemsWarningIcon.foreground" },
    expanded: !ok,
    children,
  };
}
