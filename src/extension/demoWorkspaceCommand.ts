/**
 * "AutoDev: Open Demo Workspace": generates the demo project (the same one
 * `npm run demo` opens: a plan in every status, retries, an escalation, a
 * blocked task, evidence of every kind) under the extension's global storage
 * and opens it in a new window. The walkthrough's first step and the empty
 * Plan view link to it, so a new user sees a full `.autodev/` in one click.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { createDemoWorkspace } from "../sample/demoWorkspace";
import { CommandHandler } from "./commandManager";

/** The command's handler, writing under `storage` (the extension's global storage folder). */
export function demoWorkspaceHandlers(storage: vscode.Uri): Record<string, CommandHandler> {
  return {
    "autodev.openDemoWorkspace": async () => {
      const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
      const folder = path.join(storage.fsPath, "demo", `units-converter-${stamp}`);
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t("AutoDev: generating the demo workspace…"),
        },
        async () => {
          await fs.promises.mkdir(folder, { recursive: true });
          await createDemoWorkspace(folder);
        },
      );
      await vscode.commands.executeCommand("vscode.openFolder", vscode.Uri.file(folder), { forceNewWindow: true });
    },
  };
}
