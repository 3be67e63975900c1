/**
 * Counted phrases in the UI language ("1 error", "3 warnings", "12 lines"):
 * one whole message per plural form, so a translation never glues a number
 * to an English plural suffix.
 */
import * as vscode from "vscode";

/** "1 error" / "3 errors". */
export function errorsText(n: number): string {
  return n === 1 ? vscode.l10n.t("1 error") : vscode.l10n.t("{0} errors", n);
}

/** "1 warning" / "3 warnings". */
export function warningsText(n: number): string {
  return n === 1 ? vscode.l10n.t("1 warning") : vscode.l10n.t("{0} warnings", n);
}

/** "ok" when both are 0, else "2 errors", "1 warning" or "2 errors, 1 warning". */
export function problemCountsText(errors: number, warnings: number): string {
  if (errors && warnings) return vscode.l10n.t("{0}, {1}", errorsText(errors), warningsText(warnings));
  if (errors) return errorsText(errors);
  if (warnings) return warningsText(warnings);
  return vscode.l10n.t("ok");
}

/** "1 line" / "12 lines". */
export function linesText(n: number): string {
  return n === 1 ? vscode.l10n.t("1 line") : vscode.l10n.t("{0} lines", n);
}
