/**
 * What the extension hands every source adapter when it makes it: the shared services (worker,
 * settings, log, commands, read-only documents), the folder registry and the state tree. An
 * adapter registers its commands, providers and status items from these; it never reaches the
 * composition root.
 */
import type * as vscode from "vscode";
import type { CommandManager } from "../commandManager";
import type { OutputLog } from "../outputLog";
import type { ReadOnlyDocuments } from "../readOnlyDocuments";
import type { SettingsReader } from "../settings/settings";
import type { StateWorkerClient } from "../stateWorkerClient";
import type { SourceAdapter, StateNode } from "./sourceAdapter";
import type { StateFolders } from "./stateFolders";

/** The state tree, as adapters use it. */
export interface TreeHost {
  /** Renders the whole tree again, or only `node` and what is below it. */
  refresh(node?: StateNode): void;
  /** The children of a node (the roots for none), as the view would list them. */
  children(node?: StateNode): Promise<StateNode[]>;
  /** Reveals a node in the view. */
  reveal(node: StateNode, options: { select?: boolean; focus?: boolean; expand?: boolean | number }): Promise<void>;
  /** True while the view is visible. */
  readonly visible: boolean;
  /** The id of the first selected node, if any. */
  readonly selectedId: string | undefined;
  /** Fires with the node the user selected first (or undefined when the selection is empty). */
  readonly onDidSelect: vscode.Event<StateNode | undefined>;
  /**
   * Fires when the user ticks or clears the checkboxes of nodes (an item with `checkboxState`;
   * the tree never checks a node's children or parent by itself: each node is its own box).
   */
  readonly onDidChangeCheckbox: vscode.Event<readonly { readonly node: StateNode; readonly checked: boolean }[]>;
}

/** Services an adapter is made with. */
export interface AdapterHost {
  readonly context: vscode.ExtensionContext;
  readonly worker: StateWorkerClient;
  readonly log: OutputLog;
  readonly settings: SettingsReader;
  readonly commands: CommandManager;
  readonly docs: ReadOnlyDocuments;
  readonly folders: StateFolders;
  readonly tree: TreeHost;
  /**
   * Runs `work` once the state tree first answered with roots (at once after that): what the
   * first paint does not need (providers behind commands, status items) waits for it.
   */
  afterPaint(work: () => void): void;
}

/** Makes a source's adapter at activation (one line per source in sourceAdapters.ts). */
export type SourceAdapterFactory = (host: AdapterHost) => SourceAdapter;
