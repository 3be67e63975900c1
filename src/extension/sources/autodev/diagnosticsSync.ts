/**
 * Keeps Problems in sync with each folder's integrity report and history
 * warnings (missing evidence, plan.json drift), recomputed after changes.
 */
import * as vscode from "vscode";
import { planPath } from "../../../core/sources/autodev/autodevPaths";
import { AutodevFolder } from "./autodevFolder";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { Disposable } from "../../disposable";
import { LedgerDiagnostics } from "./ledgerDiagnostics";
import { LedgerWorkerClient } from "../../ledgerWorkerClient";
import { Settings } from "../../settings";

/** Pushes findings of every folder into the diagnostics collection. */
export class DiagnosticsSync extends Disposable {
  private readonly pending = new Map<AutodevFolder, NodeJS.Timeout>();

  constructor(
    workspaces: AutodevWorkspaces,
    private readonly worker: LedgerWorkerClient,
    private readonly diagnostics: LedgerDiagnostics,
    private readonly settings: Settings,
  ) {
    super();
    this.register(
      workspaces.onDidChange((f) => (f ? this.schedule(f) : workspaces.folders.forEach((x) => this.schedule(x)))),
    );
  }

  private schedule(f: AutodevFolder): void {
    clearTimeout(this.pending.get(f));
    this.pending.set(
      f,
      setTimeout(() => void this.update(f), 100),
    );
  }

  /** Recomputes the diagnostics of one folder now. */
  async update(f: AutodevFolder): Promise<void> {
    this.pending.delete(f);
    const ledger = vscode.Uri.file(f.ledgerFile);
    const planUri = vscode.Uri.file(planPath(f.cwd));
    if (!f.report) return;
    let history: Awaited<ReturnType<typeof this.historyOf>> = [];
    if (this.settings.historyWarnings && f.report.ok) history = await this.historyOf(f);
    const extra = history.map((w) => ({ uri: w.kind.startsWith("plan_json") ? planUri : ledger, warning: w }));
    this.diagnostics.clear(planUri);
    this.diagnostics.set(
      ledger,
      f.report,
      extra.filter((x) => x.uri !== ledger),
      this.settings.historyWarnings,
    );
    const onLedger = extra.filter((x) => x.uri === ledger);
    if (onLedger.length) {
      this.diagnostics.set(
        ledger,
        { ...f.report, warnings: [...f.report.warnings, ...onLedger.map((x) => x.warning)] },
        extra.filter((x) => x.uri !== ledger),
        this.settings.historyWarnings,
      );
    }
  }

  private historyOf(f: AutodevFolder) {
    return this.worker.request({ type: "historyWarnings", cwd: f.cwd }).catch(() => []);
  }

  override dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    super.dispose();
  }
}
