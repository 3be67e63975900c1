/**
 * What Verify Ledger Integrity says when it is done: the verdict, the first finding, how long it
 * took in a unit a person reads ("12 ms", not "0.0 s"), and the count Problems shows for the folder
 * afterwards (errors, warnings and infos of every check, not only the ledger's errors), so the
 * message and the Problems panel never disagree.
 */
import * as vscode from "vscode";
import type { VerifyReport } from "../../../../core/sources/autodev/ledger/verifyTypes";
import { humanMessage } from "../../../../core/sources/autodev/ledger/verifyMessages";
import { durationText, problemsListText } from "../../../text/countText";

/** Problems of one folder by severity. */
export interface ProblemTally {
  readonly error: number;
  readonly warning: number;
  readonly info: number;
}

/** The message after a verification, and whether it is an error. */
export function verifyOutcomeText(
  report: VerifyReport,
  ms: number,
  problems: ProblemTally,
): { readonly text: string; readonly error: boolean } {
  const took = durationText(ms);
  const listed = problemsListText(problems);
  if (report.ok) {
    return {
      error: false,
      text: listed
        ? vscode.l10n.t(
            "AutoDev: ledger ok — {0} entries verified in {1} ({2} in Problems).",
            report.entries,
            took,
            listed,
          )
        : vscode.l10n.t("AutoDev: ledger ok — {0} entries verified in {1}.", report.entries, took),
    };
  }
  const first = report.errors[0];
  // The finding's text comes from src/core (English, as the CLI prints it).
  return {
    error: true,
    text: vscode.l10n.t(
      "AutoDev: ledger broken at line {0}: {1} ({2} in Problems)",
      first.atLine,
      humanMessage(first),
      listed || problemsListText({ error: report.errors.length, warning: 0, info: 0 }),
    ),
  };
}
