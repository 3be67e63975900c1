/**
 * The language-model tools (`contributes.languageModelTools`): `autodev_state_status`,
 * `autodev_state_check` and `autodev_state_task`, so an agent in agent mode answers "what is
 * AutoDev waiting on and why did 1.2 escalate?" from verified state instead of guessing at files.
 * Read-only, inputs validated with zod and answers capped in the state worker
 * (src/core/worker/viewRequests.ts, src/core/agentTools/agentAnswers.ts). Feature-detected: on a VS Code without `vscode.lm.registerTool`
 * nothing is registered and the rest of the extension runs as before.
 */
import * as vscode from "vscode";
import type { AgentTool } from "../../core/worker/workerProtocol";
import type { ViewClient } from "../graph/graphPanel";

/** The tools and the worker answer each maps to. */
const TOOLS: ReadonlyArray<{ name: string; tool: AgentTool; doing: () => string }> = [
  {
    name: "autodev_state_status",
    tool: "status",
    doing: () => vscode.l10n.t("Reading the agents' run state…"),
  },
  {
    name: "autodev_state_check",
    tool: "check",
    doing: () => vscode.l10n.t("Checking the agents' state folders…"),
  },
  {
    name: "autodev_state_task",
    tool: "task",
    doing: () => vscode.l10n.t("Reading one task's state…"),
  },
];

/** True when this VS Code has the language-model tools API. */
function hasLanguageModelTools(): boolean {
  const lm = (vscode as { lm?: { registerTool?: unknown } }).lm;
  return typeof lm?.registerTool === "function";
}

/** Registers the tools when the API exists; returns the names registered (none on an older VS Code). */
export function registerLanguageModelTools(context: vscode.ExtensionContext, client: ViewClient): string[] {
  if (!hasLanguageModelTools()) return [];
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath }));
  for (const t of TOOLS) {
    const tool: vscode.LanguageModelTool<unknown> = {
      prepareInvocation: () => ({ invocationMessage: t.doing() }),
      invoke: async (options) => {
        const all = folders();
        const text = await client.request({
          type: "tool",
          cwd: all[0]?.path ?? "",
          tool: t.tool,
          folders: all,
          input: options.input ?? {},
        });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      },
    };
    context.subscriptions.push(vscode.lm.registerTool(t.name, tool));
  }
  return TOOLS.map((t) => t.name);
}
