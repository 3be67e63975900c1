/**
 * AutoDev's part of the state tree: one root per folder with `.autodev/`, then the run state on
 * top, phases → tasks → a task's blocked reason, acceptance criteria, dependencies (links that
 * reveal the task), files (open on click), its delegations and evidence (contributed), plan evidence and the rest
 * of the run state below. The state tree asks it for the children and items of its nodes.
 */
import * as vscode from "vscode";
import type { Task } from "../../../core/sources/autodev/plan/schemas";
import type { TreeHost } from "../adapterHost";
import type { SourceFolder, SourceTree, StateNode } from "../sourceAdapter";
import { AutodevFolder } from "./folder/autodevFolder";
import { AutodevNode, phaseNodeId, taskChildren, taskNodeId } from "./autodevNodes";
import { autodevNodeItem } from "./autodevTreeItems";

/** Adds children under a task (the evidence nodes). */
export type TaskChildContributor = (
  folder: AutodevFolder,
  task: Task,
  parent: Extract<AutodevNode, { kind: "task" }>,
) => Promise<AutodevNode[]>;
/** Adds children at the end of a folder's root (plan-level evidence). */
export type RootChildContributor = (
  folder: AutodevFolder,
  parent: Extract<AutodevNode, { kind: "root" }>,
) => Promise<AutodevNode[]>;
/** Adds the run state: nodes above (`top`) and below (`bottom`) a root's plan, and under each task (its delegations). */
export interface RunNodesContributor {
  around(
    folder: AutodevFolder,
    parent: Extract<AutodevNode, { kind: "root" }>,
  ): { top: AutodevNode[]; bottom: AutodevNode[] };
  task(folder: AutodevFolder, parent: Extract<AutodevNode, { kind: "task" }>): AutodevNode[];
}
/** Gives a task row a resource URI (for file decorations such as a missing-evidence badge). */
export type TaskResourceUri = (folder: AutodevFolder, taskId: string) => vscode.Uri;
/** What a task row says after its marks ("1/2 reviewed"), or null. */
export type TaskNote = (folder: AutodevFolder, taskId: string) => string | null;
/** Adds to the item of a contributed node as it is rendered (a reviewed mark's checkbox). */
export type ItemDecorator = (node: AutodevNode, item: vscode.TreeItem) => void;

/** AutoDev's tree contributions. */
export class AutodevTree implements SourceTree {
  private readonly nodes = new Map<string, AutodevNode>();
  private contributor: TaskChildContributor | null = null;
  private rootContributor: RootChildContributor | null = null;
  private runContributor: RunNodesContributor | null = null;
  private taskUri: TaskResourceUri | null = null;
  private taskNote: TaskNote | null = null;
  private decorator: ItemDecorator | null = null;

  constructor(private readonly host: TreeHost) {}

  /** Installs the contributor of evidence nodes under tasks. */
  setTaskChildContributor(c: TaskChildContributor): void {
    this.contributor = c;
    this.host.refresh();
  }

  /** Installs the contributor of the run-state nodes above and below each plan. */
  setRunContributor(c: RunNodesContributor): void {
    this.runContributor = c;
    this.host.refresh();
  }

  /** Installs the contributor of nodes at the end of each root (plan-level evidence). */
  setRootChildContributor(c: RootChildContributor): void {
    this.rootContributor = c;
    this.host.refresh();
  }

  /** Installs the resource URI of task rows (decorations). */
  setTaskResourceUri(f: TaskResourceUri): void {
    this.taskUri = f;
    this.host.refresh();
  }

  /** Installs what task rows say after their marks. */
  setTaskNote(f: TaskNote): void {
    this.taskNote = f;
    this.host.refresh();
  }

  /** Installs what is added to contributed nodes' items as they render. */
  setItemDecorator(f: ItemDecorator): void {
    this.decorator = f;
    this.host.refresh();
  }

  /** Re-renders the whole state tree, or (`id`) only the node of that id and what is below it (all of it when that node was never rendered). */
  refresh(id?: string): void {
    this.host.refresh(id === undefined ? undefined : this.nodes.get(id));
  }

  /** A node by id (after it was rendered once), e.g. to reveal a task. */
  nodeById(id: string): AutodevNode | undefined {
    return this.nodes.get(id);
  }

  /** The task node of `taskId` in `folder`, building the path to it if needed. */
  async findTaskNode(folder: AutodevFolder, taskId: string): Promise<AutodevNode | undefined> {
    const id = taskNodeId(folder, taskId);
    if (!this.nodes.has(id)) {
      const rootId = `${folder.folder.uri.toString()}|root`;
      const root = (await this.host.children()).find((n) => n.id === rootId);
      if (root) for (const ph of await this.host.children(root)) await this.host.children(ph);
    }
    return this.nodes.get(id);
  }

  roots(folder: SourceFolder): StateNode[] {
    if (!(folder instanceof AutodevFolder)) return [];
    const root: AutodevNode = { kind: "root", id: `${folder.folder.uri.toString()}|root`, folder };
    this.nodes.set(root.id, root);
    return [root];
  }

  async children(node: StateNode): Promise<StateNode[]> {
    const out = await this.childrenOf(node as AutodevNode);
    for (const n of out) this.nodes.set(n.id, n);
    return out;
  }

  item(node: StateNode): vscode.TreeItem {
    const n = node as AutodevNode;
    const item = autodevNodeItem(n, n.kind === "task" ? this.taskNote?.(n.folder, n.task.id) : null);
    if (n.kind === "task" && this.taskUri) item.resourceUri = this.taskUri(n.folder, n.task.id);
    if (n.kind === "extra") this.decorator?.(n, item);
    return item;
  }

  taskOf(node: StateNode): { folder: SourceFolder; taskId: string } | null {
    const n = node as AutodevNode;
    return n.kind === "task" ? { folder: n.folder, taskId: n.task.id } : null;
  }

  private async childrenOf(node: AutodevNode): Promise<AutodevNode[]> {
    switch (node.kind) {
      case "root": {
        const own = this.rootChildren(node);
        const f = node.folder;
        const extra = this.rootContributor && f.plan && !f.timeTravel ? await this.rootContributor(f, node) : [];
        const run =
          this.runContributor && !f.timeTravel ? this.runContributor.around(f, node) : { top: [], bottom: [] };
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
            }) as AutodevNode,
        );
      case "task": {
        const run = this.runContributor ? this.runContributor.task(node.folder, node) : [];
        const evidence = this.contributor ? await this.contributor(node.folder, node.task, node) : [];
        return taskChildren(node, [...run, ...evidence]);
      }
      case "group":
        return node.children();
      case "extra":
        return node.children ? node.children() : [];
      default:
        return [];
    }
  }

  private rootChildren(node: Extract<AutodevNode, { kind: "root" }>): AutodevNode[] {
    const f = node.folder;
    const out: AutodevNode[] = [];
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
    const plan = f.plan;
    if (!plan) {
      const label = f.error
        ? vscode.l10n.t("Cannot read the ledger: {0}", f.error)
        : f.report === null
          ? vscode.l10n.t("Loading…")
          : f.timeTravel
            ? vscode.l10n.t("No plan at this entry")
            : f.hasLedger !== false
              ? vscode.l10n.t("No plan yet: the ledger is empty")
              : vscode.l10n.t("No plan yet: the plan phase has not stored one (no ledger)");
      out.push({ kind: "info", id: `${node.id}|empty`, parent: node, icon: f.error ? "error" : "info", label });
      return out;
    }
    for (const phase of plan.phases) {
      out.push({ kind: "phase", id: phaseNodeId(f, phase.id), folder: f, parent: node, phase });
    }
    return out;
  }
}
