/**
 * The language-model tools (`contributes.languageModelTools`): `autodev_state_status`,
 * `autodev_state_check` and `autodev_state_task`, so an agent in agent mode answers "what is
 * AutoDev waiting on and why did 1.2 escalate?" from verified state instead of guessing at files.
 * Read-only, inputs validated with zod, answers capped (src/core/agentTools/agentAnswers.ts),
 * computed in the graph worker. Feature-detected: on a VS Code without `vscode.lm.registerTool`
 * nothing is registered and the rest of the extension runs as before.
 */
import * as vscode from "vscode";
import type { ZodType } from "zod";
import { FolderInputSchema, TaskInputSchema } from "../../core/agentTools/agentAnswers";
import type { GraphWorkerClient } from "../graph/graphWorkerClient";

/** The tools and the worker answer each maps to. */
const TOOLS: ReadonlyArray<{ name: string; tool: "status" | "check" | "task"; schema: ZodType; doing: () => string }> =
  [
    {
      name: "autodev_state_status",
      tool: "status",
      schema: FolderInputSchema,
      doing: () => vscode.l10n.t("Reading the agents' run state…"),
    },
    {
      name: "autodev_state_check",
      tool: "check",
      schema: FolderInputSchema,
      doing: () => vscode.l10n.t("Checking the agents' state folders…"),
    },
    {
      name: "autodev_state_task",
      tool: "task",
      schema: TaskInputSchema,
      doing: () => vscode.l10n.t("Reading one task's state…"),
    },
  ];

/** True when this VS Code has the language-model tools API. */
function hasLanguageModelTools(): boolean {
  const lm = (vscode as { lm?: { registerTool?: unknown } }).lm;
  return typeof lm?.registerTool === "function";
}

/** Registers the tools when the API exists; returns the names registered (none on an older VS Code). */
export function registerLanguageModelTools(context: vscode.ExtensionContext, client: GraphWorkerClient): string[] {
  if (!hasLanguageModelTools()) return [];
  const folders = () => (vscode.workspace.workspaceFolders ?? []).map((f) => ({ name: f.name, path: f.uri.fsPath }));
  for (const t of TOOLS) {
    const tool: vscode.LanguageModelTool<unknown> = {
      prepareInvocation: () => ({ invocationMessage: t.doing() }),
      invoke: async (options) => {
        const parsed = t.schema.safeParse(options.input ?? {});
        const text = parsed.success
          ? await client.tool(t.tool, folders(), parsed.data)
          : JSON.stringify({
              error: `invalid input: ${parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`,
            });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      },
    };
    context.subscriptions.push(vscode.lm.registerTool(t.name, tool));
  }
  return TOOLS.map((t) => t.name);
}
