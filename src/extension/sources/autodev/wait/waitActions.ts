/**
 * The buttons of an AutoDev run's wait (`WaitingOn.actions`, which the waiting notification
 * offers): the three commands of waitCommands.ts, addressed to one workspace folder by its URI.
 */
import * as vscode from "vscode";
import type { WaitingOn } from "../../sourceAdapter";

/** The buttons a wait's notification offers, for `folder`. */
export function waitActions(folder: vscode.WorkspaceFolder): NonNullable<WaitingOn["actions"]> {
  const arg = [folder.uri.toString()];
  return [
    { title: vscode.l10n.t("Open Delegation"), command: "autodev.openDelegation", arguments: arg },
    { title: vscode.l10n.t("Create Response"), command: "autodev.createResponse", arguments: arg },
    { title: vscode.l10n.t("Resume"), command: "autodev.resumeRun", arguments: arg },
  ];
}
