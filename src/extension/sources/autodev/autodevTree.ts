/**
 * AutoDev's part of the state tree: one root per folder with `.autodev/`, under it the core tree
 * the worker composed with the folder's refresh (tree/stateTree.ts, what `autodevSource.tree`
 * returns: run state, contract, phases → tasks → blocked reason, criteria, dependencies, files,
 * delegations, then what comes next, tournaments, knowledge, config, spec), and what only the
 * editor adds: info rows (time travel, a rewritten history, loading), the evidence under each task
 * and the plan's evidence group in place of the core's plan-phase evidence node (reviewed marks,
 * diffs), task decorations and notes. The state tree asks it for the children and items.
 */
import * as vscode from "vscode";
import type { Task } from "../../../core/sources/autodev/plan/schemas";
import { PLAN_EVIDENCE_NODE, taskNodeKey } from "../../../core/sources/autodev/tree/planSummary";
import type { SourceTreeNode } from "../../../core/sources/stateSource";
import type { TreeHost } from "../adapterHost";
import type { SourceFolder, SourceTree, StateNode } from "../sourceAdapter";
import { AutodevFolder } from "./folder/autodevFolder";
import { AutodevNode, rootNodeId, taskNodeId } from "./autodevNodes";
import { autodevNodeItem, rootInfoNodes } from "./autodevTreeItems";

type RootNode = Extract<AutodevNode, { kind: "root" }>;
type TaskNode = Extract<AutodevNode, { kind: "task" }>;

/** Adds children under a task (the evidence nodes). */
export type TaskChildContributor = (folder: AutodevFolder, task: Task, parent: TaskNode) => Promise<AutodevNode[]>;
/** Adds the plan's evidence group to a folder's root, after the plan. */
export type RootChildContributor = (folder: AutodevFolder, parent: RootNode) => Promise<AutodevNode[]>;
/** Gives a task row a resource URI (for file decorations such as a missing-evidence badge). */
export type TaskResourceUri = (folder: AutodevFolder, taskId: string) => vscode.Uri;
/** What a task row says after its marks ("1/2 reviewed"), or null. */
export type TaskNote = (folder: AutodevFolder, taskId: string) => string | null;
/** Adds to the item of a contributed node as it is rendered (a reviewed mark's checkbox). */
export type ItemDecorator = (node: AutodevNode, item: vscode.TreeItem) => void;

const PHASE_PREFIX = "autodev|phase|";
const TASK_PREFIX = taskNodeKey("");

/** AutoDev's tree contributions. */
export class AutodevTree implements SourceTree {
  private readonly nodes = new Map<string, AutodevNode>();
  private contributor: TaskChildContributor | null = null;
  private rootContributor: RootChildContributor | null = null;
  private taskUri: TaskResourceUri | null = null;
  private taskNote: TaskNote | null = null;
  private decorator: ItemDecorator | null = null;
  private beforeChildren: (() => void) | null = null;

  constructor(private readonly host: TreeHost) {}

  /** Installs the contributor of evidence nodes under tasks. */
  setTaskChildContributor(c: TaskChildContributor): void {
    this.contributor = c;
    this.host.refresh();
  }

  /** Installs the contributor of the plan's evidence group. */
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

  /** Installs what runs before any node's children are listed (the contributors' making, on first use). */
  setBeforeChildren(f: () => void): void {
    this.beforeChildren = f;
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
      const root = (await this.host.children()).find((n) => n.id === rootNodeId(folder));
      if (root) for (const ph of await this.host.children(root)) await this.host.children(ph);
    }
    return this.nodes.get(id);
  }

  roots(folder: SourceFolder): StateNode[] {
    if (!(folder instanceof AutodevFolder)) return [];
    const root: AutodevNode = { kind: "root", id: rootNodeId(folder), folder };
    this.nodes.set(root.id, root);
    return [root];
  }

  async children(node: StateNode): Promise<StateNode[]> {
    this.beforeChildren?.();
    const out = await this.childrenOf(node as AutodevNode);
    for (const n of out) this.nodes.set(n.id, n);
    return out;
  }

  item(node: StateNode): vscode.TreeItem {
    const n = fresh(node as AutodevNode);
    const item = autodevNodeItem(n, n.kind === "task" ? this.taskNote?.(n.folder, n.task.id) : null);
    if (n.kind === "task" && this.taskUri) item.resourceUri = this.taskUri(n.folder, n.task.id);
    if (n.kind === "extra") this.decorator?.(n, item);
    return item;
  }

  taskOf(node: StateNode): { folder: SourceFolder; taskId: string } | null {
    const n = node as AutodevNode;
    return n.kind === "task" ? { folder: n.folder, taskId: n.task.id } : null;
  }

  private async childrenOf(stale: AutodevNode): Promise<AutodevNode[]> {
    const node = fresh(stale);
    switch (node.kind) {
      case "root":
        return this.rootChildren(node);
      case "phase": {
        const tasks = new Map<string, Task>();
        for (const p of node.folder.plan?.phases ?? []) {
          for (const t of p.tasks) if (!tasks.has(t.id)) tasks.set(t.id, t);
        }
        return (node.node.children ?? []).map((c) => wrapTask(node.folder, c, node, tasks));
      }
      case "task": {
        const own = (node.node.children ?? []).map((c) => wrap(node.folder, c, node));
        const evidence = this.contributor ? await this.contributor(node.folder, node.task, node) : [];
        return [...own, ...evidence];
      }
      case "node":
        return (node.node.children ?? []).map((c) => wrap(node.folder, c, node));
      case "group":
        return node.children();
      case "extra":
        return node.children ? node.children() : [];
      default:
        return [];
    }
  }

  private async rootChildren(root: RootNode): Promise<AutodevNode[]> {
    const f = root.folder;
    const out = rootInfoNodes(root);
    const tree = f.tree;
    if (tree === null) return out;
    const shown = tree
      .filter((n) => n.id !== PLAN_EVIDENCE_NODE || !this.rootContributor)
      .map((n): AutodevNode =>
        n.id.startsWith(PHASE_PREFIX) ? { ...wrapFields(f, n, root), kind: "phase" } : wrap(f, n, root),
      );
    // The plan's evidence group (reviewed marks, diffs) follows the plan, where "What comes next" starts.
    if (this.rootContributor && f.plan && !f.timeTravel) {
      const group = await this.rootContributor(f, root);
      const at = shown.findIndex((n) => n.id.endsWith("|autodev|next"));
      shown.splice(at < 0 ? shown.length : at, 0, ...group);
    }
    return [...out, ...shown];
  }
}

/** The core nodes of a folder's tree by id (first of an id wins), made once per tree the worker sent. */
const indexes = new WeakMap<readonly SourceTreeNode[], Map<string, SourceTreeNode>>();

function indexOf(tree: readonly SourceTreeNode[]): Map<string, SourceTreeNode> {
  let index = indexes.get(tree);
  if (!index) {
    const m = new Map<string, SourceTreeNode>();
    const add = (nodes: readonly SourceTreeNode[]) => {
      for (const n of nodes) {
        if (!m.has(n.id)) m.set(n.id, n);
        if (n.children) add(n.children);
      }
    };
    add(tree);
    indexes.set(tree, (index = m));
  }
  return index;
}

/**
 * A wrapped node with the core node its folder shows now: a node handed out before a refresh (a
 * revealed task, a node VS Code kept) renders and expands as the latest tree has it.
 */
function fresh(node: AutodevNode): AutodevNode {
  if (node.kind !== "phase" && node.kind !== "task" && node.kind !== "node") return node;
  const tree = node.folder.tree;
  const now = tree ? indexOf(tree).get(node.node.id) : undefined;
  if (!now || now === node.node) return node;
  if (node.kind !== "task") return { ...node, node: now };
  const task = node.folder.plan?.phases.flatMap((p) => p.tasks).find((t) => t.id === node.task.id) ?? node.task;
  return { ...node, node: now, task };
}

function wrapFields(folder: AutodevFolder, node: SourceTreeNode, parent: AutodevNode) {
  return { id: `${folder.folder.uri.toString()}|${node.id}`, folder, parent, node };
}

/** A child of a phase: a task node when the plan has its task (first of an id wins), else a plain node. */
function wrapTask(
  folder: AutodevFolder,
  n: SourceTreeNode,
  parent: AutodevNode,
  tasks: ReadonlyMap<string, Task>,
): AutodevNode {
  const task = n.id.startsWith(TASK_PREFIX) ? tasks.get(n.id.slice(TASK_PREFIX.length)) : undefined;
  return task ? { ...wrapFields(folder, n, parent), kind: "task", task } : wrap(folder, n, parent);
}

function wrap(folder: AutodevFolder, node: SourceTreeNode, parent: AutodevNode): AutodevNode {
  return { ...wrapFields(folder, node, parent), kind: "node" };
}
