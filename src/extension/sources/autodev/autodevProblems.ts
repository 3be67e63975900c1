/**
 * What Problems shows for an AutoDev folder: the ledger's integrity findings at their lines (the
 * entry before a broken link as related information), its history warnings (plan.json drift, a
 * dangling evidence_bundle; `autodev.historyWarnings`) with the phase contract's findings in place of
 * the state-machine and missing-evidence warnings, and the run state's problems
 * (config.json, responses, spec drift, tournaments, lessons).
 */
import * as vscode from "vscode";
import { errorProblem, warningProblem } from "../../../core/sources/autodev/ledgerProblems";
import { LEDGER_REL } from "../../../core/sources/autodev/autodevPaths";
import type { VerifyReport, VerifyWarning } from "../../../core/sources/autodev/ledger/verifyTypes";
import type { SourceProblem } from "../../../core/sources/stateSource";
import type { FolderProblem } from "../sourceAdapter";

/** The Problems column of ledger findings. */
const LEDGER_ORIGIN = "AutoDev ledger";
/** The Problems column of run-state problems. */
const RUN_ORIGIN = "AutoDev";
/** Findings about a link between two entries: the entry before is related. */
const LINK_KINDS: ReadonlySet<string> = new Set([
  "prev_hash_mismatch",
  "seq_jump",
  "inserted_entry",
  "dropped_entries",
]);

/** The parts an AutoDev folder's problems are made of. */
export interface AutodevProblemParts {
  readonly report: VerifyReport;
  /** Warnings read after verification (missing evidence, plan.json drift). */
  readonly history: readonly VerifyWarning[];
  /** The run state's problems (null before the run state was read). */
  readonly run: readonly SourceProblem[] | null;
  /** `autodev.historyWarnings`: include the history warnings. */
  readonly withWarnings: boolean;
  /**
   * The phase contract's problems (null before it was read). Once read they stand in for the
   * ledger's fsm_violation warnings and the missing_evidence check, as in `autodev-state check`.
   */
  readonly contract?: readonly SourceProblem[] | null;
  /** Why the ledger no longer extends the pinned head (Pin Verified Head), or null. */
  readonly pinnedHeadLost?: string | null;
}

/** The Problems column of the phase contract's problems. */
const CONTRACT_ORIGIN = "AutoDev contract";
/** Warning kinds the phase contract reports in its own words. */
const CONTRACT_REPLACES: ReadonlySet<string> = new Set(["fsm_violation", "missing_evidence"]);

/** The folder's problems, ledger first. */
export function autodevProblems(parts: AutodevProblemParts): FolderProblem[] {
  const out: FolderProblem[] = [];
  for (const e of parts.report.errors) {
    const line = e.atLine;
    out.push({
      ...errorProblem(e),
      origin: LEDGER_ORIGIN,
      related:
        line > 1 && LINK_KINDS.has(e.kind)
          ? [{ file: LEDGER_REL, line: line - 1, message: vscode.l10n.t("the entry before it") }]
          : undefined,
    });
  }
  if (parts.withWarnings) {
    const contract = parts.contract ?? null;
    for (const w of [...parts.report.warnings, ...parts.history]) {
      if (contract === null || !CONTRACT_REPLACES.has(w.kind)) {
        out.push({ ...warningProblem(w), origin: LEDGER_ORIGIN });
      }
    }
    for (const p of contract ?? []) out.push({ ...p, origin: CONTRACT_ORIGIN });
  }
  if (parts.pinnedHeadLost) {
    out.push({
      file: LEDGER_REL,
      line: null,
      severity: "error",
      code: "pinned_head_lost",
      message: vscode.l10n.t(
        "The ledger no longer extends the pinned head: {0} Restore the ledger from a copy, or unpin the head (AutoDev: Unpin Verified Head) if this history is the one to keep.",
        parts.pinnedHeadLost,
      ),
      origin: LEDGER_ORIGIN,
    });
  }
  for (const p of parts.run ?? []) out.push({ ...p, origin: RUN_ORIGIN });
  return out;
}

/** How long after a verification the history warnings are read (a burst of changes reads them once). */
const HISTORY_DELAY_MS = 100;

/** One folder's history warnings (or phase contract), read from the worker a moment after each verification. */
export class HistoryWarnings<T = VerifyWarning> implements vscode.Disposable {
  private list: readonly T[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly read: () => Promise<T[]>,
    private readonly wanted: () => boolean,
    private readonly changed: () => void,
  ) {}

  /** The warnings of the last read. */
  get warnings(): readonly T[] {
    return this.list;
  }

  /** Reads them again soon (when they are wanted: a clean ledger and `autodev.historyWarnings`). */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.readNow(), HISTORY_DELAY_MS);
  }

  /**
   * Takes warnings read elsewhere in the same turn (a refresh that brought them along): a pending
   * scheduled read is dropped, nobody is told (the caller fires once for everything).
   */
  take(warnings: readonly T[]): void {
    clearTimeout(this.timer);
    this.list = this.wanted() ? warnings : [];
  }

  /** Reads them now (a pending scheduled read is folded in); resolves once they are in. */
  readNow(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.wanted()) {
      const had = this.list.length > 0;
      this.list = [];
      if (had) this.changed();
      return Promise.resolve();
    }
    return this.read()
      .catch(() => [])
      .then((warnings) => {
        this.list = warnings;
        this.changed();
      });
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}
