/**
 * What a person does when an AutoDev run waits on them in inline mode: read the delegation
 * (`autodev.openDelegation`, a read-only Markdown preview), write the answer
 * (`autodev.createResponse`: the file at the exact path `autodev resume` reads,
 * `.autodev/responses/{task}-{role}.json`, pre-filled for the role from `InlineResponseFile`;
 * an existing file is opened, never overwritten) and go on (`autodev.resumeRun`: `autodev
 * resume` in an integrated terminal in that folder, visible, the command from the setting
 * `autodev.autodevCommand`). The last two write or run, so only in a trusted workspace. Resume
 * Run first reads the run state again in the worker and refuses, with the reason and a button
 * to the file, while the awaited response is missing, still the template or fails AutoDev's rules
 * (resumeGate.ts), or is open with unsaved changes (AutoDev reads the file on disk).
 */
import * as vscode from "vscode";
import { delegationRel, responseRel } from "../../../../core/sources/autodev/inline/inlinePaths";
import type { CommandHandler } from "../../../commandManager";
import type { SettingsReader } from "../../../settings/settings";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { autodevRequest } from "../autodevRequest";
import type { AutodevFolder } from "../folder/autodevFolder";
import type { FolderPicker } from "../folder/folderPicker";

/** The terminals `autodev.resumeRun` opened (tests read them). */
export const resumeTerminals: vscode.Terminal[] = [];
/** The reasons `autodev.resumeRun` refused for (tests read them). */
export const resumeRefusals: string[] = [];

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

/**
 * Refuses Resume Run in `f` (true) while the run state, read afresh in the worker, says `autodev
 * resume` must not run yet, or the awaited response is open with unsaved changes; the warning has a
 * button that opens the file to fix (or creates the response when there is none).
 */
async function refuseResume(f: AutodevFolder, worker: StateWorkerClient): Promise<boolean> {
  const view = await autodevRequest(worker, f.cwd, { type: "runView", probeOnly: false });
  const w = view.waitingOn;
  const rel = w ? responseRel(w.taskId, w.who) : null;
  const uri = rel ? vscode.Uri.joinPath(f.folder.uri, ...rel.split("/")) : null;
  const unsaved =
    uri !== null && vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === uri.toString());
  const refusal =
    unsaved && rel
      ? {
          reason: vscode.l10n.t(
            "{0} has unsaved changes and AutoDev reads the file on disk: save it, then Resume Run.",
            rel,
          ),
          file: rel,
          line: null,
        }
      : view.resumeRefusal;
  if (!refusal) return false;
  const create = vscode.l10n.t("Create Response");
  const open = vscode.l10n.t("Open {0}", refusal.file.slice(refusal.file.lastIndexOf("/") + 1));
  const action = refusal.file === rel ? open : create;
  resumeRefusals.push(refusal.reason);
  void vscode.window
    .showWarningMessage(vscode.l10n.t("AutoDev: Resume Run did not run autodev resume. {0}", refusal.reason), action)
    .then(async (pick) => {
      if (pick === create) {
        await vscode.commands.executeCommand("autodev.createResponse", f.folder.uri.toString());
      } else if (pick === open) {
        const line = Math.max((refusal.line ?? 1) - 1, 0);
        await vscode.window.showTextDocument(vscode.Uri.joinPath(f.folder.uri, ...refusal.file.split("/")), {
          selection: new vscode.Range(line, 0, line, 0),
        });
      }
    });
  return true;
}

/** The commands' handlers. */
export function waitCommandHandlers(
  picker: FolderPicker,
  settings: SettingsReader,
  worker: StateWorkerClient,
): Record<string, CommandHandler> {
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
      // Written by the state worker (the host does no file I/O).
      const made = await autodevRequest(worker, f.cwd, { type: "createResponse", taskId: p.taskId, role: p.role });
      if (made.kind === "refused") {
        void vscode.window.showErrorMessage(vscode.l10n.t("AutoDev: {0}", made.message));
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
      if (!f || (await refuseResume(f, worker))) return;
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
