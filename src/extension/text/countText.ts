/**
 * Counted phrases in the UI language ("1 error", "3 warnings", "12 lines"):
 * one whole message per plural form, so a translation never glues a number
 * to an English plural suffix.
 */
import * as vscode from "vscode";

/** "1 error" / "3 errors". */
function errorsText(n: number): string {
  return n === 1 ? vscode.l10n.t("1 error") : vscode.l10n.t("{0} errors", n);
}

/** "1 warning" / "3 warnings". */
function warningsText(n: number): string {
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

/** "1 info" / "3 infos" (Problems' word for its third severity). */
function infosText(n: number): string {
  return n === 1 ? vscode.l10n.t("1 info") : vscode.l10n.t("{0} infos", n);
}

/** "2 errors, 1 warning, 1 info" — what Problems counts, each severity only when present; "" for none. */
export function problemsListText(counts: { error: number; warning: number; info: number }): string {
  const parts = [
    counts.error ? errorsText(counts.error) : "",
    counts.warning ? warningsText(counts.warning) : "",
    counts.info ? infosText(counts.info) : "",
  ].filter(Boolean);
  return parts.length === 0 ? "" : parts.reduce((a, b) => vscode.l10n.t("{0}, {1}", a, b));
}

/** A duration as a person reads it: "12 ms" under a second, "3.4 s" under a minute, "2 min 5 s" above. */
export function durationText(ms: number): string {
  if (ms < 1000) return vscode.l10n.t("{0} ms", Math.max(1, Math.round(ms)));
  if (ms < 60_000) return vscode.l10n.t("{0} s", (ms / 1000).toFixed(1));
  const s = Math.round(ms / 1000);
  return vscode.l10n.t("{0} min {1} s", Math.floor(s / 60), s % 60);
}
