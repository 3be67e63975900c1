/**
 * Problems of the AutoDev run state (config.json errors at the key's line, an invalid pending
 * response, spec drift, leftover tournament worktrees, skipped lessons) in their own
 * DiagnosticCollection, replaced whenever a folder's run state is read again.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { Disposable } from "../../disposable";
import { problemDiagnostic } from "../sourceDiagnostics";
import type { AutodevRunStateView } from "./runStateView";

/** Keeps the `autodev-run` diagnostics in sync with the run views. */
export class RunStateDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection("autodev-run"));
  private readonly filesOf = new Map<string, vscode.Uri[]>();

  constructor(private readonly view: AutodevRunStateView) {
    super();
    this.register(view.onDidChange(() => this.sync()));
  }

  /** The diagnostics shown for `uri`. */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  private sync(): void {
    const live = new Set<string>();
    for (const { folder, view } of this.view.all) {
      live.add(folder.cwd);
      for (const uri of this.filesOf.get(folder.cwd) ?? []) this.collection.delete(uri);
      const byFile = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
      for (const p of view.problems) {
        const abs = path.resolve(folder.cwd, p.file);
        const rel = path.relative(folder.cwd, abs);
        if (rel.startsWith("..") || path.isAbsolute(rel)) continue;
        const uri = vscode.Uri.file(abs);
        const slot = byFile.get(uri.toString()) ?? { uri, diags: [] };
        slot.diags.push(problemDiagnostic(p, "AutoDev"));
        byFile.set(uri.toString(), slot);
      }
      for (const { uri, diags } of byFile.values()) this.collection.set(uri, diags);
      this.filesOf.set(
        folder.cwd,
        [...byFile.values()].map((x) => x.uri),
      );
    }
    for (const [cwd, uris] of this.filesOf) {
      if (live.has(cwd)) continue;
      for (const uri of uris) this.collection.delete(uri);
      this.filesOf.delete(cwd);
    }
  }
}
