/**
 * What Problems shows for an AutoDev folder: the ledger's integrity findings at their lines (the
 * entry before a broken link as related information), its history warnings (task state machine,
 * missing evidence, plan.json drift; `autodev.historyWarnings`), and the run state's problems
 * (config.json, responses, spec drift, tournaments, lessons).
 */
import * as vscode from "vscode";
import { errorProblem, warningProblem } from "../../../core/sources/autodev/autodevSource";
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
}

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
    for (const w of [...parts.report.warnings, ...parts.history]) {
      out.push({ ...warningProblem(w), origin: LEDGER_ORIGIN });
    }
  }
  for (const p of parts.run ?? []) out.push({ ...p, origin: RUN_ORIGIN });
  return out;
}

/** How long after a verification the history warnings are read (a burst of changes reads them once). */
const HISTORY_DELAY_MS = 100;

/** One folder's history warnings, read from the worker a moment after each verification. */
export class HistoryWarnings implements vscode.Disposable {
  private list: readonly VerifyWarning[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly read: () => Promise<VerifyWarning[]>,
    private readonly wanted: () => boolean,
    private readonly changed: () => void,
  ) {}

  /** The warnings of the last read. */
  get warnings(): readonly VerifyWarning[] {
    return this.list;
  }

  /** Reads them again soon (when they are wanted: a clean ledger and `autodev.historyWarnings`). */
  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.readNow(), HISTORY_DELAY_MS);
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
