/**
 * Every state source of every workspace folder, except the kinds an adapter
 * shows itself (AutoDev): detection in the worker, one
 * {@link SourceFolderState} per (folder, kind), a FileSystemWatcher per folder
 * and watch glob (debounced; a change refreshes only that source), watchers
 * on the sources' detect globs (a state folder appearing or going), and the
 * context keys `autodev.hasState` and `autodev.has.<kind>`.
 */
import * as vscode from "vscode";
import { STATE_SOURCES } from "../../core/sources/sourceRegistry";
import { Disposable } from "../disposable";
import { LedgerWorkerClient } from "../ledgerWorkerClient";
import { OutputLog } from "../outputLog";
import { Settings } from "../settings";
import { SourceFolderState } from "./sourceFolderState";
import { watchPattern } from "./watchPattern";

/** A kind shown by its own adapter: its presence still counts for the context keys. */
export interface AdapterPresence {
  readonly kind: string;
  /** True when some workspace folder has this kind. */
  present(): boolean;
  readonly onDidChange: vscode.Event<unknown>;
}

/** The generic sources of the window. */
export class SourceWorkspaces extends Disposable {
  private readonly states = new Map<string, SourceFolderState>();
  private readonly watchers = new Map<string, vscode.Disposable[]>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly detectWatchers: vscode.Disposable[] = [];
  private syncing: Promise<void> = Promise.resolve();
  private readonly changed = this.register(new vscode.EventEmitter<SourceFolderState | undefined>());
  /** Fires with the source that changed (undefined = the set of sources changed). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly worker: LedgerWorkerClient,
    private readonly log: OutputLog,
    private readonly settings: Settings,
    private readonly adapters: readonly AdapterPresence[],
  ) {
    super();
    this.register(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.sync()));
    this.register(vscode.workspace.onDidGrantWorkspaceTrust(() => void this.sync()));
    this.register(
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration("autodev.engineStateDir") && void this.sync(),
      ),
    );
    for (const a of adapters) this.register(a.onDidChange(() => this.updateContextKeys()));
  }

  /** Generic sources, in workspace-folder then registration order. */
  get all(): SourceFolderState[] {
    const order = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
    const kinds = STATE_SOURCES.map((s) => s.kind);
    return [...this.states.values()].sort(
      (a, b) =>
        order.indexOf(a.folder.uri.toString()) - order.indexOf(b.folder.uri.toString()) ||
        kinds.indexOf(a.kind) - kinds.indexOf(b.kind),
    );
  }

  /** The sources of one workspace folder. */
  of(folder: vscode.WorkspaceFolder): SourceFolderState[] {
    return this.all.filter((s) => s.folder.uri.toString() === folder.uri.toString());
  }

  /** A source by its key (`<folder uri>|<kind>`). */
  byKey(key: string): SourceFolderState | undefined {
    return this.states.get(key);
  }

  private handledElsewhere(kind: string): boolean {
    return this.adapters.some((a) => a.kind === kind);
  }

  /** Detects the sources of every folder again; adds, keeps or drops states (runs one at a time). */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.syncNow());
    return this.syncing;
  }

  private async syncNow(): Promise<void> {
    if (this.isDisposed) return;
    this.watchDetection();
    const options = this.settings.detectOptions;
    const seen = new Set<string>();
    for (const wf of vscode.workspace.workspaceFolders ?? []) {
      if (wf.uri.scheme !== "file") continue;
      let found;
      try {
        found = await this.worker.request({ type: "sourceDetect", cwd: wf.uri.fsPath, options });
      } catch (e) {
        this.log.error(`${wf.name}: detecting state sources failed`, e);
        continue;
      }
      for (const d of found) {
        if (this.handledElsewhere(d.kind)) continue;
        const key = `${wf.uri.toString()}|${d.kind}`;
        seen.add(key);
        const known = this.states.get(key);
        if (known) {
          const moved =
            known.source.relDir !== d.relDir || known.source.watchGlobs.join("\n") !== d.watchGlobs.join("\n");
          known.redetected(d, options);
          if (moved) {
            this.unwatch(key);
            this.watch(known);
            void known.refresh();
          }
          continue;
        }
        const state = new SourceFolderState(wf, d, this.worker, this.log, options);
        this.states.set(key, state);
        state.onDidChange(() => this.changed.fire(state));
        this.watch(state);
        this.log.info(`watching ${wf.uri.fsPath}/${d.relDir} (${d.displayName})`);
        void state.refresh();
      }
    }
    for (const [key, state] of this.states) {
      if (seen.has(key)) continue;
      this.states.delete(key);
      this.unwatch(key);
      state.dispose();
    }
    this.changed.fire(undefined);
    this.updateContextKeys();
  }

  private watchDetection(): void {
    this.detectWatchers.splice(0).forEach((d) => d.dispose());
    const globs = STATE_SOURCES.filter((s) => !this.handledElsewhere(s.kind)).flatMap((s) => s.detectGlobs ?? []);
    for (const wf of vscode.workspace.workspaceFolders ?? []) {
      for (const glob of globs) {
        const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(wf, glob), false, true, false);
        const onEvent = () => this.debounce(`detect|${wf.uri.toString()}`, () => void this.sync());
        this.detectWatchers.push(w, w.onDidCreate(onEvent), w.onDidDelete(onEvent));
      }
    }
  }

  private watch(state: SourceFolderState): void {
    const subs: vscode.Disposable[] = [];
    for (const glob of state.source.watchGlobs) {
      const w = vscode.workspace.createFileSystemWatcher(watchPattern(state.folder, glob));
      const onEvent = () => this.debounce(state.key, () => void state.refresh());
      subs.push(w, w.onDidCreate(onEvent), w.onDidChange(onEvent), w.onDidDelete(onEvent));
    }
    this.watchers.set(state.key, subs);
  }

  private unwatch(key: string): void {
    this.watchers.get(key)?.forEach((d) => d.dispose());
    this.watchers.delete(key);
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  private debounce(key: string, run: () => void): void {
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        run();
      }, this.settings.debounceMs),
    );
  }

  private updateContextKeys(): void {
    const present = new Set(this.all.map((s) => s.kind));
    for (const a of this.adapters) if (a.present()) present.add(a.kind);
    for (const s of STATE_SOURCES) {
      void vscode.commands.executeCommand("setContext", `autodev.has.${s.kind}`, present.has(s.kind));
    }
    void vscode.commands.executeCommand("setContext", "autodev.hasState", present.size > 0);
  }

  /** Detects again and re-reads every source. */
  async refreshAll(): Promise<void> {
    await this.sync();
    await Promise.all(this.all.map((s) => s.refresh()));
  }

  override dispose(): void {
    for (const key of [...this.watchers.keys()]) this.unwatch(key);
    for (const t of this.timers.values()) clearTimeout(t);
    this.detectWatchers.splice(0).forEach((d) => d.dispose());
    for (const s of this.states.values()) s.dispose();
    this.states.clear();
    super.dispose();
  }
}
