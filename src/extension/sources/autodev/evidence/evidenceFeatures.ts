/**
 * Registers the evidence features: the `autodev-evidence` document provider,
 * the evidence nodes under every task of the state tree, the missing-evidence
 * badges, the diff opener and the evidence commands' handlers. Everything is disposed
 * with the extension.
 */
import type { StateWorkerClient } from "../../../stateWorkerClient";
import * as vscode from "vscode";
import type { AutodevFolders } from "../folder/autodevFolders";
import { EvidenceCommands } from "./evidenceCommands";
import { EvidenceContentProvider } from "./evidenceContentProvider";
import { EvidenceDiffOpener } from "./evidenceDiffOpener";
import { EvidenceTaskDecorations, taskDecorationUri } from "./evidenceTaskDecorations";
import { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevNode } from "../autodevNodes";
import type { Task } from "../../../../core/sources/autodev/plan/schemas";
import { EvidenceTreeContributor } from "./evidenceTreeContributor";
import { FolderPicker } from "../folder/folderPicker";
import { OutputLog } from "../../../outputLog";
import type { AutodevTree } from "../autodevTree";
import { ReadOnlyDocuments } from "../../../readOnlyDocuments";
import type { TreeHost } from "../../adapterHost";
import { ReviewMarkEditor } from "../review/reviewMarkEditor";
import { ReviewMarkStore } from "../review/reviewMarkStore";
import { ReviewMarkTree } from "../review/reviewMarkTree";

/** Services the evidence features use. */
export interface EvidenceServices {
  readonly folders: AutodevFolders;
  readonly tree: AutodevTree;
  readonly docs: ReadOnlyDocuments;
  readonly log: OutputLog;
  readonly picker: FolderPicker;
  /** The state worker: it reads the evidence. */
  readonly worker: StateWorkerClient;
  /** The state tree's checkbox changes (reviewed marks). */
  readonly onDidChangeCheckbox: TreeHost["onDidChangeCheckbox"];
}

/** Handles to the evidence features (for tests and other features). */
export interface EvidenceFeatures {
  readonly content: EvidenceContentProvider;
  readonly contributor: EvidenceTreeContributor;
  readonly opener: EvidenceDiffOpener;
  readonly commands: EvidenceCommands;
  readonly decorations: EvidenceTaskDecorations;
  /** Reviewed marks: the store, the tree's checkboxes and counts, the diff editor's title commands. */
  readonly marks: ReviewMarkStore;
  readonly markTree: ReviewMarkTree;
  readonly markEditor: ReviewMarkEditor;
}

/** Registers evidence nodes and providers; the commands' handlers are `commands` and `markEditor` (the adapter registers them). */
export function registerEvidenceFeatures(
  context: vscode.ExtensionContext,
  services: EvidenceServices,
): EvidenceFeatures {
  const content = new EvidenceContentProvider(services.folders, services.worker);
  const contributor = new EvidenceTreeContributor(services.tree, content, services.log, services.worker);
  const opener = new EvidenceDiffOpener(content, services.log);
  const commands = new EvidenceCommands(content, opener, contributor, services.picker, services.worker);
  const decorations = new EvidenceTaskDecorations(services.folders, contributor);
  const marks = new ReviewMarkStore(context.workspaceState);
  const markTree = new ReviewMarkTree(marks, services.tree, services.onDidChangeCheckbox, contributor);
  const markEditor = new ReviewMarkEditor(marks, content, contributor);
  services.tree.setTaskResourceUri((folder, taskId) => taskDecorationUri(folder, taskId));
  services.tree.setRootChildContributor((folder, root) => planEvidenceGroup(contributor, folder, root));
  context.subscriptions.push(content, contributor, decorations, marks, markTree, markEditor);
  return { content, contributor, opener, commands, decorations, marks, markTree, markEditor };
}

/** The pseudo task id under which AutoDev files plan-phase evidence (explore, domain expert, critic). */
const PLAN_TASK_ID = "plan";

/** A "Plan evidence" group at the end of a root, when `.autodev/evidence/plan-*.json` exist. */
async function planEvidenceGroup(
  contributor: EvidenceTreeContributor,
  folder: AutodevFolder,
  root: Extract<AutodevNode, { kind: "root" }>,
): Promise<AutodevNode[]> {
  // Task's defaults by hand: the host loads no schema (zod) code, so TaskSchema cannot build it here.
  const pseudo = {
    id: PLAN_TASK_ID,
    phase_id: "",
    title: "Plan",
    description: "",
    status: "pending",
    files: [],
    acceptance: [],
    depends_on: [],
    retry_count: 0,
    escalated: false,
    assigned_agent: null,
    evidence_bundle: null,
    blocked_reason: null,
    metadata: new Map(),
  } as unknown as Task;
  const te = await contributor.taskEvidence(folder, pseudo).catch(() => null);
  if (!te || (te.items.length === 0 && !te.patch)) return [];
  const id = `${root.id}|plan-evidence`;
  const holder: Extract<AutodevNode, { kind: "task" }> = {
    kind: "task",
    id,
    folder,
    parent: root,
    task: pseudo,
    node: { id: "autodev|planEvidence", label: "Plan" },
  };
  return [
    {
      kind: "group",
      id,
      folder,
      parent: root,
      label: vscode.l10n.t("Plan evidence"),
      icon: "archive",
      children: () => contributor.contribute(folder, pseudo, holder),
    },
  ];
}
