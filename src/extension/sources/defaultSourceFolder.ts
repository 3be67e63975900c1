/**
 * One source in one workspace folder as the default adapter keeps it: its problems, its tree and
 * its timeline size, read in the worker through the source-neutral `refresh` request (the core
 * `StateSource` does the work). Refreshes coalesce: a refresh asked during one runs once more after it.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { SourceProblem, SourceSettings, SourceTreeNode, SourceWaiting } from "../../core/sources/stateSource";
import type { DetectedSource } from "../../core/worker/workerProtocol";
import { countProblems } from "../../core/sources/sourceProblems";
import type { IntegritySummary } from "../../protocolTimeline";
import type { OutputLog } from "../outputLog";
import type { StateWorkerClient } from "../stateWorkerClient";
import type { FolderTimeline, WaitingOn } from "./sourceAdapter";
import { SourceFolderBase } from "./sourceFolderBase";
import { errorText } from "../../core/text/errorText";

/**
 * A wait with the buttons every source's wait gets here: show the state view (where the wait leads
 * the source's tree) and open each file the wait names (at most two). Files that would leave the
 * workspace folder are not offered.
 */
export function withOpenActions(folder: vscode.WorkspaceFolder, w: SourceWaiting): WaitingOn {
  const files = w.files.filter((f) => f !== "" && !path.isAbsolute(f) && !f.split(/[\\/]/).includes(".."));
  return {
    ...w,
    actions: [
      { title: vscode.l10n.t("Show in State View"), command: "autodev.plan.focus" },
      ...files.slice(0, 2).map((f) => ({
        title: vscode.l10n.t("Open {0}", path.posix.basename(f.replace(/\\/g, "/"))),
        command: "vscode.open",
        arguments: [vscode.Uri.joinPath(folder.uri, ...f.split(/[\\/]/))],
      })),
    ],
  };
}

/** A (workspace folder, source kind) and what was last read of it. */
export class DefaultSourceFolder extends SourceFolderBase {
  private lastProblems: readonly SourceProblem[] | null = null;
  private lastTree: readonly SourceTreeNode[] = [];
  private rows: number | null = null;
  private lastError: string | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private version = 0;
  private lastWaiting: WaitingOn | null = null;

  constructor(
    folder: vscode.WorkspaceFolder,
    detected: DetectedSource,
    private readonly worker: StateWorkerClient,
    private readonly log: OutputLog,
    settings: SourceSettings = {},
  ) {
    super(folder, detected, settings);
  }

  /** Problems of the last check (null before the first one finished). */
  override get problems(): readonly SourceProblem[] | null {
    return this.lastProblems;
  }
  /** Whom the run waits on, as the source's `waiting` said at the last read (null when it has none). */
  get waiting(): WaitingOn | null {
    return this.lastWaiting;
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

  /** The timeline of a source with one: rows from the worker, no time travel. */
  override get timeline(): FolderTimeline | null {
    if (!this.source.hasTimeline) return null;
    return {
      label: (crowded) => (crowded ? `${this.folder.name} · ${this.displayName}` : this.displayName),
      rows: this.rows ?? 0,
      integrity: this.integrity(),
      travelRowId: null,
    };
  }

  /** Integrity at a glance: the first error (or read failure). */
  private integrity(): IntegritySummary {
    const first = this.lastProblems?.find((p) => p.severity === "error");
    return {
      ok: !first && !this.lastError,
      brokenLine: null,
      message:
        this.lastError ??
        (first ? `${first.file}${first.line !== null ? `:${first.line}` : ""}: ${first.message}` : null),
    };
  }

  override filesChanged(): void {
    void this.refresh();
  }

  /** Reads problems, tree and timeline again in the worker. */
  override async refresh(): Promise<void> {
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
        type: "refresh",
        cwd: this.cwd,
        kind: this.kind,
        settings: this.settings,
      });
      this.lastProblems = r.problems;
      this.lastTree = r.tree;
      this.rows = r.timelineRows;
      this.lastWaiting = r.waiting ? withOpenActions(this.folder, r.waiting) : null;
      this.lastError = null;
      const c = this.counts;
      this.log.info(
        `${this.folder.name}: ${this.displayName} read in ${Math.round(r.ms)} ms (${c.error} errors, ${c.warning} warnings${r.timelineRows !== null ? `, ${r.timelineRows} timeline rows` : ""})`,
      );
    } catch (e) {
      this.lastError = errorText(e);
      this.lastWaiting = null;
      this.log.error(`${this.folder.name}: reading ${this.displayName} failed`, e);
    }
    this.version++;
    if (!this.isDisposed) this.changed.fire();
  }
}
