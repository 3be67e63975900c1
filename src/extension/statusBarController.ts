/**
 * The status bar item: progress and integrity at a glance
 * (`AutoDev 7/12 · ledger ok`, `ledger broken at line 34`); click → verify.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { Disposable } from "./disposable";
import { isDone } from "./taskStatusStyle";

/** Keeps the status bar item in sync with all AutoDev folders. */
export class StatusBarController extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem("autodev.status", vscode.StatusBarAlignment.Left, 50));
  private progress: string | null = null;

  constructor(private readonly workspaces: AutodevWorkspaces) {
    super();
    this.item.name = "AutoDev State";
    this.item.command = "autodev.verify";
    this.register(workspaces.onDidChange(() => this.render()));
    this.render();
  }

  /** Shows scan progress (null clears it). */
  setProgress(text: string | null): void {
    this.progress = text;
    this.render();
  }

  /** Recomputes the text from the folders. */
  render(): void {
    const folders = this.workspaces.folders;
    if (folders.length === 0) {
      this.item.hide();
      return;
    }
    let done = 0;
    let total = 0;
    const broken: string[] = [];
    let verifying = false;
    let travel = false;
    for (const f of folders) {
      for (const p of f.live?.phases ?? []) for (const t of p.tasks) {
        total++;
        if (isDone(String(t.status))) done++;
      }
      if (f.report === null) verifying = true;
      else if (!f.report.ok) broken.push(folders.length > 1 ? `${f.folder.name}: line ${f.report.errors[0]?.atLine}` : `line ${f.report.errors[0]?.atLine}`);
      if (f.rewriteFinding) broken.push(`${folders.length > 1 ? f.folder.name + ": " : ""}history rewritten`);
      if (f.timeTravel) travel = true;
    }
    const integrity = this.progress ?? (broken.length ? `ledger broken at ${broken.join(", ")}` : verifying ? "verifying…" : "ledger ok");
    const icon = broken.length ? "$(warning)" : this.progress || verifying ? "$(sync~spin)" : "$(checklist)";
    this.item.text = `${icon} AutoDev ${done}/${total} · ${integrity}${travel ? " · $(history) time travel" : ""}`;
    this.item.backgroundColor = broken.length ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.tooltip = `${done} of ${total} tasks complete or skipped. ${broken.length ? "The ledger failed verification" : "Ledger verified"}. Click to verify the ledger again.`;
    this.item.show();
  }
}
