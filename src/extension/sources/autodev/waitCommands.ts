/**
 * What a person does when an AutoDev run waits on them in inline mode: read the delegation
 * (`autodev.openDelegation`, a read-only Markdown preview), write the answer
 * (`autodev.createResponse`: the file at the exact path `autodev resume` reads,
 * `.autodev/responses/{task}-{role}.json`, pre-filled for the role from `InlineResponseFile`;
 * an existing file is opened, never overwritten) and go on (`autodev.resumeRun`: `autodev
 * resume` in an integrated terminal in that folder, visible, the command from the setting
 * `autodev.autodevCommand`). The last two write or run, so only in a trusted workspace.
 */
import * as vscode from "vscode";
import { WriteRefusedError } from "../../../core/errors";
import { delegationRel, responseRel } from "../../../core/sources/autodev/inline/inlineSchemas";
import { createResponseFile, type CreatedResponse } from "../../../core/sources/autodev/inline/responseCreate";
import type { CommandHandler } from "../../commandManager";
import type { SettingsReader } from "../../settings";
import type { AutodevFolder } from "./autodevFolder";
import type { FolderPicker } from "./folderPicker";

/** The terminals `autodev.resumeRun` opened (tests read them). */
export const resumeTerminals: vscode.Terminal[] = [];

function trusted(): boolean {
  if (vscode.workspace.isTrusted) return true;
  void vscode.window.showWarningMessage(
    vscode.l10n.t("AutoDev: this workspace is not trusted; nothing is written or run."),
  );
  return false;
}

/** The folder's pending step, or a message saying nobody waits. */
function pendingOf(f: AutodevFolder): { taskId: string; role: string } | null {
  const w = f.waiting;
  if (w?.taskId) return { taskId: w.taskId, role: w.who };
  void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev in {0} is not waiting on anyone.", f.folder.name));
  return null;
}

/** The commands' handlers. */
export function waitCommandHandlers(picker: FolderPicker, settings: SettingsReader): Record<string, CommandHandler> {
  return {
    "autodev.openDelegation": async (arg?: unknown) => {
      const f = await picker.pick(arg, (x) => x.waiting !== null);
      const p = f && pendingOf(f);
      if (!f || !p) return;
      const uri = vscode.Uri.joinPath(f.folder.uri, ...delegationRel(p.taskId, p.role).split("/"));
      await vscode.commands.executeCommand("markdown.showPreview", uri);
    },
    "autodev.createResponse": async (arg?: unknown) => {
      if (!trusted()) return;
      const f = await picker.pick(arg);
      const p = f && pendingOf(f);
      if (!f || !p) return;
      let made: CreatedResponse;
      try {
        made = await createResponseFile(f.cwd, p.taskId, p.role);
      } catch (e) {
        if (!(e instanceof WriteRefusedError)) throw e;
        void vscode.window.showErrorMessage(vscode.l10n.t("AutoDev: {0}", e.message));
        return;
      }
      if (made.kind === "exists") {
        void vscode.window.showInformationMessage(
          vscode.l10n.t("AutoDev: {0} already exists; it was opened, not overwritten.", responseRel(p.taskId, p.role)),
        );
      }
      await vscode.window.showTextDocument(vscode.Uri.file(made.file));
    },
    "autodev.resumeRun": async (arg?: unknown) => {
      if (!trusted()) return;
      const f = await picker.pick(arg);
      if (!f) return;
      const terminal = vscode.window.createTerminal({
        name: vscode.l10n.t("AutoDev resume ({0})", f.folder.name),
        cwd: f.folder.uri,
      });
      resumeTerminals.push(terminal);
      terminal.show();
      terminal.sendText(`${settings.autodevCommand(f.folder)} resume`);
    },
  };
}
