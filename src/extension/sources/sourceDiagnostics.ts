/**
 * Problems of every source in one DiagnosticCollection: each {@link FolderProblem} at its file and
 * line, with its code, its origin (the source's name unless it says otherwise) and its related
 * places. A source's diagnostics are replaced whenever it changes and go when it goes; nothing
 * outside its workspace folder is ever pointed at.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { ProblemSeverity } from "../../core/sources/stateSource";
import { displayLine } from "../../core/text/displayText";
import { Disposable } from "../disposable";
import type { FolderProblem, SourceFolder } from "./sourceAdapter";
import type { StateFolders } from "./stateFolders";
import { isInside } from "../../core/fs/pathInside";

const SEVERITY: Record<ProblemSeverity, vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** `file` (relative to `cwd`) as a URI, or null when it points outside the folder. */
function inside(cwd: string, file: string): vscode.Uri | null {
  const abs = path.resolve(cwd, file);
  return isInside(cwd, abs) ? vscode.Uri.file(abs) : null;
}

/** The diagnostic of one problem of `folder`. */
function problemDiagnostic(p: FolderProblem, folder: SourceFolder): vscode.Diagnostic {
  const line = Math.max(0, (p.line ?? 1) - 1);
  const col = Math.max(0, (p.column ?? 1) - 1);
  const d = new vscode.Diagnostic(
    new vscode.Range(line, p.column ? col : 0, line, Number.MAX_SAFE_INTEGER),
    displayLine(p.message),
    SEVERITY[p.severity],
  );
  d.source = p.origin ?? folder.displayName;
  d.code = p.code;
  const related = (p.related ?? []).flatMap((r) => {
    const uri = inside(folder.cwd, r.file);
    if (!uri) return [];
    const at = Math.max(0, r.line - 1);
    return [
      new vscode.DiagnosticRelatedInformation(
        new vscode.Location(uri, new vscode.Range(at, 0, at, 0)),
        displayLine(r.message),
      ),
    ];
  });
  if (related.length) d.relatedInformation = related;
  return d;
}

/** Keeps the `autodev` diagnostics in sync with every source's problems. */
export class StateDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection("autodev"));
  private readonly filesOf = new Map<string, vscode.Uri[]>();

  constructor(private readonly folders: StateFolders) {
    super();
    this.register(folders.onDidChange((s) => (s ? this.update(s) : this.syncAll())));
  }

  /** The diagnostics shown for `uri`. */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private syncAll(): void {
    const live = new Set(this.folders.all.map((s) => s.key));
    for (const key of [...this.filesOf.keys()]) if (!live.has(key)) this.clear(key);
    for (const s of this.folders.all) this.update(s);
  }

  private clear(key: string): void {
    for (const uri of this.filesOf.get(key) ?? []) this.collection.delete(uri);
    this.filesOf.delete(key);
  }

  /** Replaces one source's diagnostics (kept as they are while it has not been read yet). */
  update(folder: SourceFolder): void {
    const problems = folder.problems;
    if (problems === null) return;
    this.clear(folder.key);
    const byFile = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
    for (const p of problems) {
      const uri = inside(folder.cwd, p.file);
      if (!uri) continue;
      const slot = byFile.get(uri.toString()) ?? { uri, diags: [] };
      slot.diags.push(problemDiagnostic(p, folder));
      byFile.set(uri.toString(), slot);
    }
    for (const { uri, diags } of byFile.values()) this.collection.set(uri, diags);
    this.filesOf.set(
      folder.key,
      [...byFile.values()].map((x) => x.uri),
    );
  }
}
