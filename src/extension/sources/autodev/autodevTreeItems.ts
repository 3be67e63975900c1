/**
 * The TreeItems of AutoDev's nodes: a folder's root (title, integrity, progress; spec and times in
 * the tooltip), the info rows only the editor has (time travel, a rewritten history, loading),
 * and the core tree's nodes — rendered as every source's are (sourceTreeItems.ts) with AutoDev's
 * clicks: a target runs `autodev.openRunTarget` with the folder (a file inside the workspace, a
 * task revealed, a diff, a text), a task's pending step opens its delegation as a Markdown preview
 * (`autodev.openDelegation`), and a task row adds the editor's note ("1/2 reviewed").
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { planProgress, planTitle } from "../../../core/sources/autodev/tree/planSummary";
import { labelText } from "../../../core/text/untrustedText";
import { whenText } from "../../text/dateText";
import { nodeTooltip, themeIcon } from "../sourceTreeItems";
import type { AutodevNode } from "./autodevNodes";

type RootNode = Extract<AutodevNode, { kind: "root" }>;
type WrappedNode = Extract<AutodevNode, { kind: "phase" | "task" | "node" }>;

/** The step AutoDev waits on: its click opens the delegation as a preview (the "Delegation" row opens the file). */
const PENDING_DELEGATION: ReadonlySet<string> = new Set(["autodevStep.waiting"]);

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

/**
 * `text` as a Markdown code span: nothing inside is escaped (a backslash there shows as itself),
 * so the fence is one backtick longer than any run of backticks in it, and on one line.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, " ");
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** The rows a root shows before the core tree: time travel, a rewritten history, and loading or why nothing shows. */
export function rootInfoNodes(root: RootNode): AutodevNode[] {
  const f = root.folder;
  const out: AutodevNode[] = [];
  if (f.timeTravel) {
    out.push({
      kind: "info",
      id: `${root.id}|travel`,
      parent: root,
      icon: "history",
      color: "charts.orange",
      label: vscode.l10n.t("Viewing the plan as of seq {0}", f.timeTravel.seq),
      detail: vscode.l10n.t("click to return to live"),
      command: {
        command: "autodev.backToLive",
        title: vscode.l10n.t("Back to Live"),
        arguments: [f.folder.uri.toString()],
      },
    });
  }
  if (f.rewriteFinding) {
    out.push({
      kind: "info",
      id: `${root.id}|rewrite`,
      parent: root,
      icon: "warning",
      color: "problemsWarningIcon.foreground",
      label: vscode.l10n.t("History rewritten"),
      detail: vscode.l10n.t("see Problems"),
      tooltip: f.rewriteFinding.message,
      command: {
        command: "autodev.openLedgerLine",
        title: vscode.l10n.t("Open Ledger Line"),
        arguments: [f.folder.uri.toString(), f.rewriteFinding.line ?? 1],
      },
    });
  }
  if (f.tree === null) {
    const label = f.error ? vscode.l10n.t("Cannot read the ledger: {0}", f.error) : vscode.l10n.t("Loading…");
    out.push({ kind: "info", id: `${root.id}|empty`, parent: root, icon: f.error ? "error" : "info", label });
  }
  return out;
}

/** The tree item of one AutoDev node (`taskNote`: what a task row adds after its marks, "1/2 reviewed"). */
export function autodevNodeItem(node: AutodevNode, taskNote?: string | null): vscode.TreeItem {
  const C = vscode.TreeItemCollapsibleState;
  switch (node.kind) {
    case "root":
      return rootItem(node);
    case "phase":
    case "task":
    case "node":
      return wrappedItem(node, node.kind === "task" ? (taskNote ?? null) : null);
    case "group": {
      const item = new vscode.TreeItem(node.label, C.Collapsed);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon(node.icon);
      return item;
    }
    case "info": {
      const item = new vscode.TreeItem(node.label, C.None);
      item.id = node.id;
      item.description = node.detail;
      item.tooltip = node.tooltip;
      item.iconPath = new vscode.ThemeIcon(node.icon, node.color ? new vscode.ThemeColor(node.color) : undefined);
      item.command = node.command;
      return item;
    }
    case "extra": {
      const item = node.item;
      item.id = node.id;
      return item;
    }
  }
}

/** A core node: its words as the core composed them (one plain line each), AutoDev's click, a task's note. */
function wrappedItem(w: WrappedNode, note: string | null): vscode.TreeItem {
  const C = vscode.TreeItemCollapsibleState;
  const n = w.node;
  const item = new vscode.TreeItem(
    labelText(n.label, 400),
    n.children === undefined ? C.None : n.expanded ? C.Expanded : C.Collapsed,
  );
  item.id = w.id;
  const description = n.description === undefined ? undefined : labelText(n.description, 400);
  item.description = note ? [description, note].filter(Boolean).join(" · ") : description;
  const spoken = n.accessibilityLabel === undefined ? undefined : labelText(n.accessibilityLabel, 600);
  if (spoken !== undefined) item.accessibilityInformation = { label: note ? `${spoken}, ${note}` : spoken };
  if (n.tooltip || n.tooltipTimes?.length || note) {
    const md = nodeTooltip(n);
    if (note) md.appendMarkdown(`\n\n${escapeMd(vscode.l10n.t("diffs: {0}", note))}`);
    item.tooltip = md;
  }
  item.iconPath = themeIcon(n.icon);
  item.contextValue = n.contextValue ?? "autodevRun";
  const folderUri = w.folder.folder.uri.toString();
  const target = n.target;
  if (target?.kind === "file" && n.icon?.id === "file") {
    // A task's file: the file theme's icon and decorations.
    item.resourceUri = vscode.Uri.file(path.resolve(w.folder.cwd, target.file));
    item.iconPath = vscode.ThemeIcon.File;
  }
  if (PENDING_DELEGATION.has(item.contextValue)) {
    item.command = {
      command: "autodev.openDelegation",
      title: vscode.l10n.t("Open Delegation"),
      arguments: [folderUri],
    };
  } else if (target) {
    item.command = {
      command: "autodev.openRunTarget",
      title: target.kind === "reveal" ? vscode.l10n.t("Reveal Task") : vscode.l10n.t("Open"),
      arguments: [folderUri, target],
    };
  }
  return item;
}

/** A folder's root: the plan's title, then time travel, integrity and progress; the rest in the tooltip. */
function rootItem(node: RootNode): vscode.TreeItem {
  const f = node.folder;
  const plan = f.plan;
  const title = plan ? planTitle(plan) : f.folder.name;
  const item = new vscode.TreeItem(labelText(title, 400), vscode.TreeItemCollapsibleState.Expanded);
  item.id = node.id;
  const r = f.report;
  // The same words as the status bar: a rewritten history is not "ok" even when the chain verifies.
  const rewritten = f.rewriteFinding !== null;
  const integrity =
    f.hasLedger === false
      ? vscode.l10n.t("no ledger yet · plan phase")
      : r === null
        ? vscode.l10n.t("verifying…")
        : !r.ok
          ? vscode.l10n.t("ledger broken at line {0}", r.errors[0]?.atLine ?? "?")
          : rewritten
            ? vscode.l10n.t("history rewritten")
            : vscode.l10n.t("ledger ok");
  // Short enough for a 300 px sidebar: what matters first (time travel, integrity, progress); spec and times are in the tooltip.
  const { done, total } = plan ? planProgress(plan) : { done: 0, total: 0 };
  item.description = [
    f.timeTravel ? vscode.l10n.t("as of seq {0}", f.timeTravel.seq) : "",
    integrity,
    plan ? `${done}/${total}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  item.iconPath = new vscode.ThemeIcon(
    (r && !r.ok) || rewritten ? "warning" : f.timeTravel ? "history" : "checklist",
    r && !r.ok
      ? new vscode.ThemeColor("errorForeground")
      : rewritten
        ? new vscode.ThemeColor("problemsWarningIcon.foreground")
        : undefined,
  );
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown(`**${escapeMd(labelText(title, 400))}** — ${escapeMd(f.folder.name)}\n\n`);
  if (plan) {
    md.appendMarkdown(`${vscode.l10n.t("plan {0} · spec {1}", codeSpan(plan.plan_id), codeSpan(plan.spec_hash))}\n\n`);
    md.appendMarkdown(`${escapeMd(vscode.l10n.t("updated {0}", whenText(plan.updated_at)))}\n\n`);
    md.appendMarkdown(`${escapeMd(vscode.l10n.t("{0} of {1} tasks done", done, total))}\n\n`);
  }
  md.appendMarkdown(`${escapeMd(vscode.l10n.t("{0} ledger entries", f.entries))} · ${escapeMd(integrity)}`);
  item.tooltip = md;
  item.contextValue = ["autodevRoot", f.timeTravel ? "travel" : "", rewritten ? "rewritten" : ""]
    .filter(Boolean)
    .join(".");
  return item;
}
