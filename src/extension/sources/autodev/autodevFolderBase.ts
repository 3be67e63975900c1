/**
 * What every AutoDev folder is as a {@link SourceFolder}, apart from its ledger: its workspace
 * folder, its key, what detection found, its settings, the services it reads through, and its
 * events — `onDidChange` for the hosts, `onDidChangeLedger` for what depends on the plan (the
 * run view), `onDidChangeFiles` for the adapter's file-driven features (evidence, run state).
 */
import * as vscode from "vscode";
import type { SourceSettings } from "../../../core/sources/stateSource";
import type { DetectedSource } from "../../../core/worker/sourceRequests";
import { Disposable } from "../../disposable";
import type { OutputLog } from "../../outputLog";
import type { StateWorkerClient } from "../../stateWorkerClient";
import type { FolderProblem, FolderTimeline, SourceFolder, WaitingOn } from "../sourceAdapter";

/** What an AutoDev folder reads and reports through. */
export interface FolderServices {
  readonly worker: StateWorkerClient;
  /** The workspace state: verification records and remembered heads survive the window. */
  readonly memento: vscode.Memento;
  readonly log: OutputLog;
  /** Reveals a task of `folder` in the tree; true when the selection changed. */
  revealTask(folder: SourceFolder, taskId: string, focus: boolean): Promise<boolean>;
}

/** The parts of an AutoDev folder that are not about its ledger. */
export abstract class AutodevFolderBase extends Disposable implements SourceFolder {
  readonly kind = "autodev";
  protected readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires after any change the hosts show (plan, report, travel, problems, run view). */
  readonly onDidChange = this.changed.event;
  private readonly ledgerEmitter = this.register(new vscode.EventEmitter<void>());
  /** Fires after the plan, the report, the entries or the time travel changed. */
  readonly onDidChangeLedger = this.ledgerEmitter.event;
  protected readonly filesEmitter = this.register(new vscode.EventEmitter<readonly vscode.Uri[]>());
  /** Fires with the files of `.autodev/` that changed (debounced by the folder registry). */
  readonly onDidChangeFiles = this.filesEmitter.event;
  private progressText: string | null = null;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private detected: DetectedSource,
    private sourceSettings: SourceSettings,
    protected readonly services: FolderServices,
  ) {
    super();
  }

  get displayName(): string {
    return this.detected.displayName;
  }
  /** The folder that contains `.autodev/`. */
  get cwd(): string {
    return this.folder.uri.fsPath;
  }
  get key(): string {
    return `${this.folder.uri.toString()}|${this.kind}`;
  }
  get source(): DetectedSource {
    return this.detected;
  }
  get settings(): SourceSettings {
    return this.sourceSettings;
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

  redetected(detected: DetectedSource, settings: SourceSettings): void {
    this.detected = detected;
    this.sourceSettings = settings;
  }

  /** Tells both the ledger's and the hosts' listeners. */
  protected fireLedger(): void {
    if (this.isDisposed) return;
    this.ledgerEmitter.fire();
    this.changed.fire();
  }

  abstract filesChanged(uris: readonly vscode.Uri[]): void;
  abstract refresh(): Promise<void>;
  abstract readonly problems: readonly FolderProblem[] | null;
  abstract readonly timeline: FolderTimeline | null;
  abstract readonly waiting: WaitingOn | null;
}
