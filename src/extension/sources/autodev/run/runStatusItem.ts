/**
 * A second status bar item for the run: "$(sync~spin) AutoDev running" while another process
 * holds `.autodev/.lock` (it clears when the lock is released), else "$(debug-pause) Waiting on
 * reviewer for 2.3" while a run is suspended in inline mode; hidden otherwise. A click goes where
 * the tooltip says: the delegation the run waits on (`autodev.openDelegation`), or the AutoDev view.
 */
import * as vscode from "vscode";
import { Disposable } from "../../../disposable";
import type { AutodevRunView } from "../../../../core/sources/autodev/run/runView";
import type { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevRunStateView } from "./runStateView";

/** Keeps the run status item in sync with the run views. */
export class RunStatusItem extends Disposable {
  private readonly item = this.register(
    vscode.window.createStatusBarItem("autodev.run", vscode.StatusBarAlignment.Left, 49),
  );

  constructor(private readonly view: AutodevRunStateView) {
    super();
    this.item.name = vscode.l10n.t("AutoDev Run");
    this.register(view.onDidChange(() => this.render()));
    this.render();
  }

  /** The text shown, or null when hidden (for tests). */
  get text(): string | null {
    return this.shown ? this.item.text : null;
  }
  private shown = false;

  /** What a click runs and what the tooltip promises (for tests). */
  get click(): { command: vscode.Command | undefined; tooltip: string } {
    return { command: this.item.command as vscode.Command | undefined, tooltip: String(this.item.tooltip ?? "") };
  }

  /** Recomputes the item from the folders' run views. */
  render(): void {
    const all = this.view.all;
    const multi = all.length > 1;
    const running = all.filter((x) => x.view.running === true);
    const waiting = all.filter((x) => x.view.waiting !== null);
    if (running.length) {
      this.item.text = `$(sync~spin) ${runningText(running, multi)}`;
      this.item.tooltip = [
        ...running.map(
          (x) =>
            `${x.folder.folder.name}: ${x.view.runningActivity ? `${x.view.runningActivity}. ` : ""}${x.view.runningDetail}`,
        ),
        vscode.l10n.t("Click to show it in the AutoDev view."),
      ].join("\n");
      this.item.command = { command: "autodev.plan.focus", title: vscode.l10n.t("Show AutoDev") };
    } else if (waiting.length) {
      this.item.text = `$(debug-pause) ${waiting.map((x) => (multi ? `${x.folder.folder.name}: ` : "") + x.view.waiting).join(" · ")}`;
      this.item.tooltip =
        waiting.length === 1
          ? vscode.l10n.t(
              "AutoDev is suspended in inline mode until the agent writes its response; click to see the delegation.",
            )
          : vscode.l10n.t(
              "AutoDev is suspended in inline mode in {0} folders until their responses are written; click to choose a delegation.",
              waiting.length,
            );
      // One wait: its delegation; several: the command asks which folder's.
      this.item.command = {
        command: "autodev.openDelegation",
        title: vscode.l10n.t("Open Delegation"),
        arguments: waiting.length === 1 ? [waiting[0].folder.folder.uri.toString()] : [],
      };
    } else {
      this.shown = false;
      this.item.hide();
      return;
    }
    this.shown = true;
    this.item.show();
  }
}

/**
 * "AutoDev running: task 1.2 · reviewer" — what the one running AutoDev does, after its folder's name when
 * the workspace has several ("AutoDev running: api · task 1.2 · reviewer"); several running: their names.
 */
function runningText(running: ReadonlyArray<{ folder: AutodevFolder; view: AutodevRunView }>, multi: boolean): string {
  if (running.length > 1) {
    return vscode.l10n.t("AutoDev running: {0}", running.map((x) => x.folder.folder.name).join(", "));
  }
  const [{ folder, view }] = running;
  const what = [multi ? folder.folder.name : "", view.runningActivity ?? ""].filter(Boolean).join(" · ");
  return what ? vscode.l10n.t("AutoDev running: {0}", what) : vscode.l10n.t("AutoDev running");
}
