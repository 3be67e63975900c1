/**
 * The default adapter's tree: one root per (folder, source), then the source's
 * {@link SourceTreeNode}s wrapped as state nodes with parents (so `reveal` works) and
 * window-unique ids (`<folder uri>|<kind>|<node id>`). Rebuilt when a source's generation changes.
 */
import * as vscode from "vscode";
import type { SourceTreeNode } from "../../core/sources/stateSource";
import type { DefaultSourceFolder } from "./defaultSourceFolder";
import type { StateNode } from "./sourceAdapter";
import { sourceNodeItem, sourceRootItem } from "./sourceTreeItems";

/** A node of the default adapter. */
export type DefaultNode =
  | { readonly kind: "sourceRoot"; readonly id: string; readonly state: DefaultSourceFolder; readonly parent?: null }
  | {
      readonly kind: "sourceNode";
      readonly id: string;
      readonly state: DefaultSourceFolder;
      readonly parent: StateNode;
      readonly node: SourceTreeNode;
    }
  | {
      readonly kind: "sourceInfo";
      readonly id: string;
      readonly parent: StateNode;
      readonly label: string;
      readonly icon: string;
    };

type RootNode = Extract<DefaultNode, { kind: "sourceRoot" }>;
type WrappedNode = Extract<DefaultNode, { kind: "sourceNode" }>;

interface Built {
  readonly generation: number;
  readonly root: RootNode;
  readonly top: DefaultNode[];
  readonly byLocalId: Map<string, WrappedNode>;
}

/** Builds and caches the wrapped nodes of every source. */
export class SourceTreeModel {
  private readonly built = new Map<string, Built>();

  /** The root node of a source. */
  root(state: DefaultSourceFolder): RootNode {
    return this.build(state).root;
  }

  /** Children of a source root or source node. */
  children(node: DefaultNode): DefaultNode[] {
    if (node.kind === "sourceInfo") return [];
    if (node.kind === "sourceRoot") return this.build(node.state).top;
    const b = this.build(node.state);
    return (node.node.children ?? [])
      .map((c) => b.byLocalId.get(c.id))
      .filter((n): n is WrappedNode => n !== undefined);
  }

  /** The wrapped node of a source-local id (for `reveal` targets). */
  find(state: DefaultSourceFolder, localId: string): WrappedNode | undefined {
    return this.build(state).byLocalId.get(localId);
  }

  /** The tree item of a source root or node. */
  item(node: DefaultNode, multiFolder: boolean): vscode.TreeItem {
    if (node.kind === "sourceRoot") return sourceRootItem(node.state, node.id, multiFolder);
    if (node.kind === "sourceNode") return sourceNodeItem(node.state, node.node, node.id);
    const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.None);
    item.id = node.id;
    item.iconPath = new vscode.ThemeIcon(
      node.icon,
      node.icon === "error" ? new vscode.ThemeColor("errorForeground") : undefined,
    );
    return item;
  }

  /** Drops the cache of sources that are gone. */
  retain(live: readonly DefaultSourceFolder[]): void {
    const keys = new Set(live.map((s) => s.key));
    for (const k of [...this.built.keys()]) if (!keys.has(k)) this.built.delete(k);
  }

  private build(state: DefaultSourceFolder): Built {
    const cached = this.built.get(state.key);
    if (cached && cached.generation === state.generation && cached.root.state === state) return cached;
    const root: RootNode = { kind: "sourceRoot", id: `${state.key}|root`, state };
    const byLocalId = new Map<string, WrappedNode>();
    const wrap = (n: SourceTreeNode, parent: StateNode): WrappedNode => {
      const w: WrappedNode = { kind: "sourceNode", id: `${state.key}|${n.id}`, state, parent, node: n };
      if (!byLocalId.has(n.id)) byLocalId.set(n.id, w);
      for (const c of n.children ?? []) wrap(c, w);
      return w;
    };
    const top: DefaultNode[] = [];
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

function info(root: RootNode, suffix: string, label: string, icon: string): DefaultNode {
  return { kind: "sourceInfo", id: `${root.id}|${suffix}`, parent: root, label, icon };
}
