/**
 * The status bar item: progress and integrity at a glance
 * (`AutoDev 7/12 · ledger ok`, `ledger broken at line 34`), then the problem
 * counts of the other state sources (`agloop 2 errors`); click → verify, or
 * the Problems panel when there is no AutoDev state.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./sources/autodev/autodevWorkspaces";
import { Disposable } from "./disposable";
import { isDone } from "./taskStatusStyle";
import { SourceWorkspaces } from "./sources/sourceWorkspaces";

/** Keeps the status bar item in sync with all AutoDev folders. */
export class StatusBarController extends Disposable {
  private readonly item = this.register(vscode.window.createStatusBarItem("autodev.status", vscode.StatusBarAlignment.Left, 50));
  private progress: string | null = null;

  constructor(
    private readonly workspaces: AutodevWorkspaces,
    private readonly sources?: SourceWorkspaces,
  ) {
    super();
    this.item.name = "AutoDev State";
    this.item.command = "autodev.verify";
    this.register(workspaces.onDidChange(() => this.render()));
    if (sources) this.register(sources.onDidChange(() => this.render()));
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
    const others = this.sourcesText();
    if (folders.length === 0) {
      if (others === null) this.item.hide();
      else this.renderOthersOnly(others);
      return;
    }
    let done = 0;
    let total = 0;
    const broken: string[] = [];
    let verifying = false;
    let travel = false;
    for (const f of folders) {
      for (const t of (f.live?.phases ?? []).flatMap((p) => p.tasks)) {
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
    this.item.text = `${icon} AutoDev ${done}/${total} · ${integrity}${travel ? " · $(history) time travel" : ""}${others ? ` · ${others.text}` : ""}`;
    this.item.backgroundColor = broken.length ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.tooltip = `${done} of ${total} tasks complete or skipped. ${broken.length ? "The ledger failed verification" : "Ledger verified"}. Click to verify the ledger again.`;
    this.item.command = "autodev.verify";
    this.item.show();
  }

  /** `agloop 2 errors · engine_state ok` over the generic sources (null when there are none). */
  private sourcesText(): { text: string; errors: number } | null {
    const all = this.sources?.all ?? [];
    if (all.length === 0) return null;
    const byKind = new Map<string, { name: string; error: number; warning: number; unread: boolean }>();
    for (const s of all) {
      const c = s.counts;
      const slot = byKind.get(s.kind) ?? { name: s.displayName, error: 0, warning: 0, unread: false };
      slot.error += c.error + (s.error ? 1 : 0);
      slot.warning += c.warning;
      slot.unread ||= s.problems === null && !s.error;
      byKind.set(s.kind, slot);
    }
    const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;
    const parts = [...byKind.values()].map((k) => `${k.name} ${k.unread ? "checking…" : k.error + k.warning === 0 ? "ok" : [k.error ? plural(k.error, "error") : "", k.warning ? plural(k.warning, "warning") : ""].filter(Boolean).join(", ")}`);
    return { text: parts.join(" · "), errors: [...byKind.values()].reduce((n, k) => n + k.error, 0) };
  }

  private renderOthersOnly(others: { text: string; errors: number }): void {
    this.item.text = `${others.errors ? "$(warning)" : "$(checklist)"} ${others.text}`;
    this.item.backgroundColor = others.errors ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.tooltip = "State sources of this workspace and their problems. Click to open the Problems panel.";
    this.item.command = "workbench.actions.view.problems";
    this.item.show();
  }
}
