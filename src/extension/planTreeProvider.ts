/**
 * The Plan view: one root per workspace folder with `.autodev/`, then phases →
 * tasks → a task's blocked reason, acceptance criteria, dependencies (links
 * that reveal the task), files (open on click) and evidence (contributed).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { Task } from "../core/plan/schemas";
import { AutodevFolder } from "./sources/autodev/autodevFolder";
import { AutodevWorkspaces } from "./sources/autodev/autodevWorkspaces";
import { Disposable } from "./disposable";
import { PlanNode, phaseNodeId, taskChildren, taskNodeId, asText } from "./planTreeNodes";
import { isDone, statusIcon, statusLabel } from "./taskStatusStyle";
import { SourceFolderState } from "./sources/sourceFolderState";
import { SourceTreeModel } from "./sources/sourceTreeModel";
import { SourceWorkspaces } from "./sources/sourceWorkspaces";

/** Adds children under a task (the evidence nodes). */
export type TaskChildContributor = (folder: AutodevFolder, task: Task, parent: Extract<PlanNode, { kind: "task" }>) => Promise<PlanNode[]>;
/** Adds children at the end of a folder's root (plan-level evidence). */
export type RootChildContributor = (folder: AutodevFolder, parent: Extract<PlanNode, { kind: "root" }>) => Promise<PlanNode[]>;
/** Adds nodes above (`top`) and below (`bottom`) a root's plan (the run state). */
export type RunNodesContributor = (folder: AutodevFolder, parent: Extract<PlanNode, { kind: "root" }>) => { top: PlanNode[]; bottom: PlanNode[] };
/** Gives a task row a resource URI (for file decorations such as a missing-evidence badge). */
export type TaskResourceUri = (folder: AutodevFolder, taskId: string) => vscode.Uri;

function relTime(iso: string): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((Date.now() - t) / 1000);
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

/** TreeDataProvider of the `autodev.plan` view. */
export class PlanTreeProvider extends Disposable implements vscode.TreeDataProvider<PlanNode> {
  private readonly changed = this.register(new vscode.EventEmitter<PlanNode | undefined | void>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly nodes = new Map<string, PlanNode>();
  private contributor: TaskChildContributor | null = null;
  private rootContributor: RootChildContributor | null = null;
  private runContributor: RunNodesContributor | null = null;
  private taskUri: TaskResourceUri | null = null;

  private readonly sourceModel = new SourceTreeModel();

  constructor(
    private readonly workspaces: AutodevWorkspaces,
    private readonly sources?: SourceWorkspaces,
  ) {
    super();
    this.register(workspaces.onDidChange(() => this.changed.fire()));
    if (sources) this.register(sources.onDidChange(() => this.changed.fire()));
  }

  /** The Plan node of a source's node by its source-local id (builds the wrappers if needed). */
  findSourceNode(state: SourceFolderState, localId: string): PlanNode | undefined {
    return this.sourceModel.find(state, localId);
  }

  /** Installs the contributor of evidence nodes under tasks. */
  setTaskChildContributor(c: TaskChildContributor): void {
    this.contributor = c;
    this.changed.fire();
  }

  /** Installs the contributor of nodes at the end of each root (plan-level evidence). */
  /** Installs the contributor of the run-state nodes above and below each plan; `onChange` refreshes them. */
  setRunContributor(c: RunNodesContributor, onChange: vscode.Event<unknown>): void {
    this.runContributor = c;
    this.register(onChange(() => this.changed.fire()));
    this.changed.fire();
  }

  setRootChildContributor(c: RootChildContributor): void {
    this.rootContributor = c;
    this.changed.fire();
  }

  /** Installs the resource URI of task rows (decorations). */
  setTaskResourceUri(f: TaskResourceUri): void {
    this.taskUri = f;
    this.changed.fire();
  }

  /** Re-renders everything. */
  refresh(): void {
    this.changed.fire();
  }

  /** A node by id (after it was rendered once), e.g. to reveal a task. */
  nodeById(id: string): PlanNode | undefined {
    return this.nodes.get(id);
  }

  /** The task node of `taskId` in `folder`, building the path to it if needed. */
  async findTaskNode(folder: AutodevFolder, taskId: string): Promise<PlanNode | undefined> {
    const id = taskNodeId(folder, taskId);
    if (!this.nodes.has(id)) {
      const root = (await this.getChildren()).find((n) => n.kind === "root" && n.folder === folder);
      if (root) for (const ph of await this.getChildren(root)) await this.getChildren(ph);
    }
    return this.nodes.get(id);
  }

  getParent(node: PlanNode): PlanNode | undefined {
    return "parent" in node && node.parent ? node.parent : undefined;
  }

  async getChildren(node?: PlanNode): Promise<PlanNode[]> {
    const out = await this.childrenOf(node);
    for (const n of out) this.nodes.set(n.id, n);
    return out;
  }

  private async childrenOf(node?: PlanNode): Promise<PlanNode[]> {
    if (!node) return this.roots();
    switch (node.kind) {
      case "sourceRoot":
      case "sourceNode":
        return this.sourceModel.children(node);
      case "root": {
        const own = this.rootChildren(node);
        const f = node.folder;
        const extra = this.rootContributor && f.plan && !f.timeTravel ? await this.rootContributor(f, node) : [];
        const run = this.runContributor && !f.timeTravel ? this.runContributor(f, node) : { top: [], bottom: [] };
        return [...run.top, ...own, ...extra, ...run.bottom];
      }
      case "phase":
        return node.phase.tasks.map((task) => ({ kind: "task", id: taskNodeId(node.folder, task.id), folder: node.folder, parent: node, task, plan: node.folder.plan! }) as PlanNode);
      case "task":
        return taskChildren(node, this.contributor ? await this.contributor(node.folder, node.task, node) : []);
      case "group":
        return node.children();
      case "extra":
        return node.children ? node.children() : [];
      default:
        return [];
    }
  }

  /** Per workspace folder, in order: the AutoDev root, then one root per other detected source. */
  private roots(): PlanNode[] {
    const out: PlanNode[] = [];
    const live = this.sources?.all ?? [];
    this.sourceModel.retain(live);
    for (const wf of vscode.workspace.workspaceFolders ?? []) {
      const folder = this.workspaces.get(wf);
      if (folder) out.push({ kind: "root", id: `${folder.folder.uri.toString()}|root`, folder });
      for (const state of this.sources?.of(wf) ?? []) out.push(this.sourceModel.root(state));
    }
    return out;
  }

  private rootChildren(node: Extract<PlanNode, { kind: "root" }>): PlanNode[] {
    const f = node.folder;
    const out: PlanNode[] = [];
    if (f.timeTravel) {
      out.push({
        kind: "info", id: `${node.id}|travel`, parent: node, icon: "history", color: "charts.orange",
        label: vscode.l10n.t("Viewing the plan as of seq {0}", f.timeTravel.seq), detail: vscode.l10n.t("click to return to live"),
        command: { command: "autodev.backToLive", title: "Back to Live", arguments: [f.folder.uri.toString()] },
      });
    }
    if (f.rewriteFinding) out.push({ kind: "info", id: `${node.id}|rewrite`, parent: node, icon: "warning", color: "errorForeground", label: vscode.l10n.t("History was rewritten"), tooltip: f.rewriteFinding.message });
    const plan = f.plan;
    if (!plan) {
      const label = f.error ? vscode.l10n.t("Cannot read the ledger: {0}", f.error) : f.report === null ? vscode.l10n.t("Loading…") : f.timeTravel ? vscode.l10n.t("No plan at this entry") : vscode.l10n.t("No plan yet: the ledger is empty");
      out.push({ kind: "info", id: `${node.id}|empty`, parent: node, icon: f.error ? "error" : "info", label });
      return out;
    }
    for (const phase of plan.phases) out.push({ kind: "phase", id: phaseNodeId(f, phase.id), folder: f, parent: node, phase });
    return out;
  }

  getTreeItem(node: PlanNode): vscode.TreeItem {
    const C = vscode.TreeItemCollapsibleState;
    switch (node.kind) {
      case "sourceRoot":
      case "sourceNode":
        return this.sourceModel.item(node, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
      case "root": {
        const f = node.folder;
        const plan = f.plan;
        const title = plan ? (typeof plan.metadata.get("title") === "string" && String(plan.metadata.get("title")).trim() ? String(plan.metadata.get("title")) : plan.plan_id) : f.folder.name;
        const item = new vscode.TreeItem(title, C.Expanded);
        item.id = node.id;
        const r = f.report;
        const integrity = r === null ? vscode.l10n.t("verifying…") : r.ok ? vscode.l10n.t("ledger ok") : vscode.l10n.t("ledger broken at line {0}", r.errors[0]?.atLine ?? "?");
        // Short enough for a 300 px sidebar: what matters first (time travel, integrity, progress); spec and times are in the tooltip.
        const tasks = plan ? plan.phases.flatMap((p) => p.tasks) : [];
        const done = tasks.filter((t) => isDone(String(t.status))).length;
        item.description = [f.timeTravel ? vscode.l10n.t("as of seq {0}", f.timeTravel.seq) : "", integrity, plan ? `${done}/${tasks.length}` : ""].filter(Boolean).join(" · ");
        item.iconPath = new vscode.ThemeIcon(r && !r.ok ? "warning" : f.timeTravel ? "history" : "checklist", r && !r.ok ? new vscode.ThemeColor("errorForeground") : undefined);
        const md = new vscode.MarkdownString(undefined, false);
        md.appendMarkdown(`**${escapeMd(title)}** — ${escapeMd(f.folder.name)}\n\n`);
        if (plan) md.appendMarkdown(`plan \`${escapeMd(plan.plan_id)}\` · spec \`${escapeMd(plan.spec_hash)}\`\n\n${escapeMd(vscode.l10n.t("updated {0} ({1})", plan.updated_at, relTime(plan.updated_at)))}\n\n`);
        if (plan) md.appendMarkdown(`${escapeMd(vscode.l10n.t("{0} of {1} tasks done", done, tasks.length))}\n\n`);
        md.appendMarkdown(`${escapeMd(vscode.l10n.t("{0} ledger entries", f.entries))} · ${escapeMd(integrity)}`);
        item.tooltip = md;
        item.contextValue = f.timeTravel ? "autodevRoot.travel" : "autodevRoot";
        return item;
      }
      case "phase": {
        const tasks = node.phase.tasks;
        const done = tasks.filter((t) => isDone(String(t.status))).length;
        const item = new vscode.TreeItem(vscode.l10n.t("Phase {0}: {1}", node.phase.id, node.phase.title), C.Expanded);
        item.id = node.id;
        item.description = `${done}/${tasks.length}`;
        const allDone = done === tasks.length && tasks.length > 0;
        item.iconPath = new vscode.ThemeIcon(allDone ? "pass" : "layers", allDone ? new vscode.ThemeColor("testing.iconPassed") : undefined);
        item.tooltip = [vscode.l10n.t("Phase {0}: {1}", node.phase.id, node.phase.title), node.phase.description, vscode.l10n.t("{0} of {1} tasks done", done, tasks.length)].filter(Boolean).join("\n");
        item.contextValue = "autodevPhase";
        return item;
      }
      case "task": {
        const item = taskItem(node);
        if (this.taskUri) item.resourceUri = this.taskUri(node.folder, node.task.id);
        return item;
      }
      case "criterion": {
        const item = new vscode.TreeItem(node.text, C.None);
        item.id = node.id;
        item.iconPath = new vscode.ThemeIcon(node.met ? "check" : "circle-large-outline", node.met ? new vscode.ThemeColor("testing.iconPassed") : undefined);
        item.description = node.met ? "met" : "not met";
        item.contextValue = "autodevCriterion";
        return item;
      }
      case "dependency": {
        const item = new vscode.TreeItem(`depends on ${node.taskId}`, C.None);
        item.id = node.id;
        item.description = node.found ? `${node.found.title} · ${statusLabel(String(node.found.status))}` : "not in the plan";
        item.iconPath = node.found ? new vscode.ThemeIcon("link") : new vscode.ThemeIcon("warning", new vscode.ThemeColor("problemsWarningIcon.foreground"));
        if (node.found) item.command = { command: "autodev.revealTask", title: "Reveal Task", arguments: [node.folder.folder.uri.toString(), node.taskId] };
        return item;
      }
      case "file": {
        const item = new vscode.TreeItem(node.path, C.None);
        item.id = node.id;
        const abs = path.resolve(node.folder.cwd, node.path);
        const inside = !path.relative(node.folder.cwd, abs).startsWith("..");
        item.resourceUri = vscode.Uri.file(abs);
        item.iconPath = vscode.ThemeIcon.File;
        if (inside) item.command = { command: "vscode.open", title: "Open File", arguments: [vscode.Uri.file(abs)] };
        else item.description = "outside the workspace — not opened";
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
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, (c) => `\\${c}`);
}

function taskItem(node: Extract<PlanNode, { kind: "task" }>): vscode.TreeItem {
  const t = node.task;
  const status = String(t.status);
  // At a 300 px sidebar only the start of a row shows: the id as the label, then status, retries and
  // the escalation mark, then the title (in full in the tooltip).
  const item = new vscode.TreeItem(t.id, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  const retries = Number(t.retry_count);
  const state = [statusLabel(status), retries > 0 ? vscode.l10n.t("retry {0}", String(t.retry_count)) : "", t.escalated ? "⚑" : ""].filter(Boolean);
  item.description = [...state, t.title].join(" · ");
  const spoken = [statusLabel(status), retries > 0 ? vscode.l10n.t("retry {0}", String(t.retry_count)) : "", t.escalated ? vscode.l10n.t("escalated") : ""].filter(Boolean).join(", ");
  item.accessibilityInformation = { label: vscode.l10n.t("Task {0}, {1}: {2}", t.id, t.title, spoken) };
  item.iconPath = statusIcon(status);
  const md = new vscode.MarkdownString(undefined, false);
  md.appendMarkdown(`**${escapeMd(t.id)} ${escapeMd(t.title)}** — ${escapeMd(statusLabel(status))}\n\n`);
  if (t.description) md.appendMarkdown(`${escapeMd(t.description)}\n\n`);
  if (t.assigned_agent) md.appendMarkdown(`${escapeMd(vscode.l10n.t("agent: {0}", t.assigned_agent))}  \n`);
  if (retries > 0) md.appendMarkdown(`${escapeMd(vscode.l10n.t("retries: {0}", String(t.retry_count)))}  \n`);
  if (t.escalated) md.appendMarkdown(`⚑ ${escapeMd(vscode.l10n.t("escalated to the critic"))}  \n`);
  if (t.blocked_reason !== null && t.blocked_reason !== undefined) md.appendMarkdown(`${escapeMd(vscode.l10n.t("blocked: {0}", asText(t.blocked_reason)))}  \n`);
  item.tooltip = md;
  item.contextValue = `autodevTask.${status}`;
  return item;
}
