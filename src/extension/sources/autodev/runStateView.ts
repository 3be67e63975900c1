/**
 * The run state of every AutoDev folder (running, inline suspension, tournaments, knowledge,
 * config, spec, what comes next), computed in the worker from the plan the folder already has.
 * Refreshed when the folder changes and when a run-state file changes (debounced); while
 * AutoDev runs, the lock is probed every 2 s, because releasing it changes no file (every 15 s
 * otherwise, in case a watcher misses the lock file's truncation on acquire).
 */
import * as vscode from "vscode";
import type { AutodevRunView } from "../../../core/sources/autodev/run/runView";
import { runPlanOf } from "../../../core/sources/autodev/run/runState";
import { Disposable } from "../../disposable";
import { LedgerWorkerClient } from "../../ledgerWorkerClient";
import { OutputLog } from "../../outputLog";
import { AutodevFolder } from "./autodevFolder";
import { AutodevWorkspaces } from "./autodevWorkspaces";

/** Files whose change means "read the run state again" (relative to the workspace folder). */
export const RUN_STATE_GLOB =
  ".autodev/{config.json,spec.md,inline-state.json,knowledge.jsonl,rejected_lessons.jsonl,.lock,responses/**,delegations/**,tournaments/**,evidence/*-tournament.json}";
const DEBOUNCE_MS = 300;
const POLL_RUNNING_MS = 2000;
const POLL_IDLE_MS = 15_000;

/** Run views by folder, kept fresh. */
export class AutodevRunStateView extends Disposable {
  private readonly views = new Map<string, AutodevRunView>();
  private readonly watchers = new Map<string, vscode.Disposable>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private poll: NodeJS.Timeout | null = null;
  private pollMs = 0;
  private readonly changed = this.register(new vscode.EventEmitter<AutodevFolder | undefined>());
  /** Fires after a folder's view changed (undefined: several). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly workspaces: AutodevWorkspaces,
    private readonly worker: LedgerWorkerClient,
    private readonly log: OutputLog,
  ) {
    super();
    this.register(workspaces.onDidChange(() => this.sync()));
    this.register({ dispose: () => this.stop() });
    this.sync();
  }

  /** The view of a folder (null until first read). */
  of(folder: AutodevFolder): AutodevRunView | null {
    return this.views.get(folder.cwd) ?? null;
  }

  /** Every folder's view, in folder order. */
  get all(): Array<{ folder: AutodevFolder; view: AutodevRunView }> {
    return this.workspaces.folders.flatMap((folder) => {
      const view = this.views.get(folder.cwd);
      return view ? [{ folder, view }] : [];
    });
  }

  /** Reads one folder's run state now. */
  async refresh(folder: AutodevFolder): Promise<void> {
    try {
      const view = await this.worker.request({
        type: "autodevRunView",
        cwd: folder.cwd,
        plan: runPlanOf(folder.live),
        probeOnly: false,
      });
      if (this.isDisposed) return;
      this.views.set(folder.cwd, view);
      this.changed.fire(folder);
      this.schedulePoll();
    } catch (e) {
      this.log.error(`run state of ${folder.folder.name}`, e);
    }
  }

  /** Reads every folder's run state now. */
  async refreshAll(): Promise<void> {
    await Promise.all(this.workspaces.folders.map((f) => this.refresh(f)));
  }

  private sync(): void {
    if (this.isDisposed) return;
    const live = new Set(this.workspaces.folders.map((f) => f.cwd));
    for (const [cwd, w] of this.watchers) {
      if (live.has(cwd)) continue;
      w.dispose();
      this.watchers.delete(cwd);
      this.views.delete(cwd);
    }
    for (const folder of this.workspaces.folders) {
      if (!this.watchers.has(folder.cwd)) {
        const watcher = vscode.workspace.createFileSystemWatcher(
          new vscode.RelativePattern(folder.folder, RUN_STATE_GLOB),
        );
        const bump = () => this.debounced(folder);
        watcher.onDidCreate(bump);
        watcher.onDidChange(bump);
        watcher.onDidDelete(bump);
        this.watchers.set(folder.cwd, watcher);
      }
      this.debounced(folder);
    }
  }

  private debounced(folder: AutodevFolder): void {
    clearTimeout(this.timers.get(folder.cwd));
    this.timers.set(
      folder.cwd,
      setTimeout(() => void this.refresh(folder), DEBOUNCE_MS),
    );
  }

  /**
   * Probes the locks every 2 s while some folder is running (a release changes no file), else
   * every 15 s as a fallback for file systems whose watchers miss the lock file's truncation.
   */
  private schedulePoll(): void {
    const want = this.all.some((x) => x.view.running === true) ? POLL_RUNNING_MS : POLL_IDLE_MS;
    if (this.poll && this.pollMs === want) return;
    if (this.poll) clearInterval(this.poll);
    this.pollMs = want;
    this.poll = setInterval(() => void this.probeRunning(), want);
  }

  private async probeRunning(): Promise<void> {
    for (const { folder, view } of this.all) {
      const probe = await this.worker
        .request({ type: "autodevRunView", cwd: folder.cwd, plan: null, probeOnly: true })
        .catch(() => null);
      if (probe && probe.running !== view.running) await this.refresh(folder);
    }
    this.schedulePoll();
  }

  private stop(): void {
    if (this.poll) clearInterval(this.poll);
    for (const t of this.timers.values()) clearTimeout(t);
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
  }
}
