/**
 * "AutoDev: Open Demo Workspace": generates the demo project (the same one
 * `npm run demo` opens: a plan in every status, retries, an escalation, a
 * blocked task, evidence of every kind, knowledge, a run waiting on a
 * delegation, agloop at its approval gate) under the extension's global storage
 * and opens it: in this window when it has no folder or only empty ones (nothing
 * to lose), else in a new one. Opening a folder restarts the extension host, so
 * the window that opens focuses the AutoDev view once on activation (a one-shot
 * flag in globalState naming the folder), as the walkthrough promises.
 */
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import * as vscode from "vscode";
import { CommandHandler } from "./commandManager";

/** globalState key (the extension's own store): the demo folder whose window shows the AutoDev view when it opens. */
const FOCUS_ON_OPEN = "demoWorkspace.focusViewOnOpen";
/** The command that shows the AutoDev view container (package.json `viewsContainers.activitybar` id `autodev`). */
const SHOW_AUTODEV_VIEW = "workbench.view.extension.autodev";

/** What the command needs of the extension context. */
type DemoContext = Pick<vscode.ExtensionContext, "globalStorageUri" | "globalState">;

/** True when this window has no folder, or only folders with nothing in them. */
async function windowIsEmpty(): Promise<boolean> {
  for (const f of vscode.workspace.workspaceFolders ?? []) {
    if (f.uri.scheme !== "file") return false;
    const entries = await vscode.workspace.fs.readDirectory(f.uri).then(
      (e) => e,
      () => ["?"],
    );
    if (entries.length > 0) return false;
  }
  return true;
}

/**
 * Runs the demo generator (dist/makeDemo.js, `node dist/makeDemo.js DIR`) in a worker thread of its
 * own: its writers never load on the extension host's thread, and the host bundle carries none of them.
 */
function generateDemo(folder: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const w = new Worker(path.join(__dirname, "makeDemo.js"), { argv: [folder], stdout: true, stderr: true });
    let said = "";
    w.stderr.on("data", (d: Buffer) => void (said = (said + d.toString("utf8")).slice(-2000)));
    w.on("error", reject);
    w.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(said.trim() || vscode.l10n.t("the demo generator stopped (exit code {0})", String(code)))),
    );
  });
}

/** The command's handler, writing under the extension's global storage folder; `log` gets its timings. */
export function demoWorkspaceHandlers(
  context: DemoContext,
  log: (message: string) => void,
): Record<string, CommandHandler> {
  return {
    "autodev.openDemoWorkspace": async () => {
      const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "");
      const folder = path.join(context.globalStorageUri.fsPath, "demo", `units-converter-${stamp}`);
      const t0 = performance.now();
      await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t("AutoDev: generating the demo workspace…"),
        },
        () => generateDemo(folder),
      );
      const reuse = await windowIsEmpty();
      log(
        `demo workspace generated in ${(performance.now() - t0).toFixed(0)} ms at ${folder}; opening it in ${reuse ? "this" : "a new"} window`,
      );
      await context.globalState.update(FOCUS_ON_OPEN, folder);
      await vscode.commands.executeCommand(
        "vscode.openFolder",
        vscode.Uri.file(folder),
        reuse ? { forceReuseWindow: true } : { forceNewWindow: true },
      );
    },
  };
}

/**
 * On activation: when this window is the demo folder the command just opened, shows the AutoDev
 * view (once; the flag is cleared first). Returns whether it did.
 */
export async function focusDemoViewOnce(context: DemoContext): Promise<boolean> {
  const folder = context.globalState.get<string>(FOCUS_ON_OPEN);
  if (!folder || !(vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.fsPath === folder)) return false;
  await context.globalState.update(FOCUS_ON_OPEN, undefined);
  await vscode.commands.executeCommand(SHOW_AUTODEV_VIEW);
  return true;
}
