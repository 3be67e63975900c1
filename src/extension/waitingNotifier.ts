/**
 * "The run that waits on you", for every source: the state view's badge counts the runs that wait
 * on a person across all folders (`StateFolders.waiting`, each folder's `WaitingOn`), and a new
 * wait gets a notification with the buttons its source offers (`WaitingOn.actions`), as the
 * setting `autodev.notifyWhenWaiting` says: `off`, `windowNotFocused` (the default, like VS Code's
 * own `chat.notifyWindowOnConfirmation`: only when the window is not focused) or `always`. A wait
 * is notified once; it counts as new again after it ended. Names no source.
 */
import * as vscode from "vscode";
import type { SettingsReader } from "./settings/settings";
import type { SourceFolder, StateNode, WaitingOn } from "./sources/sourceAdapter";
import type { StateFolders } from "./sources/stateFolders";

/** A notification shown (kept for tests and the output log). */
export interface WaitNotice {
  readonly message: string;
  readonly actions: readonly string[];
}

/** Keeps the badge and the notifications in step with the folders' waits. */
export class WaitingNotifier implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[] = [];
  private seen = new Set<string>();
  /** Every notification shown, oldest first. */
  readonly notices: WaitNotice[] = [];

  constructor(
    private readonly folders: StateFolders,
    private readonly view: vscode.TreeView<StateNode>,
    private readonly settings: SettingsReader,
  ) {
    this.subscriptions.push(folders.onDidChange(() => this.update()));
    this.update();
  }

  /** The badge's count and the notifications of new waits. */
  update(): void {
    const waits = this.folders.waiting;
    this.view.badge = waits.length
      ? {
          value: waits.length,
          tooltip:
            waits.length === 1
              ? vscode.l10n.t("1 run waits on you")
              : vscode.l10n.t("{0} runs wait on you", waits.length),
        }
      : undefined;
    const now = new Set<string>();
    for (const { folder, waiting } of waits) {
      const key = `${folder.key}|${waiting.what}`;
      now.add(key);
      if (!this.seen.has(key)) this.notify(folder, waiting);
    }
    this.seen = now;
  }

  private notify(folder: SourceFolder, w: WaitingOn): void {
    const mode = this.settings.notifyWhenWaiting();
    if (mode === "off" || (mode === "windowNotFocused" && vscode.window.state.focused)) return;
    const multi = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const message = w.taskId
      ? vscode.l10n.t("{0} is waiting on {1} for task {2}", folder.displayName, w.who, w.taskId)
      : vscode.l10n.t("{0} is waiting on {1}", folder.displayName, w.who);
    const text = multi ? `${folder.folder.name}: ${message}` : message;
    const actions = w.actions ?? [];
    this.notices.push({ message: text, actions: actions.map((a) => a.title) });
    void vscode.window.showInformationMessage(text, ...actions.map((a) => a.title)).then((picked) => {
      const action = actions.find((a) => a.title === picked);
      if (action) void vscode.commands.executeCommand(action.command, ...(action.arguments ?? []));
    });
  }

  dispose(): void {
    for (const d of this.subscriptions) d.dispose();
  }
}
