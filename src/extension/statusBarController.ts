/**
 * The status bar item: progress and integrity at a glance
 * (`AutoDev 7/12 · ledger ok`, `ledger broken at line 34`), then the problem
 * counts of the other state sources (`agloop 2 errors`); click → verify, or
 * the Problems panel when there is no AutoDev state.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./sources/autodev/autodevWorkspaces";
import { problemCountsText } from "./countText";
import { Disposable } from "./disposable";
import { isDone } from "./taskStatusStyle";
import { SourceWorkspaces } from "./sources/sourceWorkspaces";

/** Keeps the status bar item in sync with all AutoDev folders. */
export class StatusBarController extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem("autodev.status", vscode.StatusBarAlignment.Left, 50),
  );
  private progress: string | null = null;

  constructor(
    private readonly workspaces: AutodevWorkspaces,
    private readonly sources?: SourceWorkspaces,
  ) {
    super();
    this.item.name = vscode.l10n.t("AutoDev State");
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
      else if (!f.report.ok) {
        const line = f.report.errors[0]?.atLine ?? "?";
        broken.push(
          folders.length > 1 ? vscode.l10n.t("{0}: line {1}", f.folder.name, line) : vscode.l10n.t("line {0}", line),
        );
      }
      if (f.rewriteFinding) {
        broken.push(
          folders.length > 1
            ? vscode.l10n.t("{0}: history rewritten", f.folder.name)
            : vscode.l10n.t("history rewritten"),
        );
      }
      if (f.timeTravel) travel = true;
    }
    const integrity =
      this.progress ??
      (broken.length
        ? vscode.l10n.t("ledger broken at {0}", broken.join(", "))
        : verifying
          ? vscode.l10n.t("verifying…")
          : vscode.l10n.t("ledger ok"));
    const icon = broken.length ? "$(warning)" : this.progress || verifying ? "$(sync~spin)" : "$(checklist)";
    const parts = [
      vscode.l10n.t("AutoDev {0}/{1}", done, total),
      integrity,
      travel ? `$(history) ${vscode.l10n.t("time travel")}` : "",
      others?.text ?? "",
    ];
    this.item.text = `${icon} ${parts.filter(Boolean).join(" · ")}`;
    this.item.backgroundColor = broken.length ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.tooltip = broken.length
      ? vscode.l10n.t(
          "{0} of {1} tasks complete or skipped. The ledger failed verification. Click to verify the ledger again.",
          done,
          total,
        )
      : vscode.l10n.t(
          "{0} of {1} tasks complete or skipped. Ledger verified. Click to verify the ledger again.",
          done,
          total,
        );
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
    // "agloop 2 errors": the source's name (not translated) and its health.
    const parts = [...byKind.values()].map((k) =>
      vscode.l10n.t("{0} {1}", k.name, k.unread ? vscode.l10n.t("checking…") : problemCountsText(k.error, k.warning)),
    );
    return { text: parts.join(" · "), errors: [...byKind.values()].reduce((n, k) => n + k.error, 0) };
  }

  private renderOthersOnly(others: { text: string; errors: number }): void {
    this.item.text = `${others.errors ? "$(warning)" : "$(checklist)"} ${others.text}`;
    this.item.backgroundColor = others.errors ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.tooltip = vscode.l10n.t(
      "State sources of this workspace and their problems. Click to open the Problems panel.",
    );
    this.item.command = "workbench.actions.view.problems";
    this.item.show();
  }
}
