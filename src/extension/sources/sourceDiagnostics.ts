/**
 * Problems of every generic source in one DiagnosticCollection: each
 * {@link SourceProblem} at its file and line, with its code and the source's
 * name; a source's old diagnostics go when it is re-read or removed.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { ProblemSeverity, SourceProblem } from "../../core/sources/stateSource";
import { Disposable } from "../disposable";
import type { SourceFolderState } from "./sourceFolderState";
import type { SourceWorkspaces } from "./sourceWorkspaces";
import { displayMessage } from "../../core/text/displayText";

const SEVERITY: Record<ProblemSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** The diagnostic of one problem. */
export function problemDiagnostic(p: SourceProblem, sourceName: string): vscode.Diagnostic {
  const line = Math.max(0, (p.line ?? 1) - 1);
  const col = Math.max(0, (p.column ?? 1) - 1);
  const d = new vscode.Diagnostic(
    new vscode.Range(line, p.column ? col : 0, line, Number.MAX_SAFE_INTEGER),
    displayMessage(p.message),
    SEVERITY[p.severity],
  );
  d.source = sourceName;
  d.code = p.code;
  return d;
}

/** Keeps the `autodev-sources` diagnostics in sync with the sources' problems. */
export class SourceDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection("autodev-sources"));
  private readonly filesOf = new Map<string, vscode.Uri[]>();

  constructor(private readonly sources: SourceWorkspaces) {
    super();
    this.register(sources.onDidChange((s) => (s ? this.update(s) : this.syncAll())));
  }

  /** The diagnostics shown for `uri`. */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private syncAll(): void {
    const live = new Set(this.sources.all.map((s) => s.key));
    for (const key of [...this.filesOf.keys()]) if (!live.has(key)) this.clear(key);
    for (const s of this.sources.all) this.update(s);
  }

  private clear(key: string): void {
    for (const uri of this.filesOf.get(key) ?? []) this.collection.delete(uri);
    this.filesOf.delete(key);
  }

  /** Replaces one source's diagnostics. */
  update(state: SourceFolderState): void {
    if (state.problems === null) return;
    this.clear(state.key);
    const byFile = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
    for (const p of state.problems) {
      const abs = path.resolve(state.cwd, p.file);
      const rel = path.relative(state.cwd, abs);
      if (rel.startsWith("..") || path.isAbsolute(rel)) continue; // never point outside the folder
      const uri = vscode.Uri.file(abs);
      const slot = byFile.get(uri.toString()) ?? { uri, diags: [] };
      slot.diags.push(problemDiagnostic(p, state.displayName));
      byFile.set(uri.toString(), slot);
    }
    for (const { uri, diags } of byFile.values()) this.collection.set(uri, diags);
    this.filesOf.set(
      state.key,
      [...byFile.values()].map((x) => x.uri),
    );
  }
}
