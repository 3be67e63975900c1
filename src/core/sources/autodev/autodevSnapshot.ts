/**
 * One read of `.autodev/` beyond the ledger, and what Problems shows of it: the run state, the phase
 * contract (on an intact ledger), the history warnings (a dangling evidence bundle, plan.json drift)
 * and from all of it the problems — one pure composition, used by the CLI's `check` and by the
 * worker's answer to the editor's refresh, so the two cannot differ.
 */
import { UnsafeFileError } from "../../fs/safeRead";
import { ProblemCollector, extendProblem, sortProblems } from "../sourceProblems";
import type { SourceProblem } from "../stateSource";
import { AUTODEV_DIR, LEDGER_REL } from "./autodevPaths";
import { planDependencyProblems } from "./autodevGraph";
import { AutodevContractResult, checkAutodevContract } from "./contract/autodevContract";
import { missingEvidenceWarnings, planJsonWarning } from "./historyChecks";
import { sharedEvidenceReads } from "./evidence/evidenceStore";
import { errorProblem, warningProblem } from "./ledgerProblems";
import type { EntrySummary, VerifyFinding, VerifyWarning } from "./ledger/verifyTypes";
import type { Plan } from "./plan/schemas";
import { runStateProblems } from "./run/runProblems";
import { RunState, readRunState, runPlanOf } from "./run/runState";
import type { RunningProbe } from "./run/runningProbe";
import { errorText } from "../../text/errorText";

/** What one read of the ledger gave (`ledger: false` in the plan phase, before there is one). */
export interface AutodevLedgerRead {
  readonly ok: boolean;
  readonly ledger: boolean;
  readonly errors: readonly VerifyFinding[];
  readonly warnings: readonly VerifyWarning[];
  readonly plan: Plan | null;
  readonly entries: readonly EntrySummary[];
  /** The ledger's size as it was read, when known (plan.json drift found once it grew is a write in between). */
  readonly bytes?: number;
}

/** The ledger read, with everything else `.autodev/` holds that the checks and the views read. */
export interface AutodevSnapshot extends AutodevLedgerRead {
  readonly run: RunState;
  /** The phase contract, on an intact ledger (null on a broken one). */
  readonly contract: AutodevContractResult | null;
  /** Warnings read besides the ledger: dangling evidence bundles, then plan.json drift. */
  readonly history: readonly VerifyWarning[];
}

/** Which part of the state a problem is about (the editor's Problems column). */
export type AutodevProblemPart = "ledger" | "contract" | "run";

/** A problem of `.autodev/` and the part it is about. */
export interface AutodevProblem extends SourceProblem {
  readonly part: AutodevProblemPart;
}

/**
 * Reads the rest of `.autodev/` once for a ledger read: run state (`probe`: the lock too; `running`: that
 * probe when the caller started it already), contract, history warnings.
 */
export async function readAutodevSnapshot(
  workspace: string,
  ledger: AutodevLedgerRead,
  probe: boolean,
  running?: Promise<RunningProbe>,
): Promise<AutodevSnapshot> {
  const run = await readRunState(workspace, runPlanOf(ledger.plan), { probe, running });
  const evidence = sharedEvidenceReads();
  const contract = ledger.ok
    ? await checkAutodevContract({
        workspace,
        plan: ledger.plan,
        entries: ledger.entries as EntrySummary[],
        warnings: ledger.warnings,
        run,
        evidence,
      })
    : null;
  const history: VerifyWarning[] = [];
  if (ledger.ok) {
    if (ledger.plan) history.push(...(await missingEvidenceWarnings(workspace, ledger.plan, ledger.entries, evidence)));
    const drift = await planJsonWarning(workspace, ledger.plan, ledger.bytes);
    if (drift) history.push(drift);
  }
  return { ...ledger, run, contract, history };
}

/** Options of {@link snapshotProblems}. */
export interface SnapshotProblemOptions {
  /** False: leave out the history warnings and the contract's findings (`autodev.historyWarnings` off). */
  readonly historyWarnings?: boolean;
}

/**
 * Every problem of the snapshot: integrity errors, the ledger's warnings but its fsm_violation ones,
 * then (on an intact ledger) the phase contract's findings (they stand in for fsm_violation and the
 * missing-evidence check), plan.json drift, the plan's dependency problems and the run state's problems; at most PROBLEMS_PER_FILE
 * per file (the rest summarised), in file and line order.
 */
export function snapshotProblems(s: AutodevSnapshot, options: SnapshotProblemOptions = {}): AutodevProblem[] {
  const withWarnings = options.historyWarnings !== false;
  const out = new ProblemCollector();
  const add = (p: SourceProblem, part: AutodevProblemPart) => out.add(extendProblem<AutodevProblem>(p, { part }));
  for (const e of s.errors) add(errorProblem(e), "ledger");
  if (withWarnings) {
    for (const w of s.warnings) if (w.kind !== "fsm_violation") add(warningProblem(w), "ledger");
    if (s.ok) {
      for (const p of s.contract?.problems ?? []) add(p, "contract");
      for (const w of s.history) if (w.kind !== "missing_evidence") add(warningProblem(w), "ledger");
    }
  }
  if (s.plan) for (const p of planDependencyProblems(s.plan)) add(p, "ledger");
  for (const p of runStateProblems(s.run)) add(p, "run");
  return sortProblems(out.result()) as AutodevProblem[];
}

/** A problem for a part of the check that stopped, so the other parts' findings still show. */
function stoppedProblem(file: string, part: string, e: unknown): SourceProblem {
  return {
    file,
    line: null,
    severity: "error",
    code: "check_failed",
    message: `the ${part} stopped: ${errorText(e)}`,
  };
}

/**
 * The problems when the ledger could not be read at all (`e`): that one problem, and the run
 * state's, read without a plan (a part that stops is one problem; the others still show).
 */
export async function unreadableLedgerProblems(
  workspace: string,
  e: unknown,
  probe = false,
): Promise<AutodevProblem[]> {
  const out = new ProblemCollector();
  const add = (p: SourceProblem, part: AutodevProblemPart) => out.add(extendProblem<AutodevProblem>(p, { part }));
  add(
    e instanceof UnsafeFileError
      ? { file: LEDGER_REL, line: null, severity: "error", code: "unreadable_file", message: e.message }
      : stoppedProblem(LEDGER_REL, "ledger check", e),
    "ledger",
  );
  try {
    for (const p of runStateProblems(await readRunState(workspace, null, { probe }))) add(p, "run");
  } catch (e2) {
    add(stoppedProblem(AUTODEV_DIR, "run-state check (config, inline, tournaments, knowledge)", e2), "run");
  }
  return sortProblems(out.result()) as AutodevProblem[];
}
