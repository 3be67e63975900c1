/**
 * The Plan view's nodes for generic sources: one root per (folder, source),
 * then the source's {@link SourceTreeNode}s wrapped as Plan nodes with
 * parents (so `reveal` works) and window-unique ids
 * (`<folder uri>|<kind>|<node id>`). Rebuilt when a source's generation changes.
 */
import * as vscode from "vscode";
import type { SourceTreeNode } from "../../core/sources/stateSource";
import type { PlanNode } from "../planTreeNodes";
import type { SourceFolderState } from "./sourceFolderState";
import { sourceNodeItem, sourceRootItem } from "./sourceTreeItems";

type RootNode = Extract<PlanNode, { kind: "sourceRoot" }>;
type WrappedNode = Extract<PlanNode, { kind: "sourceNode" }>;

interface Built {
  readonly generation: number;
  readonly root: RootNode;
  readonly top: PlanNode[];
  readonly byLocalId: Map<string, WrappedNode>;
}

/** Builds and caches the wrapped nodes of every source. */
export class SourceTreeModel {
  private readonly built = new Map<string, Built>();

  /** The root node of a source. */
  root(state: SourceFolderState): RootNode {
    return this.build(state).root;
  }

  /** Children of a source root or source node. */
  children(node: RootNode | WrappedNode): PlanNode[] {
    if (node.kind === "sourceRoot") return this.build(node.state).top;
    const b = this.build(node.state);
    return (node.node.children ?? [])
      .map((c) => b.byLocalId.get(c.id))
      .filter((n): n is WrappedNode => n !== undefined);
  }

  /** The wrapped node of a source-local id (for `reveal` targets). */
  find(state: SourceFolderState, localId: string): WrappedNode | undefined {
    return this.build(state).byLocalId.get(localId);
  }

  /** The tree item of a source root or node. */
  item(node: RootNode | WrappedNode, multiFolder: boolean): vscode.TreeItem {
    return node.kind === "sourceRoot"
      ? sourceRootItem(node.state, node.id, multiFolder)
      : sourceNodeItem(node.state, node.node, node.id);
  }

  /** Drops the cache of sources that are gone. */
  retain(live: readonly SourceFolderState[]): void {
    const keys = new Set(live.map((s) => s.key));
    for (const k of [...this.built.keys()]) if (!keys.has(k)) this.built.delete(k);
  }

  private build(state: SourceFolderState): Built {
    const cached = this.built.get(state.key);
    if (cached && cached.generation === state.generation && cached.root.state === state) return cached;
    const root: RootNode = { kind: "sourceRoot", id: `${state.key}|root`, state };
    const byLocalId = new Map<string, WrappedNode>();
    const wrap = (n: SourceTreeNode, parent: PlanNode): WrappedNode => {
      const w: WrappedNode = { kind: "sourceNode", id: `${state.key}|${n.id}`, state, parent, node: n };
      if (!byLocalId.has(n.id)) byLocalId.set(n.id, w);
      for (const c of n.children ?? []) wrap(c, w);
      return w;
    };
    const top: PlanNode[] = [];
    if (state.error) {
      top.push(info(root, "error", vscode.l10n.t("Cannot read {0}: {1}", state.source.relDir, state.error), "error"));
    } else if (state.problems === null && state.tree.length === 0) {
      top.push(info(root, "loading", vscode.l10n.t("Loading…"), "info"));
    }
    top.push(...state.tree.map((n) => wrap(n, root)));
    const b = { generation: state.generation, root, top, byLocalId };
    this.built.set(state.key, b);
    return b;
  }
}

function info(root: RootNode, suffix: string, label: string, icon: string): PlanNode {
  return {
    kind: "info",
    id: `${root.id}|${suffix}`,
    parent: root,
    label,
    icon,
    color: icon === "error" ? "errorForeground" : undefined,
  };
}
