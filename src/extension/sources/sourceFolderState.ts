/**
 * One state source in one workspace folder, as the UI sees it: its problems,
 * its tree and its timeline size, read in the worker. Refreshes coalesce
 * (a refresh asked during one runs once more after it).
 */
import * as vscode from "vscode";
import type { DetectOptions, SourceProblem, SourceTreeNode } from "../../core/sources/stateSource";
import type { DetectedSource } from "../../core/worker/sourceRequests";
import { countProblems } from "../../core/sources/sourceProblems";
import { Disposable } from "../disposable";
import { LedgerWorkerClient } from "../ledgerWorkerClient";
import { OutputLog } from "../outputLog";

/** A (workspace folder, source kind) and what was last read of it. */
export class SourceFolderState extends Disposable {
  private lastProblems: readonly SourceProblem[] | null = null;
  private lastTree: readonly SourceTreeNode[] = [];
  private rows: number | null = null;
  private lastError: string | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private version = 0;
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires after every refresh (successful or not). */
  readonly onDidChange = this.changed.event;

  constructor(
    readonly folder: vscode.WorkspaceFolder,
    private detected: DetectedSource,
    private readonly worker: LedgerWorkerClient,
    private readonly log: OutputLog,
    private detectOptions: DetectOptions = {},
  ) {
    super();
  }

  /** The source kind ("agloop"). */
  get kind(): string {
    return this.detected.kind;
  }
  /** "agloop", "engine_state". */
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
  /** Problems of the last check (null before the first one finished). */
  get problems(): readonly SourceProblem[] | null {
    return this.lastProblems;
  }
  /** The source's tree as last read. */
  get tree(): readonly SourceTreeNode[] {
    return this.lastTree;
  }
  /** Rows of the source's timeline (null when it has none or it was not read yet). */
  get timelineRows(): number | null {
    return this.rows;
  }
  /** Why the last read failed, or null. */
  get error(): string | null {
    return this.lastError;
  }
  /** Increases with every applied refresh (renderers cache on it). */
  get generation(): number {
    return this.version;
  }
  /** Errors, warnings and infos of the last check. */
  get counts(): { error: number; warning: number; info: number } {
    return countProblems(this.lastProblems ?? []);
  }

  /** The detection options every request about this source carries (settings). */
  get options(): DetectOptions {
    return this.detectOptions;
  }

  /** Takes a new detection result (the state folder may have moved, e.g. a setting changed). */
  redetected(d: DetectedSource, options: DetectOptions): void {
    this.detected = d;
    this.detectOptions = options;
  }

  /** Reads problems, tree and timeline again in the worker. */
  async refresh(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.read();
    try {
      await this.running;
    } finally {
      this.running = null;
      if (this.again && !this.isDisposed) {
        this.again = false;
        void this.refresh();
      }
    }
  }

  private async read(): Promise<void> {
    try {
      const r = await this.worker.request({
        type: "sourceRefresh",
        cwd: this.cwd,
        kind: this.kind,
        options: this.detectOptions,
      });
      this.lastProblems = r.problems;
      this.lastTree = r.tree;
      this.rows = r.timelineRows;
      this.lastError = null;
      const c = this.counts;
      this.log.info(
        `${this.folder.name}: ${this.displayName} read in ${Math.round(r.ms)} ms (${c.error} errors, ${c.warning} warnings${r.timelineRows !== null ? `, ${r.timelineRows} timeline rows` : ""})`,
      );
    } catch (e) {
      this.lastError = e instanceof Error ? e.message : String(e);
      this.log.error(`${this.folder.name}: reading ${this.displayName} failed`, e);
    }
    this.version++;
    if (!this.isDisposed) this.changed.fire();
  }
}
