/**
 * Integrity findings as Problems: errors at the exact line of
 * `plan-ledger.jsonl` ("self_hash mismatch: computed X, stored Y"), with the
 * previous entry as related information; history warnings (FSM violations,
 * missing evidence, plan.json drift) at a lower severity.
 */
import * as vscode from "vscode";
import { VerifyFinding, VerifyReport, VerifyWarning } from "../../../core/sources/autodev/ledger/verifyTypes";
import { humanMessage } from "../../../core/sources/autodev/ledger/verifyMessages";
import { Disposable } from "../../disposable";
import { displayMessage } from "../../../core/text/displayText";

const SOURCE = "AutoDev ledger";

/** Owns the diagnostic collection of ledger findings. */
export class LedgerDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection("autodev"));

  /** Replaces the diagnostics of one ledger file (plus extra warnings on other files, e.g. plan.json). */
  set(
    ledger: vscode.Uri,
    report: VerifyReport | null,
    extra: readonly { uri: vscode.Uri; warning: VerifyWarning }[] = [],
    includeWarnings = true,
  ): void {
    const diags: vscode.Diagnostic[] = [];
    for (const e of report?.errors ?? []) diags.push(this.errorDiagnostic(ledger, e));
    if (includeWarnings) for (const w of report?.warnings ?? []) diags.push(this.warningDiagnostic(w));
    this.collection.set(ledger, diags);
    const byFile = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
    for (const { uri, warning } of includeWarnings ? extra : []) {
      const slot = byFile.get(uri.toString()) ?? { uri, diags: [] };
      slot.diags.push(this.warningDiagnostic(warning));
      byFile.set(uri.toString(), slot);
    }
    for (const { uri, diags: d } of byFile.values()) this.collection.set(uri, d);
  }

  /** Clears a file's diagnostics. */
  clear(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  /** The diagnostics currently shown for `uri`. */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private errorDiagnostic(ledger: vscode.Uri, e: VerifyFinding): vscode.Diagnostic {
    const line = Math.max(0, e.atLine - 1);
    const range = new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER);
    const primary = e.kind === "more_errors" ? vscode.DiagnosticSeverity.Information : vscode.DiagnosticSeverity.Error;
    const d = new vscode.Diagnostic(range, displayMessage(humanMessage(e)), primary);
    d.source = SOURCE;
    d.code = e.kind;
    if (
      line > 0 &&
      (e.kind === "prev_hash_mismatch" ||
        e.kind === "seq_jump" ||
        e.kind === "inserted_entry" ||
        e.kind === "dropped_entries")
    ) {
      d.relatedInformation = [
        new vscode.DiagnosticRelatedInformation(
          new vscode.Location(ledger, new vscode.Range(line - 1, 0, line - 1, 0)),
          vscode.l10n.t("the entry before it"),
        ),
      ];
    }
    return d;
  }

  private warningDiagnostic(w: VerifyWarning): vscode.Diagnostic {
    const line = Math.max(0, w.atLine - 1);
    const d = new vscode.Diagnostic(
      new vscode.Range(line, 0, line, Number.MAX_SAFE_INTEGER),
      displayMessage(w.message),
      vscode.DiagnosticSeverity.Warning,
    );
    d.source = SOURCE;
    d.code = w.kind;
    return d;
  }
}
