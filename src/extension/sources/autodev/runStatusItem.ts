/**
 * A second status bar item for the run: "$(sync~spin) AutoDev running" while another process
 * holds `.autodev/.lock` (it clears when the lock is released), else "$(debug-pause) Waiting on
 * reviewer for 2.3" while a run is suspended in inline mode; hidden otherwise. Click: the Plan view.
 */
import * as vscode from "vscode";
import { Disposable } from "../../disposable";
import type { AutodevRunStateView } from "./runStateView";

/** Keeps the run status item in sync with the run views. */
export class RunStatusItem extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem("autodev.run", vscode.StatusBarAlignment.Left, 49),
  );

  constructor(private readonly view: AutodevRunStateView) {
    super();
    this.item.name = vscode.l10n.t("AutoDev Run");
    this.item.command = { command: "workbench.view.extension.autodev", title: vscode.l10n.t("Show AutoDev") };
    this.register(view.onDidChange(() => this.render()));
    this.render();
  }

  /** The text shown, or null when hidden (for tests). */
  get text(): string | null {
    return this.shown ? this.item.text : null;
  }
  private shown = false;

  /** Recomputes the item from the folders' run views. */
  render(): void {
    const all = this.view.all;
    const multi = all.length > 1;
    const running = all.filter((x) => x.view.running === true);
    const waiting = all.filter((x) => x.view.waiting !== null);
    if (running.length) {
      this.item.text = `$(sync~spin) ${multi ? vscode.l10n.t("AutoDev running: {0}", running.map((x) => x.folder.folder.name).join(", ")) : vscode.l10n.t("AutoDev running")}`;
      this.item.tooltip = running.map((x) => `${x.folder.folder.name}: ${x.view.runningDetail}`).join("\n");
    } else if (waiting.length) {
      this.item.text = `$(debug-pause) ${waiting.map((x) => (multi ? `${x.folder.folder.name}: ` : "") + x.view.waiting).join(" · ")}`;
      this.item.tooltip = vscode.l10n.t(
        "AutoDev is suspended in inline mode until the agent writes its response; click to see the delegation.",
      );
    } else {
      this.shown = false;
      this.item.hide();
      return;
    }
    this.shown = true;
    this.item.show();
  }
}
