/**
 * The palette commands sources declare (`StateSource.commands`, e.g. "agloop: Recover from
 * Checkpoint…"): a picker of the nodes that offer the command's action — over every folder of the
 * source, each item with its time relative and absolute — then the action through the one confirmed
 * path (preview, modal, run). The same action from a node's context menu runs on that node, and a
 * `choose` target (a click on "state.json does not parse") opens the picker for its folder.
 */
import * as vscode from "vscode";
import type { NodeAction, SourceCommand, SourceTreeNode } from "../../core/sources/stateSource";
import { SOURCE_MANIFESTS } from "../../core/sources/manifestRegistry";
import type { CommandManager } from "../commandManager";
import type { ConfirmAsk } from "../confirm";
import { whenText } from "../text/dateText";
import { DefaultSourceFolder } from "./defaultSourceFolder";
import type { StateFolders } from "./stateFolders";

/** Every action `action` offered in `nodes` and below, in tree order. */
function offeredActions(nodes: readonly SourceTreeNode[], action: string): NodeAction[] {
  const out: NodeAction[] = [];
  const walk = (list: readonly SourceTreeNode[]) => {
    for (const n of list) {
      for (const a of n.actions ?? []) if (a.action === action) out.push(a);
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** One picker item: the action of one folder. */
interface ActionPick extends vscode.QuickPickItem {
  readonly state: DefaultSourceFolder;
  readonly offer: NodeAction;
}

/** Runs a source action after its preview and confirmation (the target opener's path). */
export type RunSourceAction = (
  state: DefaultSourceFolder,
  action: string,
  args: readonly string[],
  ask?: ConfirmAsk,
) => Promise<unknown>;

/** Registers the declared commands and answers `choose` targets. */
export class SourceActionCommands {
  constructor(
    private readonly folders: StateFolders,
    private readonly run: RunSourceAction,
  ) {}

  /** Registers every source's commands (palette and node menu) with `commands`. */
  register(commands: CommandManager): void {
    for (const source of SOURCE_MANIFESTS) {
      for (const c of source.commands ?? []) {
        commands.registerAll({
          [c.command]: () => this.pickAndRun(source.kind, c),
          [c.nodeCommand]: (node) => this.runOnNode(c, node),
        });
      }
    }
  }

  /** The picker's items for `action` over `states`. */
  picks(states: readonly DefaultSourceFolder[], action: string): ActionPick[] {
    const multi = new Set(states.map((s) => s.folder.name)).size > 1;
    return states.flatMap((state) =>
      offeredActions(state.tree, action).map((offer) => ({
        label: offer.label,
        description: [offer.time ? whenText(offer.time) : "", offer.description ?? "", multi ? state.folder.name : ""]
          .filter(Boolean)
          .join(" · "),
        detail: offer.detail,
        state,
        offer,
      })),
    );
  }

  /** The palette command: pick among every folder's offers of the action, then run it. */
  async pickAndRun(kind: string, c: SourceCommand, states?: readonly DefaultSourceFolder[]): Promise<unknown> {
    const all =
      states ?? this.folders.ofKind(kind).filter((s): s is DefaultSourceFolder => s instanceof DefaultSourceFolder);
    const items = this.picks(all, c.action);
    if (items.length === 0) {
      // The source's words come from src/core (English, as the CLI's are).
      void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: {0}", c.none));
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(items, { placeHolder: c.placeHolder, matchOnDetail: true });
    return pick ? this.run(pick.state, pick.offer.action, pick.offer.args) : undefined;
  }

  /** The node menu's command: the action the node offers, on that node. */
  async runOnNode(c: SourceCommand, node: unknown, ask?: ConfirmAsk): Promise<unknown> {
    const n = node as { kind?: unknown; state?: unknown; node?: SourceTreeNode } | undefined;
    const offer = n?.node?.actions?.find((a) => a.action === c.action);
    if (n?.kind !== "sourceNode" || !(n.state instanceof DefaultSourceFolder) || !offer) {
      const source = SOURCE_MANIFESTS.find((s) => s.commands?.includes(c));
      return this.pickAndRun(source?.kind ?? "", c);
    }
    return this.run(n.state, offer.action, offer.args, ask);
  }

  /** A `choose` target of one folder's node: the picker of that folder's offers. */
  choose(state: DefaultSourceFolder, action: string): Promise<unknown> {
    const source = SOURCE_MANIFESTS.find((s) => s.kind === state.kind);
    const c = source?.commands?.find((x) => x.action === action);
    if (!c) throw new Error(vscode.l10n.t("{0} has no command for the action {1}", state.displayName, action));
    return this.pickAndRun(state.kind, c, [state]);
  }
}
