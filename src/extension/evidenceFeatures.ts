/**
 * Registers the evidence features: the `autodev-evidence` document provider,
 * the evidence nodes under every task of the Plan view, the missing-evidence
 * badges, the diff opener and the evidence commands. Everything is disposed
 * with the extension.
 */
import * as vscode from "vscode";
import { AutodevWorkspaces } from "./autodevWorkspaces";
import { CommandManager } from "./commandManager";
import { EvidenceCommands } from "./evidenceCommands";
import { EvidenceContentProvider } from "./evidenceContentProvider";
import { EvidenceDiffOpener } from "./evidenceDiffOpener";
import { EvidenceTaskDecorations } from "./evidenceTaskDecorations";
import { EvidenceTreeContributor } from "./evidenceTreeContributor";
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

/** Handles to the evidence features (for tests and other features). */
export interface EvidenceFeatures {
  readonly content: EvidenceContentProvider;
  readonly contributor: EvidenceTreeContributor;
  readonly opener: EvidenceDiffOpener;
  readonly commands: EvidenceCommands;
  readonly decorations: EvidenceTaskDecorations;
}

/** Registers evidence nodes, commands and providers. */
export function registerEvidenceFeatures(context: vscode.ExtensionContext, services: EvidenceServices): EvidenceFeatures {
  const content = new EvidenceContentProvider(services.workspaces);
  const contributor = new EvidenceTreeContributor(services.tree, content, services.log);
  const opener = new EvidenceDiffOpener(content, services.log);
  const commands = new EvidenceCommands(content, opener, contributor, services.picker);
  const decorations = new EvidenceTaskDecorations(services.workspaces, contributor);
  services.commands.registerAll(commands.handlers());
  context.subscriptions.push(content, contributor, decorations);
  return { content, contributor, opener, commands, decorations };
}
