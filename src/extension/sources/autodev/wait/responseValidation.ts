/**
 * Live checks of a response file while it is edited: every `.autodev/responses/{task}-{role}.json`
 * open in an editor of an AutoDev folder is checked on each change by AutoDev's own rules
 * (`InlineResponseFile`, the task and role its name says, the template's placeholder, what AutoDev
 * will read the answer as: src/core/sources/autodev/inline/responseFile.ts), with Problems at the
 * line, so the answer is right before `autodev resume` reads it. The check runs in the state worker
 * (`checkResponse`, over the editor's text: the host loads no schema for it); an answer for a
 * version of the document that is no longer the newest is dropped.
 */
import * as vscode from "vscode";
import { splitStepName } from "../../../../core/sources/autodev/inline/inlineHistory";
import { displayLine } from "../../../../core/text/displayText";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { autodevRequest } from "../autodevRequest";

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
  /** The newest version asked about, per document. */
  private readonly asked = new Map<string, number>();

  constructor(private readonly worker: StateWorkerClient) {
    this.subscriptions.push(
      vscode.workspace.onDidOpenTextDocument((d) => void this.check(d)),
      vscode.workspace.onDidChangeTextDocument((e) => void this.check(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.asked.delete(d.uri.toString());
        this.diagnostics.delete(d.uri);
      }),
    );
    for (const d of vscode.workspace.textDocuments) void this.check(d);
  }

  /** Checks one document (nothing for a file that is not a response file); settles once its Problems are set. */
  async check(doc: vscode.TextDocument): Promise<void> {
    const expect = responseFileOf(doc);
    const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
    if (!expect || !folder) return;
    const key = doc.uri.toString();
    const version = doc.version;
    this.asked.set(key, version);
    const text = doc.getText();
    let findings;
    try {
      findings = await autodevRequest(this.worker, folder.uri.fsPath, { type: "checkResponse", text, ...expect });
    } catch {
      return; // the worker is restarting or gone: the next edit asks again
    }
    if (this.asked.get(key) !== version || doc.isClosed) return;
    const found = findings.map((f) => {
      const line = Math.min(Math.max(f.line - 1, 0), Math.max(doc.lineCount - 1, 0));
      const d = new vscode.Diagnostic(doc.lineAt(line).range, displayLine(f.message), SEVERITY[f.severity]);
      d.code = f.code;
      d.source = vscode.l10n.t("AutoDev response");
      return d;
    });
    this.diagnostics.set(doc.uri, found);
  }

  dispose(): void {
    this.asked.clear();
    for (const s of this.subscriptions) s.dispose();
    this.diagnostics.dispose();
  }
}
