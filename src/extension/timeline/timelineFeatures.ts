/**
 * Registers the ledger timeline: the panel (and its serializer, so it comes
 * back after a reload), the sidebar view, the commands that open them, and
 * the link from the state tree's selection to every open timeline.
 */
import * as vscode from "vscode";
import type { CommandManager } from "../commandManager";
import type { StateNode } from "../sources/sourceAdapter";
import { TimelineController, TimelineIntent } from "./timelineController";
import { TIMELINE_VIEW_TYPE } from "./timelineHtml";
import type { TimelineServices } from "./timelineServices";
import { TimelinePanel } from "./timelinePanel";
import { TIMELINE_VIEW_ID, TimelineViewProvider } from "./timelineViewProvider";

/** What `autodev.showTimeline` / `autodev.showTaskInTimeline` ask for: a tree node, or a key or folder URI (and a seq or task id). */
function intentOf(services: TimelineServices, arg: unknown, extra: unknown): TimelineIntent {
  if (arg && typeof arg === "object" && "id" in arg && "kind" in arg) {
    const node = arg as StateNode;
    const task = services.tree.taskOf(node);
    if (task) return { sourceKey: task.folder.key, taskId: task.taskId };
    const folder = services.tree.folderOf(node);
    if (folder) return { sourceKey: folder.key };
  }
  const sourceKey = typeof arg === "string" ? arg : undefined;
  if (typeof extra === "number" && Number.isSafeInteger(extra) && extra > 0) return { sourceKey, rowId: extra };
  if (typeof extra === "string" && extra.length > 0) return { sourceKey, taskId: extra };
  return { sourceKey };
}

/** Registers the timeline panel/view and its commands; returns the panel owner (tests use it). */
export function registerTimelineFeatures(
  context: vscode.ExtensionContext,
  services: TimelineServices,
  commands: CommandManager,
): TimelinePanel {
  const panel = new TimelinePanel(context.extensionUri, services);
  const view = new TimelineViewProvider(context.extensionUri, services);
  context.subscriptions.push(
    panel,
    view,
    vscode.window.registerWebviewViewProvider(TIMELINE_VIEW_ID, view),
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: async (webviewPanel: vscode.WebviewPanel) => void panel.restore(webviewPanel),
    }),
  );
  const controllers = (): TimelineController[] =>
    [panel.controller, view.controller].filter((c): c is TimelineController => c !== null);
  context.subscriptions.push(
    services.treeView.onDidChangeSelection((e) => {
      const node = e.selection[0];
      const task = node ? services.tree.taskOf(node) : null;
      if (!task) return;
      for (const c of controllers()) c.treeSelectedTask(task.folder.key, task.taskId);
    }),
  );
  commands.registerAll({
    "autodev.showTimeline": (arg, extra) => panel.show(intentOf(services, arg, extra)),
    "autodev.showTaskInTimeline": (arg, extra) => {
      const intent = intentOf(services, arg, extra);
      if (!intent.taskId) {
        throw new Error(vscode.l10n.t("Show Task in Timeline needs a task (run it from a task in the Plan view)."));
      }
      return panel.show(intent);
    },
  });
  return panel;
}
