/**
 * The run state of every AutoDev folder (running, inline suspension, tournaments, knowledge,
 * config, spec, what comes next). Each folder's refresh brings it along, read by the worker in
 * the same turn as the ledger, so this view only tells its listeners (the run status item, the
 * tree's run nodes) when a folder changed. A release of the lock changes no file, so while some
 * folder runs its lock is probed every second (one line to a long-lived probe process,
 * lockProber.ts) and a change refreshes the folder, as does a change of `.autodev/`'s folder stamp
 * (a write the file watcher missed: folderStamp.ts); while nothing runs nothing is polled: taking
 * the lock opens `.autodev/.lock`, and the folder's watcher hears it.
 */
import * as vscode from "vscode";
import type { AutodevRunView } from "../../../../core/sources/autodev/run/runView";
import { Disposable } from "../../../disposable";
import type { OutputLog } from "../../../outputLog";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import type { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevFolders } from "../folder/autodevFolders";
import { autodevRequest } from "../autodevRequest";

/** How often the lock of a running folder is probed. */
const PROBE_RUNNING_MS = 1000;

/** Run views of every folder, as their refreshes bring them. */
export class AutodevRunStateView extends Disposable {
  private readonly subscriptions = new Map<AutodevFolder, vscode.Disposable>();
  private readonly shown = new Map<AutodevFolder, AutodevRunView | null>();
  private poll: NodeJS.Timeout | null = null;
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

  /** Reads one folder's run state now (with everything else its refresh reads). */
  async refresh(folder: AutodevFolder): Promise<void> {
    await folder.refreshLedger();
  }

  private sync(): void {
    if (this.isDisposed) return;
    const live = new Set(this.folders.folders);
    let removed = false;
    for (const [folder, sub] of this.subscriptions) {
      if (live.has(folder)) continue;
      sub.dispose();
      this.subscriptions.delete(folder);
      this.shown.delete(folder);
      removed = true;
    }
    // A removed folder's wait or run leaves the status bar now, not at the next read of another folder.
    if (removed) this.changed.fire(undefined);
    for (const folder of live) {
      if (this.subscriptions.has(folder)) continue;
      this.subscriptions.set(
        folder,
        folder.onDidChange(() => this.heard(folder)),
      );
      this.heard(folder);
    }
    this.schedulePoll();
  }

  private heard(folder: AutodevFolder): void {
    if (this.shown.get(folder) === folder.run) return;
    this.shown.set(folder, folder.run);
    this.changed.fire(folder);
    this.schedulePoll();
  }

  /** Probes every second while some folder runs; stops while none does. */
  private schedulePoll(): void {
    const running = this.all.some((x) => x.view.running === true);
    if (running && !this.poll) this.poll = setInterval(() => void this.probeRunning(), PROBE_RUNNING_MS);
    else if (!running && this.poll) {
      clearInterval(this.poll);
      this.poll = null;
    }
  }

  private async probeRunning(): Promise<void> {
    for (const { folder, view } of this.all) {
      if (view.running !== true) continue;
      const probe = await autodevRequest(this.worker, folder.cwd, { type: "runView", probeOnly: true }).catch((e) => {
        this.log.error(`lock probe of ${folder.folder.name}`, e);
        return null;
      });
      // A changed folder stamp: AutoDev wrote something the file watcher may have missed (folderStamp.ts).
      const missed = probe !== null && probe.stamp !== null && view.stamp !== null && probe.stamp !== view.stamp;
      if (probe && (probe.running !== view.running || missed)) folder.runningChanged();
    }
  }

  private stop(): void {
    if (this.poll) clearInterval(this.poll);
    for (const sub of this.subscriptions.values()) sub.dispose();
    this.subscriptions.clear();
  }
}
