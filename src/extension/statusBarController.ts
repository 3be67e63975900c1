/**
 * The status bar item: each source's part over its folders, in the order sources are registered
 * (`AutoDev 7/12 · ledger ok · agloop 2 errors`). The first part that says it is primary decides
 * the icon, the colour, the tooltip and the click (AutoDev: verify); with none, any error turns the
 * item red and a click opens Problems. Hidden when no folder has state.
 */
import * as vscode from "vscode";
import { SOURCE_MANIFESTS } from "../core/sources/manifestRegistry";
import { Disposable } from "./disposable";
import type { SourceAdapter, StatusPart } from "./sources/sourceAdapter";
import type { StateFolders } from "./sources/stateFolders";
import type { SettingsReader } from "./settings/settings";

/** The compact form: each part's compact text (what is not ok), joined. */
export function compactText(parts: readonly StatusPart[]): string {
  return parts
    .map((p) => (p.compact !== undefined ? p.compact : p.errors || p.warnings ? p.text : null))
    .filter((t): t is string => !!t)
    .join(" · ");
}

/** Keeps the status bar item in sync with every source. */
export class StatusBarController extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem("autodev.status", vscode.StatusBarAlignment.Left, 50),
  );

  constructor(
    private readonly folders: StateFolders,
    private readonly adapterOf: (kind: string) => SourceAdapter,
    private readonly settings: SettingsReader,
  ) {
    super();
    this.item.name = vscode.l10n.t("AutoDev State");
    this.register(folders.onDidChange(() => this.render()));
    this.register(
      vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration("autodev.statusBar") && this.render()),
    );
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
    for (const s of SOURCE_MANIFESTS) {
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
    const full = parts.map((p) => p.text).join(" · ");
    const compact = this.settings.compactStatusBar();
    const text = compact ? compactText(parts) : full;
    const errors = parts.reduce((n, p) => n + p.errors, 0);
    const warnings = parts.reduce((n, p) => n + (p.warnings ?? 0), 0);
    const primary = parts.find((p) => p.primary)?.primary;
    const colour = (error: boolean, warning: boolean) =>
      error
        ? new vscode.ThemeColor("statusBarItem.errorBackground")
        : warning
          ? new vscode.ThemeColor("statusBarItem.warningBackground")
          : undefined;
    // The compact text leaves out what is ok: the tooltip says it all.
    const whole = compact && text !== full ? `${full}\n\n` : "";
    if (primary) {
      this.item.text = `${primary.icon}${text ? ` ${text}` : ""}`;
      this.item.backgroundColor = colour(primary.error || errors > 0, primary.warning === true || warnings > 0);
      this.item.tooltip = whole + primary.tooltip;
      this.item.command = primary.command;
    } else {
      this.item.text = `${errors ? "$(warning)" : "$(checklist)"}${text ? ` ${text}` : ""}`;
      this.item.backgroundColor = colour(errors > 0, warnings > 0);
      this.item.tooltip =
        whole + vscode.l10n.t("State sources of this workspace and their problems. Click to open the Problems panel.");
      this.item.command = "workbench.actions.view.problems";
    }
    this.shown = true;
    this.item.show();
  }
}
