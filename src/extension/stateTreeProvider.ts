/**
 * The State view (`autodev.plan`): per workspace folder, the roots of each of its sources, in the
 * order sources are registered, each node rendered by the adapter that made it. The tree knows a
 * node's adapter by the root it descends from, so adapters build their nodes as they like.
 */
import * as vscode from "vscode";
import { Disposable } from "./disposable";
import type { SourceAdapter, SourceFolder, StateNode } from "./sources/sourceAdapter";
import type { StateFolders } from "./sources/stateFolders";

/** TreeDataProvider of the State view. */
export class StateTreeProvider extends Disposable implements vscode.TreeDataProvider<StateNode> {
  private readonly changed = this.register(new vscode.EventEmitter<StateNode | undefined | void>());
  readonly onDidChangeTreeData = this.changed.event;
  private readonly owners = new WeakMap<StateNode, SourceAdapter>();
  private readonly rootFolders = new WeakMap<StateNode, SourceFolder>();

  /** `onRoots`: called each time the tree answers with roots (the first one is the first paint). */
  constructor(
    private readonly folders: StateFolders,
    private readonly adapterOf: (kind: string) => SourceAdapter,
    private readonly onRoots: () => void = () => undefined,
  ) {
    super();
    this.register(folders.onDidChange(() => this.changed.fire()));
  }

  /** Re-renders everything, or only `node` and its descendants. */
  refresh(node?: StateNode): void {
    this.changed.fire(node);
  }

  /** The adapter whose node this is (found through the node's ancestors when the tree did not list it). */
  private ownerOf(node: StateNode): SourceAdapter {
    const owner = this.findOwner(node);
    if (!owner) throw new Error(vscode.l10n.t("the state tree does not know node {0}", node.id));
    return owner;
  }

  private findOwner(node: StateNode): SourceAdapter | undefined {
    for (let n: StateNode | null | undefined = node; n; n = n.parent) {
      const owner = this.owners.get(n);
      if (!owner) continue;
      if (n !== node) this.owners.set(node, owner);
      return owner;
    }
    return undefined;
  }

  /** The roots of one source (listed, so their descendants can be found). */
  rootsOf(folder: SourceFolder): StateNode[] {
    const adapter = this.adapterOf(folder.kind);
    const roots = adapter.tree.roots(folder);
    for (const r of roots) {
      this.owners.set(r, adapter);
      this.rootFolders.set(r, folder);
    }
    return roots;
  }

  getParent(node: StateNode): StateNode | undefined {
    return node.parent ?? undefined;
  }

  async getChildren(node?: StateNode): Promise<StateNode[]> {
    if (!node) {
      const out: StateNode[] = [];
      for (const wf of vscode.workspace.workspaceFolders ?? []) {
        for (const folder of this.folders.of(wf)) out.push(...this.rootsOf(folder));
      }
      if (out.length > 0) this.onRoots();
      return out;
    }
    const owner = this.ownerOf(node);
    const kids = await owner.tree.children(node);
    for (const k of kids) this.owners.set(k, owner);
    return kids;
  }

  getTreeItem(node: StateNode): vscode.TreeItem {
    return this.ownerOf(node).tree.item(node, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  }

  /** The source and task a node stands for, if any (the timeline follows the tree's selection). */
  taskOf(node: StateNode): { folder: SourceFolder; taskId: string } | null {
    return this.findOwner(node)?.tree.taskOf?.(node) ?? null;
  }

  /** The source a node belongs to (through its root), if the tree listed that root. */
  folderOf(node: StateNode): SourceFolder | undefined {
    let root: StateNode = node;
    while (root.parent) root = root.parent;
    return this.rootFolders.get(root);
  }
}
