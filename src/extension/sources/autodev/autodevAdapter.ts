/**
 * AutoDev's adapter: everything the extension does for `.autodev/` beyond the generic hosts — the
 * ledger session per folder (live plan, verification, time travel, history-rewrite warnings), its
 * tree (plan, tasks, evidence, run state), the ledger, task and evidence commands, the run status
 * item, Problems from the ledger and the run state, its status-bar part and its timeline. Registered
 * by one line in ../sourceAdapters.ts.
 */
import * as vscode from "vscode";
import { AUTODEV_DIR } from "../../../core/sources/autodev/autodevPaths";
import type { AdapterHost } from "../adapterHost";
import type { SourceAdapter } from "../sourceAdapter";
import { AutodevFolder } from "./folder/autodevFolder";
import { AutodevFolders } from "./folder/autodevFolders";
import type { AutodevNode } from "./autodevNodes";
import { autodevStatusPart } from "./autodevStatus";
import { AutodevTree } from "./autodevTree";
import type { EvidenceFeatures } from "./evidence/evidenceFeatures";
import { lazyAutodevFeatures } from "./autodevFeatures";
import { FolderPicker } from "./folder/folderPicker";
import { LedgerCommands } from "./ledger/ledgerCommands";
import type { RunStateFeatures } from "./run/runStateFeatures";
import { TaskCommands } from "./ledger/taskCommands";
import type { ResponseValidation } from "./wait/responseValidation";
import { resumeRefusals, resumeTerminals, waitCommandHandlers } from "./wait/waitCommands";

/** AutoDev's handles, for integration tests and other extensions (`activate().adapters.autodev`). */
export interface AutodevApi {
  readonly folders: AutodevFolders;
  readonly tree: AutodevTree;
  readonly tasks: TaskCommands;
  readonly ledger: LedgerCommands;
  readonly evidence: EvidenceFeatures;
  /** The run state: running, inline suspension, tournaments, knowledge, config, spec. */
  readonly run: RunStateFeatures;
  /** Live checks of response files while they are edited. */
  readonly responses: ResponseValidation;
  /** The terminals Resume Run opened. */
  readonly resumeTerminals: readonly vscode.Terminal[];
  /** The reasons Resume Run refused for. */
  readonly resumeRefusals: readonly string[];
  /** The task node of `taskId` in `folder` (the path to it is built if needed). */
  findTaskNode(folder: AutodevFolder, taskId: string): Promise<AutodevNode | undefined>;
}

/**
 * True when evidence may have changed: a file under `.autodev/evidence/` or `.autodev/tournaments/`
 * of `folder`, or `.autodev/` itself (the registry's catch-up read: anything in it may have).
 */
function mayBeEvidence(folder: AutodevFolder, uri: vscode.Uri): boolean {
  const base = `${folder.folder.uri.path.replace(/\/$/, "")}/${AUTODEV_DIR}`;
  const p = uri.path.replace(/\/$/, "");
  return p === base || p.startsWith(`${base}/evidence/`) || p.startsWith(`${base}/tournaments/`);
}

/** Makes AutoDev's adapter and registers its commands; its providers are made on first use (autodevFeatures.ts). */
export function createAutodevAdapter(host: AdapterHost): SourceAdapter {
  const folders = new AutodevFolders(host.folders);
  const picker = new FolderPicker(folders);
  const tree = new AutodevTree(host.tree);
  const ledger = new LedgerCommands(host.worker, picker, host.docs, host.log, host.settings);
  const tasks = new TaskCommands(host.worker, picker, tree, host.tree, host.settings, host.log);
  host.commands.registerAll({
    ...ledger.handlers(),
    ...tasks.handlers(),
    ...waitCommandHandlers(picker, host.settings, host.worker),
  });
  host.context.subscriptions.push(folders);
  const taskNotesChanged = new vscode.EventEmitter<void>();
  host.context.subscriptions.push(taskNotesChanged);
  const features = lazyAutodevFeatures(host, { folders, tree, picker }, (made) =>
    host.context.subscriptions.push(made.evidence.marks.onDidChange(() => taskNotesChanged.fire())),
  );
  const services = {
    worker: host.worker,
    memento: host.context.workspaceState,
    log: host.log,
    revealTask: (folder: unknown, taskId: string, focus: boolean) =>
      folder instanceof AutodevFolder ? tasks.revealIn(folder, taskId, focus) : Promise.resolve(false),
    reviewMarks: (folderUri: string) => features.get().evidence.marks.of(folderUri),
    taskNote: (folder: unknown, taskId: string) =>
      folder instanceof AutodevFolder
        ? features.get().evidence.markTree.noteFor(folder, taskId)
        : Promise.resolve(null),
  };
  const api: AutodevApi = {
    folders,
    tree,
    tasks,
    ledger,
    get evidence() {
      return features.get().evidence;
    },
    get run() {
      return features.get().run;
    },
    get responses() {
      return features.get().responses;
    },
    resumeTerminals,
    resumeRefusals,
    findTaskNode: (folder, taskId) => tree.findTaskNode(folder, taskId),
  };
  return {
    kind: "autodev",
    createFolder(wf, detected, settings) {
      const folder = new AutodevFolder(wf, detected, settings, services, host.settings);
      folder.onDidChangeFiles((uris) => {
        // Evidence not made yet has nothing shown to refresh: it reads what is there when it is made.
        if (uris.some((u) => mayBeEvidence(folder, u))) features.made?.evidence.contributor.scheduleRefresh();
      });
      folder.start();
      return folder;
    },
    tree,
    status: (all) => autodevStatusPart(all.filter((f): f is AutodevFolder => f instanceof AutodevFolder)),
    taskNotes: (folder) =>
      folder instanceof AutodevFolder ? features.get().evidence.markTree.notesOfMarked(folder) : Promise.resolve({}),
    onDidChangeTaskNotes: taskNotesChanged.event,
    api,
  };
}
