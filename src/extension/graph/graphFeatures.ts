/**
 * Registers the plan graph — the `autodev.showGraph` command (the Plan view's title bar, a folder's
 * context menu, the palette, a keybinding) and the panel it opens — "Export Run Report" and the
 * language-model tools; each a request of the state worker (its line limit and the sources' settings). A folder comes from the tree
 * node the command was invoked on, or the panel's last folder, or the first one.
 */
import * as vscode from "vscode";
import type { CommandManager } from "../commandManager";
import { GraphPanel, GraphPanelServices, type ViewClient } from "./graphPanel";
import { exportRunReport, reportTargetOf } from "./runReportCommand";
import { registerLanguageModelTools } from "../agentTools/languageModelTools";

/** The workspace folder a command argument names (a tree node, a Uri, a folder, a URI string), or undefined. */
function folderOfArg(arg: unknown): vscode.WorkspaceFolder | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const byUri = (u: unknown) =>
    u instanceof vscode.Uri || typeof u === "string"
      ? folders.find((f) => f.uri.toString() === u.toString())
      : undefined;
  const o = arg as
    | { folder?: { folder?: { uri?: unknown }; uri?: unknown }; state?: { folder?: { uri?: unknown } }; uri?: unknown }
    | undefined;
  return (
    byUri(arg) ??
    byUri(o?.folder?.folder?.uri) ??
    byUri(o?.state?.folder?.uri) ??
    byUri(o?.folder?.uri) ??
    byUri(o?.uri)
  );
}

/** Registers the graph command and returns the panel (tests drive it). */
export function registerGraphFeatures(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  services: GraphPanelServices,
  client: ViewClient,
): GraphPanel {
  const panel = new GraphPanel(context.extensionUri, services, client);
  commands.registerAll({
    "autodev.showGraph": (arg: unknown, select?: unknown) => {
      const s = select as { kind?: unknown; taskId?: unknown } | undefined;
      const pick =
        typeof s?.kind === "string" && typeof s.taskId === "string" ? { kind: s.kind, taskId: s.taskId } : undefined;
      panel.show(folderOfArg(arg), pick);
    },
    "autodev.exportRunReport": (arg: unknown, to?: unknown) =>
      exportRunReport(client, folderOfArg(arg), services.reviewMarksOf, reportTargetOf(to), services.settingsOf),
  });
  context.subscriptions.push(panel);
  registerLanguageModelTools(context, client);
  return panel;
}
