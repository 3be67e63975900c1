/**
 * Live checks of a response file while it is edited: every `.autodev/responses/{task}-{role}.json`
 * open in an editor of an AutoDev folder is checked on each change by AutoDev's own rules
 * (`InlineResponseFile`, the task and role its name says, the template's placeholder, what AutoDev
 * will read the answer as: src/core/sources/autodev/inline/responseFile.ts), with Problems at the
 * line, so the answer is right before `autodev resume` reads it.
 */
import * as vscode from "vscode";
import { checkResponseText } from "../../../../core/sources/autodev/inline/responseFile";
import { splitStepName } from "../../../../core/sources/autodev/inline/inlineHistory";
import { displayLine } from "../../../../core/text/displayText";

const SEVERITY = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
} as const;

/** The task and role a document answers, when it is a response file of a workspace folder. */
export function responseFileOf(doc: vscode.TextDocument): { taskId: string; role: string } | null {
  const m = /\/\.autodev\/responses\/([^/]+)\.json$/.exec(doc.uri.path);
  if (!m || doc.uri.scheme !== "file" || !vscode.workspace.getWorkspaceFolder(doc.uri)) return null;
  return splitStepName(decodeURIComponent(m[1]));
}

/** Keeps the "AutoDev response" diagnostics of open response files current. */
export class ResponseValidation implements vscode.Disposable {
  readonly diagnostics = vscode.languages.createDiagnosticCollection("autodev-response");
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.diagnostics.delete(d.uri)),
    );
    for (const d of vscode.workspace.textDocuments) this.check(d);
  }

  /** Checks one document (nothing for a file that is not a response file). */
  check(doc: vscode.TextDocument): void {
    const expect = responseFileOf(doc);
    if (!expect) return;
    const found = checkResponseText(doc.getText(), expect).map((f) => {
      const line = Math.min(Math.max(f.line - 1, 0), Math.max(doc.lineCount - 1, 0));
      const d = new vscode.Diagnostic(doc.lineAt(line).range, displayLine(f.message), SEVERITY[f.severity]);
      d.code = f.code;
      d.source = vscode.l10n.t("AutoDev response");
      return d;
    });
    this.diagnostics.set(doc.uri, found);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.diagnostics.dispose();
  }
}
