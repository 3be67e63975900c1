/**
 * Registers the ledger timeline: the panel (and its serializer, so it comes
 * back after a reload), the sidebar view, the commands that open them, and
 * the link from the Plan tree's selection to every open timeline.
 */
import * as vscode from "vscode";
import { timelineKeyOf } from "./sources/sourceTimelineBridge";
import { PlanNode } from "./planTreeNodes";
import { TimelineController, TimelineIntent } from "./timelineController";
import { TIMELINE_VIEW_TYPE } from "./timelineHtml";
import type { TimelineServices } from "./timelineServices";
import { TimelinePanel } from "./timelinePanel";
import { TIMELINE_VIEW_ID, TimelineViewProvider } from "./timelineViewProvider";

/** The folder URI string a command argument names: a Plan node's folder, or the string itself. */
export function folderUriOf(arg: unknown): string | undefined {
  if (typeof arg === "string") return arg;
  if (arg && typeof arg === "object" && "folder" in arg) {
    const f = (arg as { folder: unknown }).folder;
    if (f && typeof f === "object" && "folder" in f) {
      return String((f as { folder: vscode.WorkspaceFolder }).folder.uri.toString());
    }
  }
  return undefined;
}

/** What `autodev.showTimeline` / `autodev.showTaskInTimeline` ask for. */
function intentOf(arg: unknown, extra: unknown): TimelineIntent {
  const node = arg as PlanNode | undefined;
  if (node && typeof node === "object" && node.kind === "task") {
    return { folderUri: folderUriOf(node), taskId: node.task.id };
  }
  if (node && typeof node === "object" && (node.kind === "sourceRoot" || node.kind === "sourceNode")) {
    return { folderUri: timelineKeyOf(node.state) };
  }
  const folderUri = folderUriOf(arg);
  if (typeof extra === "number" && Number.isSafeInteger(extra) && extra > 0) return { folderUri, seq: extra };
  if (typeof extra === "string" && extra.length > 0) return { folderUri, taskId: extra };
  return { folderUri };
}

/** Registers the timeline panel/view and its commands; returns the panel owner (tests use it). */
export function registerTimelineFeatures(context: vscode.ExtensionContext, services: TimelineServices): TimelinePanel {
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
      if (node?.kind !== "task") return;
      for (const c of controllers()) c.treeSelectedTask(node.folder, node.task.id);
    }),
  );
  services.commands.registerAll({
    "autodev.showTimeline": (arg, extra) => panel.show(intentOf(arg, extra)),
    "autodev.showTaskInTimeline": (arg, extra) => {
      const intent = intentOf(arg, extra);
      if (!intent.taskId) {
        throw new Error(vscode.l10n.t("Show Task in Timeline needs a task (run it from a task in the Plan view)."));
      }
      return panel.show(intent);
    },
  });
  return panel;
}
