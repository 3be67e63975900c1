/**
 * Registers the evidence features (tree nodes under tasks, diff views,
 * readable bundle views). Filled in by the evidence work; for now nothing.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { CommandManager } from "./commandManager";
import { FolderPicker } from "./folderPicker";
import { OutputLog } from "./outputLog";
import { PlanTreeProvider } from "./planTreeProvider";
import { ReadOnlyDocuments } from "./readOnlyDocuments";

/** Services the evidence features use. */
export interface EvidenceServices {
  readonly workspaces: AutodevWorkspaces;
  readonly tree: PlanTreeProvider;
  readonly commands: CommandManager;
  readonly docs: ReadOnlyDocuments;
  readonly log: OutputLog;
  readonly picker: FolderPicker;
}

/** Registers evidence nodes, commands and providers. */
export function registerEvidenceFeatures(_context: vscode.ExtensionContext, _services: EvidenceServices): void {}
