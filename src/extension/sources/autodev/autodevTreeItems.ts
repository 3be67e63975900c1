/**
 * The TreeItems of AutoDev's nodes: a folder's root (title, integrity, progress; spec and times in
 * the tooltip), phases, tasks (id as the label so a 300 px sidebar shows it), acceptance criteria,
 * dependencies, files, blocked reasons, groups and info rows.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { whenText } from "../../dateText";
import { AutodevNode, asText } from "./autodevNodes";
import { changeWords } from "../../../core/timeline/timelineWords";
import { LEDGER_WORDS } from "../../../core/sources/autodev/timeline/ledgerTimelineWords";
import { retryHoverText, retryMark, retrySpoken } from "./retryWords";
import { isDone, statusIcon, statusLabel } from "./taskStatusStyle";
import { isInside } from "../../../core/fs/pathInside";

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

/** The tree item of one AutoDev node (`taskNote`: what a task row adds after its marks, "1/2 reviewed"). */
export function autodevNodeItem(node: AutodevNode, taskNote?: string | null): vscode.TreeItem {
  const C = vscode.TreeItemCollapsibleState;
  switch (node.kind) {
    case "root":
      return rootItem(node);
    case "phase": {
      const tasks = node.phase.tasks;
      const done = tasks.filter((t) => isDone(String(t.status))).length;
      const item = new vscode.TreeItem(vscode.l10n.t("Phase {0}: {1}", node.phase.id, node.phase.title), C.Expanded);
      item.id = node.id;
      item.description = `${done}/${tasks.length}`;
      const allDone = done === tasks.length && tasks.length > 0;
      item.iconPath = new vscode.ThemeIcon(
        allDone ? "pass" : "layers",
        allDone ? new vscode.ThemeColor("testing.iconPassed") : undefined,
      );
      item.tooltip = [
        vscode.l10n.t("Phase {0}: {1}", node.phase.id, node.phase.title),
        node.phase.description,
        vscode.l10n.t("{0} of {1} tasks done", done, tasks.length),
      ]
        .filter(Boolean)
        .join("\n");
      item.contextValue = "autodevPhase";
      return item;
    }
    case "task":
      return taskItem(node, taskNote ?? null);
    case "criterion": {
      const item = new vscode.TreeItem(node.text, C.None);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon(
        node.met ? "check" : "circle-large-outline",
        node.met ? new vscode.ThemeColor("testing.iconPassed") : undefined,
      );
      item.description = node.met ? vscode.l10n.t("met") : vscode.l10n.t("not met");
      item.contextValue = "autodevCriterion";
      return item;
    }
    case "dependency": {
      const item = new vscode.TreeItem(vscode.l10n.t("depends on {0}", node.taskId), C.None);
      item.id = node.id;
      item.description = node.found
        ? `${node.found.title} · ${statusLabel(String(node.found.status))}`
        : vscode.l10n.t("not in the plan");
      item.iconPath = node.found
        ? new vscode.ThemeIcon("link")
        : new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
      if (node.found) {
        item.command = {
          command: "autodev.revealTask",
          title: vscode.l10n.t("Reveal Task"),
          arguments: [node.folder.folder.uri.toString(), node.taskId],
        };
      }
      return item;
    }
    case "file": {
      const item = new vscode.TreeItem(node.path, C.None);
      item.id = node.id;
      const abs = path.resolve(node.folder.cwd, node.path);
      const inside = isInside(node.folder.cwd, abs);
      item.resourceUri = vscode.Uri.file(abs);
      item.iconPath = vscode.ThemeIcon.File;
      if (inside) {
        item.command = { command: "vscode.open", title: vscode.l10n.t("Open File"), arguments: [vscode.Uri.file(abs)] };
      } else item.description = vscode.l10n.t("outside the workspace — not opened");
      return item;
    }
    case "blocked": {
      const item = new vscode.TreeItem(node.reason, C.None);
      item.id = node.id;
      item.iconPath = new vscode.ThemeIcon("circle-slash", new vscode.ThemeColor("testing.iconFailed"));
      item.tooltip = vscode.l10n.t("Blocked: {0}", node.reason);
      return item;
    }
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

/** A folder's root: the plan's title, then time travel, integrity and progress; the rest in the tooltip. */
function rootItem(node: Extract<AutodevNode, { kind: "root" }>): vscode.TreeItem {
  const f = node.folder;
  const plan = f.plan;
  const title = plan
    ? typeof plan.metadata.get("title") === "string" && String(plan.metadata.get("title")).trim()
      ? String(plan.metadata.get("title"))
      : plan.plan_id
    : f.folder.name;
  const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.Expanded);
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
  const tasks = plan ? plan.phases.flatMap((p) => p.tasks) : [];
  const done = tasks.filter((t) => isDone(String(t.status))).length;
  item.description = [
    f.timeTravel ? vscode.l10n.t("as of seq {0}", f.timeTravel.seq) : "",
    integrity,
    plan ? `${done}/${tasks.length}` : "",
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
  md.appendMarkdown(`**${escapeMd(title)}** — ${escapeMd(f.folder.name)}\n\n`);
  if (plan) {
    md.appendMarkdown(`${vscode.l10n.t("plan {0} · spec {1}", codeSpan(plan.plan_id), codeSpan(plan.spec_hash))}\n\n`);
    md.appendMarkdown(`${escapeMd(vscode.l10n.t("updated {0}", whenText(plan.updated_at)))}\n\n`);
    md.appendMarkdown(`${escapeMd(vscode.l10n.t("{0} of {1} tasks done", done, tasks.length))}\n\n`);
  }
  md.appendMarkdown(`${escapeMd(vscode.l10n.t("{0} ledger entries", f.entries))} · ${escapeMd(integrity)}`);
  item.tooltip = md;
  item.contextValue = ["autodevRoot", f.timeTravel ? "travel" : "", rewritten ? "rewritten" : ""]
    .filter(Boolean)
    .join(".");
  return item;
}

/** A task: its id as the label, then status, retries, the escalation mark and `note`, then its title. */
function taskItem(node: Extract<AutodevNode, { kind: "task" }>, note: string | null): vscode.TreeItem {
  const t = node.task;
  const status = String(t.status);
  // At a 300 px sidebar only the start of a row shows: the id as the label, then status, retries and
  // the escalation mark, then the title (in full in the tooltip), then the reviewed count.
  const item = new vscode.TreeItem(t.id, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  const retries = Number(t.retry_count);
  const run = node.folder.run;
  const state = [
    statusLabel(status),
    retries > 0 ? retryMark(String(t.retry_count), run) : "",
    t.escalated ? "⚑" : "",
  ].filter(Boolean);
  item.description = [...state, t.title, note ?? ""].filter(Boolean).join(" · ");
  const spoken = [
    statusLabel(status),
    retries > 0 ? retrySpoken(String(t.retry_count), run) : "",
    t.escalated ? vscode.l10n.t("escalated") : "",
    note ?? "",
  ]
    .filter(Boolean)
    .join(", ");
  item.accessibilityInformation = { label: vscode.l10n.t("Task {0}, {1}: {2}", t.id, t.title, spoken) };
  item.iconPath = statusIcon(status);
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown(`**${escapeMd(t.id)} ${escapeMd(t.title)}** — ${escapeMd(statusLabel(status))}\n\n`);
  if (t.description) md.appendMarkdown(`${escapeMd(t.description)}\n\n`);
  if (t.assigned_agent) md.appendMarkdown(`${escapeMd(vscode.l10n.t("agent: {0}", t.assigned_agent))}  \n`);
  if (retries > 0) md.appendMarkdown(`${escapeMd(retryHoverText(String(t.retry_count), run))}  \n`);
  if (t.escalated) md.appendMarkdown(`⚑ ${escapeMd(vscode.l10n.t("escalated to the critic"))}  \n`);
  if (note) md.appendMarkdown(`${escapeMd(vscode.l10n.t("diffs: {0}", note))}  \n`);
  if (t.blocked_reason !== null && t.blocked_reason !== undefined) {
    md.appendMarkdown(`${escapeMd(vscode.l10n.t("blocked: {0}", asText(t.blocked_reason)))}  \n`);
  }
  const change = node.folder.lastChange(t.id);
  const travel = node.folder.timeTravel;
  if (change && (!travel || change.seq <= travel.seq)) {
    const what = changeWords(LEDGER_WORDS, change);
    md.appendMarkdown(
      `${escapeMd(vscode.l10n.t("last change: {0} · {1} · seq {2}", what || statusLabel(change.toStatus), whenText(change.timestamp), change.seq))}  \n`,
    );
  }
  item.tooltip = md;
  item.contextValue = `autodevTask.${status}`;
  return item;
}
