/**
 * The Plan view: one root per workspace folder with `.autodev/`, then phases →
 * tasks → a task's blocked reason, acceptance criteria, dependencies (links
 * that reveal the task), files (open on click) and evidence (contributed).
 */
import * as vscode from "vscode";
import { Task } from "../core/sources/autodev/plan/schemas";
import { AutodevFolder } from "./sources/autodev/autodevFolder";
import { AutodevWorkspaces } from "./sources/autodev/autodevWorkspaces";
import { Disposable } from "./disposable";
import { PlanNode, phaseNodeId, taskChildren, taskNodeId } from "./planTreeNodes";
import { planNodeItem } from "./planTreeItems";
import { SourceFolderState } from "./sources/sourceFolderState";
import { SourceTreeModel } from "./sources/sourceTreeModel";
import { SourceWorkspaces } from "./sources/sourceWorkspaces";

/** Adds children under a task (the evidence nodes). */
export type TaskChildContributor = (
  folder: AutodevFolder,
  task: Task,
  parent: Extract<PlanNode, { kind: "task" }>,
) => Promise<PlanNode[]>;
/** Adds children at the end of a folder's root (plan-level evidence). */
export type RootChildContributor = (
  folder: AutodevFolder,
  parent: Extract<PlanNode, { kind: "root" }>,
) => Promise<PlanNode[]>;
/** Adds nodes above (`top`) and below (`bottom`) a root's plan (the run state). */
export type RunNodesContributor = (
  folder: AutodevFolder,
  parent: Extract<PlanNode, { kind: "root" }>,
) => { top: PlanNode[]; bottom: PlanNode[] };
/** Gives a task row a resource URI (for file decorations such as a missing-evidence badge). */
export type TaskResourceUri = (folder: AutodevFolder, taskId: string) => vscode.Uri;

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

  /** Installs the contributor of the run-state nodes above and below each plan; `onChange` refreshes them. */
  setRunContributor(c: RunNodesContributor, onChange: vscode.Event<unknown>): void {
    this.runContributor = c;
    this.register(onChange(() => this.changed.fire()));
    this.changed.fire();
  }

  /** Installs the contributor of nodes at the end of each root (plan-level evidence). */
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
        return node.phase.tasks.map(
          (task) =>
            ({
              kind: "task",
              id: taskNodeId(node.folder, task.id),
              folder: node.folder,
              parent: node,
              task,
              plan: node.folder.plan!,
            }) as PlanNode,
        );
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
        kind: "info",
        id: `${node.id}|travel`,
        parent: node,
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
        id: `${node.id}|rewrite`,
        parent: node,
        icon: "warning",
        color: "errorForeground",
        label: vscode.l10n.t("History was rewritten"),
        tooltip: f.rewriteFinding.message,
      });
    }
    const plan = f.plan;
    if (!plan) {
      const label = f.error
        ? vscode.l10n.t("Cannot read the ledger: {0}", f.error)
        : f.report === null
          ? vscode.l10n.t("Loading…")
          : f.timeTravel
            ? vscode.l10n.t("No plan at this entry")
            : vscode.l10n.t("No plan yet: the ledger is empty");
      out.push({ kind: "info", id: `${node.id}|empty`, parent: node, icon: f.error ? "error" : "info", label });
      return out;
    }
    for (const phase of plan.phases) {
      out.push({ kind: "phase", id: phaseNodeId(f, phase.id), folder: f, parent: node, phase });
    }
    return out;
  }

  getTreeItem(node: PlanNode): vscode.TreeItem {
    if (node.kind === "sourceRoot" || node.kind === "sourceNode") {
      return this.sourceModel.item(node, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
    }
    const item = planNodeItem(node);
    if (node.kind === "task" && this.taskUri) item.resourceUri = this.taskUri(node.folder, node.task.id);
    return item;
  }
}
