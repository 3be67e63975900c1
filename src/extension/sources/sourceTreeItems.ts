/**
 * Renders source-neutral {@link SourceTreeNode}s as VS Code tree items:
 * codicons with theme colours, Markdown tooltips (untrusted: no command
 * links), and a click that opens the node's {@link NodeTarget}.
 */
import * as vscode from "vscode";
import type { NodeIcon, SourceTreeNode } from "../../core/sources/stateSource";
import { problemCountsText } from "../text/countText";
import { whenText } from "../text/dateText";
import { escapeMarkdown } from "../../core/text/markdownText";
import { labelText } from "../../core/text/untrustedText";
import type { DefaultSourceFolder } from "./defaultSourceFolder";

/** A codicon (+ colour) as a ThemeIcon. */
export function themeIcon(icon: NodeIcon | undefined): vscode.ThemeIcon | undefined {
  if (!icon) return undefined;
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

/** A node's Markdown tooltip: the source's text, then its times relative and absolute ("created: 3 hours ago (…)"). */
export function nodeTooltip(
  node: Pick<SourceTreeNode, "tooltip" | "tooltipTimes">,
  now = Date.now(),
): vscode.MarkdownString {
  const times = (node.tooltipTimes ?? []).map((t) =>
    escapeMarkdown(vscode.l10n.t("{0}: {1}", t.label, whenText(t.time, now))),
  );
  return new vscode.MarkdownString([node.tooltip ?? "", ...times].filter(Boolean).join("\n\n"), false);
}

/** The item of one source node; `id` is the window-unique id the state tree uses. */
export function sourceNodeItem(state: DefaultSourceFolder, node: SourceTreeNode, id: string): vscode.TreeItem {
  const C = vscode.TreeItemCollapsibleState;
  const state_ = node.children === undefined ? C.None : node.expanded ? C.Expanded : C.Collapsed;
  // Labels come from state files: one line, nothing hidden (untrustedText.ts), whatever the source did.
  const item = new vscode.TreeItem(labelText(node.label, 400), state_);
  item.id = id;
  item.description = node.description === undefined ? undefined : labelText(node.description, 400);
  if (node.tooltip || node.tooltipTimes?.length) item.tooltip = nodeTooltip(node);
  item.iconPath = themeIcon(node.icon);
  if (node.contextValue) item.contextValue = node.contextValue;
  // A click runs autodev.openSourceTarget with (source key, target); see sourceTargetOpener.ts.
  if (node.target) {
    item.command = {
      command: "autodev.openSourceTarget",
      title: vscode.l10n.t("Open"),
      arguments: [state.key, node.target],
    };
  }
  return item;
}

/** The item of a source's root: name, folder, problem counts. */
export function sourceRootItem(state: DefaultSourceFolder, id: string, multiFolder: boolean): vscode.TreeItem {
  const item = new vscode.TreeItem(state.displayName, vscode.TreeItemCollapsibleState.Expanded);
  item.id = id;
  const c = state.counts;
  const health = state.error
    ? vscode.l10n.t("cannot read")
    : state.problems === null
      ? vscode.l10n.t("checking…")
      : problemCountsText(c.error, c.warning);
  item.description = [multiFolder ? state.folder.name : "", state.source.relDir, health].filter(Boolean).join(" · ");
  item.iconPath = new vscode.ThemeIcon(
    state.error || c.error ? "warning" : "checklist",
    state.error || c.error ? new vscode.ThemeColor("errorForeground") : undefined,
  );
  item.tooltip = vscode.l10n.t(
    "{0} state in {1}/{2}: {3}",
    state.displayName,
    state.folder.name,
    state.source.relDir,
    health,
  );
  item.contextValue = `sourceRoot.${state.kind}`;
  return item;
}
