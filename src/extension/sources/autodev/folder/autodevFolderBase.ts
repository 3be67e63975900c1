/**
 * What every AutoDev folder is beside its ledger: the services it reads through, its scan progress
 * and its own events — `onDidChangeLedger` for what depends on the plan (the run view),
 * `onDidChangeFiles` for the adapter's file-driven features (evidence, run state); the hosts'
 * `onDidChange` and the folder's identity come from {@link SourceFolderBase}.
 */
import * as vscode from "vscode";
import type { SourceSettings } from "../../../../core/sources/stateSource";
import type { DetectedSource } from "../../../../core/worker/workerProtocol";
import type { FolderReviewMarks } from "../../../../core/sources/reviewMarkSchema";
import type { OutputLog } from "../../../outputLog";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import type { SourceFolder } from "../../sourceAdapter";
import { SourceFolderBase } from "../../sourceFolderBase";

/** What an AutoDev folder reads and reports through. */
export interface FolderServices {
  readonly worker: StateWorkerClient;
  /** The workspace state: verification records and remembered heads survive the window. */
  readonly memento: vscode.Memento;
  readonly log: OutputLog;
  /** Reveals a task of `folder` in the tree; true when the selection changed. */
  revealTask(folder: SourceFolder, taskId: string, focus: boolean): Promise<boolean>;
  /** The reviewed marks of a workspace folder (by its URI string). */
  reviewMarks?(folderUri: string): FolderReviewMarks;
  /** What the timeline says about a task of `folder` ("1/2 reviewed"), or null. */
  taskNote?(folder: SourceFolder, taskId: string): Promise<string | null>;
}

/** The parts of an AutoDev folder that are not about its ledger. */
export abstract class AutodevFolderBase extends SourceFolderBase {
  /** Python AutoDev writes by atomic replace; a ledger line without its newline is held back (tailHold.ts). */
  readonly readsAtOnce = true;
  private readonly ledgerEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires after the plan, the report, the entries or the time travel changed. */
  readonly onDidChangeLedger = this.ledgerEmitter.event;
  protected readonly filesEmitter = this.register(new vscode.EventEmitter<readonly vscode.Uri[]>());
  /** Fires with the files of `.autodev/` that changed (debounced by the folder registry). */
  readonly onDidChangeFiles = this.filesEmitter.event;
  private progressText: string | null = null;

  constructor(
    folder: vscode.WorkspaceFolder,
    detected: DetectedSource,
    settings: SourceSettings,
    protected readonly services: FolderServices,
  ) {
    super(folder, detected, settings);
  }

  /** The reviewed marks of this folder's diffs. */
  get reviewMarks(): FolderReviewMarks {
    return this.services.reviewMarks?.(this.folder.uri.toString()) ?? {};
  }
  /** Scan progress shown in the status bar ("verifying 42%"), or null. */
  get progress(): string | null {
    return this.progressText;
  }

  /** Shows scan progress in the status bar (null clears it). */
  setProgress(text: string | null): void {
    this.progressText = text;
    this.changed.fire();
  }

  /** Tells both the ledger's and the hosts' listeners. */
  protected fireLedger(): void {
    if (this.isDisposed) return;
    this.ledgerEmitter.fire();
    this.changed.fire();
  }
}
