/**
 * What every {@link SourceFolder} is before what it shows: its workspace folder, what detection
 * found (kind, name, state folder, watch globs), its settings, its key and its change event. The
 * default adapter's folder and AutoDev's extend it and add how they read and what they show.
 */
import * as vscode from "vscode";
import type { SourceSettings } from "../../core/sources/stateSource";
import type { DetectedSource } from "../../core/worker/workerProtocol";
import { Disposable } from "../disposable";
import type { FolderProblem, FolderTimeline, SourceFolder, WaitingOn } from "./sourceAdapter";

/** The identity of a source in a workspace folder. */
export abstract class SourceFolderBase extends Disposable implements SourceFolder {
  protected readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires after anything the hosts show changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private detected: DetectedSource,
    private sourceSettings: SourceSettings,
  ) {
    super();
  }

  /** The source kind ("agloop"). */
  get kind(): string {
    return this.detected.kind;
  }
  /** "AutoDev", "agloop", "engine_state". */
  get displayName(): string {
    return this.detected.displayName;
  }
  /** What detection found (state folder, watch globs, timeline). */
  get source(): DetectedSource {
    return this.detected;
  }
  /** The workspace folder's path. */
  get cwd(): string {
    return this.folder.uri.fsPath;
  }
  /** `<folder uri>|<kind>`: unique in the window, the prefix of every node id. */
  get key(): string {
    return `${this.folder.uri.toString()}|${this.kind}`;
  }
  /** The source's settings for this folder (every request about it carries them). */
  get settings(): SourceSettings {
    return this.sourceSettings;
  }

  redetected(detected: DetectedSource, settings: SourceSettings): void {
    this.detected = detected;
    this.sourceSettings = settings;
  }

  abstract filesChanged(uris: readonly vscode.Uri[]): void;
  abstract refresh(): Promise<void>;
  abstract readonly problems: readonly FolderProblem[] | null;
  abstract readonly timeline: FolderTimeline | null;
  abstract readonly waiting: WaitingOn | null;
}
