/**
 * The run state of every AutoDev folder (running, inline suspension, tournaments, knowledge,
 * config, spec, what comes next), computed in the worker from the plan the folder already has and
 * handed to the folder. Read again when the folder's plan changes and when one of its run-state
 * files changes (the folder registry watches and debounces); and the lock is probed every second,
 * running or not: a release changes no file, and neither does a lock taken without truncating
 * `.lock` (flock(1)). A probe is one line to a long-lived probe process (lockProber.ts).
 */
import * as vscode from "vscode";
import { AUTODEV_DIR } from "../../../core/sources/autodev/autodevPaths";
import type { AutodevRunView } from "../../../core/sources/autodev/run/runView";
import { runPlanOf } from "../../../core/sources/autodev/run/runPlan";
import { Disposable } from "../../disposable";
import type { OutputLog } from "../../outputLog";
import type { StateWorkerClient } from "../../stateWorkerClient";
import type { AutodevFolder } from "./autodevFolder";
import type { AutodevFolders } from "./autodevFolders";
import { autodevRequest } from "./autodevRequest";

/** Files under `.autodev/` whose change means "read the run state again". */
const RUN_FILES: ReadonlySet<string> = new Set([
  "config.json",
  "spec.md",
  "inline-state.json",
  "knowledge.jsonl",
  "rejected_lessons.jsonl",
  ".lock",
]);
const RUN_FOLDERS = ["responses/", "delegations/", "tournaments/"];

/** True for a path under `.autodev/` (forward slashes, relative to it) that the run state reads. */
function isRunStateFile(rel: string): boolean {
  if (RUN_FILES.has(rel) || RUN_FOLDERS.some((f) => rel.startsWith(f))) return true;
  return rel.startsWith("evidence/") && !rel.slice(9).includes("/") && rel.endsWith("-tournament.json");
}

const DEBOUNCE_MS = 300;
const POLL_RUNNING_MS = 1000;
const POLL_IDLE_MS = 1000;

/** Run views of every folder, kept fresh. */
export class AutodevRunStateView extends Disposable {
  private readonly subscriptions = new Map<AutodevFolder, vscode.Disposable[]>();
  private readonly timers = new Map<AutodevFolder, NodeJS.Timeout>();
  private poll: NodeJS.Timeout | null = null;
  private pollMs = 0;
  private readonly changed = this.register(new vscode.EventEmitter<AutodevFolder | undefined>());
  /** Fires after a folder's view changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly folders: AutodevFolders,
    private readonly worker: StateWorkerClient,
    private readonly log: OutputLog,
  ) {
    super();
    this.register(folders.onDidChange((f) => f === undefined && this.sync()));
    this.register({ dispose: () => this.stop() });
    this.sync();
  }

  /** The view of a folder (null until first read). */
  of(folder: AutodevFolder): AutodevRunView | null {
    return folder.run;
  }

  /** Every folder's view, in folder order. */
  get all(): Array<{ folder: AutodevFolder; view: AutodevRunView }> {
    return this.folders.folders.flatMap((folder) => (folder.run ? [{ folder, view: folder.run }] : []));
  }

  /** Reads one folder's run state now. */
  async refresh(folder: AutodevFolder): Promise<void> {
    try {
      const view = await autodevRequest(this.worker, folder.cwd, {
        type: "runView",
        plan: runPlanOf(folder.live),
        probeOnly: false,
      });
      if (this.isDisposed) return;
      folder.setRunView(view);
      this.changed.fire(folder);
      this.schedulePoll();
    } catch (e) {
      this.log.error(`run state of ${folder.folder.name}`, e);
    }
  }

  private sync(): void {
    if (this.isDisposed) return;
    const live = new Set(this.folders.folders);
    let removed = false;
    for (const [folder, subs] of this.subscriptions) {
      if (live.has(folder)) continue;
      subs.forEach((d) => d.dispose());
      this.subscriptions.delete(folder);
      clearTimeout(this.timers.get(folder));
      this.timers.delete(folder);
      removed = true;
    }
    // A removed folder's wait or run leaves the status bar now, not at the next read of another folder.
    if (removed) this.changed.fire(undefined);
    for (const folder of live) {
      if (this.subscriptions.has(folder)) continue;
      const prefix = `${folder.folder.uri.path.replace(/\/$/, "")}/${AUTODEV_DIR}/`;
      this.subscriptions.set(folder, [
        folder.onDidChangeLedger(() => this.debounced(folder)),
        folder.onDidChangeFiles((uris) => {
          if (uris.some((u) => u.path.startsWith(prefix) && isRunStateFile(u.path.slice(prefix.length)))) {
            this.debounced(folder);
          }
        }),
      ]);
      this.debounced(folder);
    }
  }

  private debounced(folder: AutodevFolder): void {
    clearTimeout(this.timers.get(folder));
    this.timers.set(
      folder,
      setTimeout(() => void this.refresh(folder), DEBOUNCE_MS),
    );
  }

  /** Probes the locks every second (see the module comment). */
  private schedulePoll(): void {
    const want = this.all.some((x) => x.view.running === true) ? POLL_RUNNING_MS : POLL_IDLE_MS;
    if (this.poll && this.pollMs === want) return;
    if (this.poll) clearInterval(this.poll);
    this.pollMs = want;
    this.poll = setInterval(() => void this.probeRunning(), want);
  }

  private async probeRunning(): Promise<void> {
    for (const { folder, view } of this.all) {
      const probe = await autodevRequest(this.worker, folder.cwd, {
        type: "runView",
        plan: null,
        probeOnly: true,
      }).catch(() => null);
      if (probe && probe.running !== view.running) await this.refresh(folder);
    }
    this.schedulePoll();
  }

  private stop(): void {
    if (this.poll) clearInterval(this.poll);
    for (const t of this.timers.values()) clearTimeout(t);
    for (const subs of this.subscriptions.values()) subs.forEach((d) => d.dispose());
    this.subscriptions.clear();
  }
}
