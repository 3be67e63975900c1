/**
 * The status bar item: each source's part over its folders, in the order sources are registered
 * (`AutoDev 7/12 · ledger ok · agloop 2 errors`). The first part that says it is primary decides
 * the icon, the colour, the tooltip and the click (AutoDev: verify); with none, any error turns the
 * item red and a click opens Problems. Hidden when no folder has state.
 */
import * as vscode from "vscode";
import { STATE_SOURCES } from "../core/sources/sourceRegistry";
import { Disposable } from "./disposable";
import type { SourceAdapter, StatusPart } from "./sources/sourceAdapter";
import type { StateFolders } from "./sources/stateFolders";

/** Keeps the status bar item in sync with every source. */
export class StatusBarController extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem("autodev.status", vscode.StatusBarAlignment.Left, 50),
  );

  constructor(
    private readonly folders: StateFolders,
    private readonly adapterOf: (kind: string) => SourceAdapter,
  ) {
    super();
    this.item.name = vscode.l10n.t("AutoDev State");
    this.register(folders.onDidChange(() => this.render()));
    this.render();
  }

  /** The text shown, or null when hidden (for tests). */
  get text(): string | null {
    return this.shown ? this.item.text : null;
  }
  private shown = false;

  /** Recomputes the item from every source's part. */
  render(): void {
    const parts: StatusPart[] = [];
    for (const s of STATE_SOURCES) {
      const folders = this.folders.ofKind(s.kind);
      if (folders.length === 0) continue;
      const part = this.adapterOf(s.kind).status?.(folders);
      if (part) parts.push(part);
    }
    if (parts.length === 0) {
      this.shown = false;
      this.item.hide();
      return;
    }
    const text = parts.map((p) => p.text).join(" · ");
    const primary = parts.find((p) => p.primary)?.primary;
    if (primary) {
      this.item.text = `${primary.icon} ${text}`;
      this.item.backgroundColor = primary.error ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
      this.item.tooltip = primary.tooltip;
      this.item.command = primary.command;
    } else {
      const errors = parts.reduce((n, p) => n + p.errors, 0);
      this.item.text = `${errors ? "$(warning)" : "$(checklist)"} ${text}`;
      this.item.backgroundColor = errors ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
      this.item.tooltip = vscode.l10n.t(
        "State sources of this workspace and their problems. Click to open the Problems panel.",
      );
      this.item.command = "workbench.actions.view.problems";
    }
    this.shown = true;
    this.item.show();
  }
}
