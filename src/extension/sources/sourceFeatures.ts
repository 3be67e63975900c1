/**
 * Wires the generic state sources into the extension: the folder registry,
 * Problems, node clicks (`autodev.openSourceTarget`) and reveal in the Plan
 * view. AutoDev keeps its own adapter; every other registered source is
 * shown by these classes without any code of its own in src/extension/.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./autodev/autodevWorkspaces";
import { CommandManager } from "../commandManager";
import { LedgerWorkerClient } from "../ledgerWorkerClient";
import { OutputLog } from "../outputLog";
import { PlanNode } from "../planTreeNodes";
import { ReadOnlyDocuments } from "../readOnlyDocuments";
import { Settings } from "../settings";
import { PlanTreeProvider } from "../planTreeProvider";
import { SourceDiagnostics } from "./sourceDiagnostics";
import { SourceTargetOpener } from "./sourceTargetOpener";
import { SourceWorkspaces } from "./sourceWorkspaces";

/** Creates the registry of generic sources; AutoDev's presence comes from its adapter. */
export function createSourceWorkspaces(
  worker: LedgerWorkerClient,
  log: OutputLog,
  settings: Settings,
  autodev: AutodevWorkspaces,
): SourceWorkspaces {
  return new SourceWorkspaces(worker, log, settings, [
    { kind: "autodev", present: () => autodev.folders.length > 0, onDidChange: autodev.onDidChange },
  ]);
}

/** What the source features need from the composition root. */
export interface SourceFeatureServices {
  readonly sources: SourceWorkspaces;
  readonly worker: LedgerWorkerClient;
  readonly docs: ReadOnlyDocuments;
  readonly tree: PlanTreeProvider;
  readonly treeView: () => vscode.TreeView<PlanNode>;
  readonly commands: CommandManager;
}

/** Registers Problems sync and node clicks of the generic sources; returns what tests inspect. */
export function registerSourceFeatures(
  context: vscode.ExtensionContext,
  s: SourceFeatureServices,
): { diagnostics: SourceDiagnostics; opener: SourceTargetOpener } {
  const diagnostics = new SourceDiagnostics(s.sources);
  const opener = new SourceTargetOpener(s.sources, s.worker, s.docs, async (state, localId) => {
    const node = s.tree.findSourceNode(state, localId);
    if (!node) return false;
    await s.treeView().reveal(node, { select: true, focus: true, expand: true });
    return true;
  });
  s.commands.registerAll({
    "autodev.openSourceTarget": (key, target) => opener.open(key, target),
  });
  context.subscriptions.push(diagnostics);
  return { diagnostics, opener };
}
