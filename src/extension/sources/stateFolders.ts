/**
 * The one registry of state sources in the window: for every workspace folder, detection in the
 * worker (with each source's settings read at that folder's scope), one {@link SourceFolder} per
 * (folder, source) made by the source's adapter, the watching of every source through the one
 * {@link StateWatcher}, one throttle ({@link RefreshSpells}, `autodev.debounceMs`) per source and
 * one per folder's re-detection, and the context keys `autodev.hasState` and `autodev.has.<kind>`. A
 * folder that `readsAtOnce` (its writer replaces files atomically: an agent's write is mostly one
 * replace) is told of the first change after a quiet time at once, so the editor shows it without
 * waiting, and once more at the spell's end when more changes came in it; any other folder at the
 * spell's end only. A spell never grows: a writer that never pauses still shows within the delay.
 *
 * Such a folder's live files (`StateSource.liveFiles`) are also watched by the state worker itself
 * ({@link LiveFiles}), whose events take the same path and make the editor's own event about the
 * same change an echo.
 *
 * A source's watched files changing calls its `filesChanged`; a file of a detect glob appearing or
 * going, a watched file deleted, a folder added, the workspace trusted or a source's setting
 * changed detects the folder again.
 *
 * VS Code's watcher takes a while to start after a watch is asked for (seconds, in a new window or
 * on a folder just added, on a loaded machine), and a change in that time is never announced. So a
 * folder is told "something under the state folder may have changed" (its folder's URI) twice
 * after its watch starts ({@link CATCH_UP_MS}), and never again: no poll while nothing runs.
 *
 * Made with `watchNow` false (the extension's start), it detects and shows its sources but holds
 * the watches and the context keys back until {@link StateFolders.startWatching} (after the state
 * tree's first paint); the folders are then detected once more after the first catch-up time, for
 * a marker that came or went before the watches started.
 */
import * as vscode from "vscode";
import { SOURCE_MANIFESTS } from "../../core/sources/manifestRegistry";
import type { SourceSettings } from "../../core/sources/stateSource";
import { Disposable } from "../disposable";
import type { OutputLog } from "../outputLog";
import type { SettingsReader } from "../settings/settings";
import type { StateWorkerClient } from "../stateWorkerClient";
import type { SourceAdapter, SourceFolder, WaitingOn } from "./sourceAdapter";
import type { FileEventKind, StateWatcher } from "../watch/stateWatcher";
import { LiveFiles } from "../watch/liveFiles";
import { RefreshSpells } from "../watch/refreshSpells";

/** When a folder is read again after its watch started (ms): changes VS Code's starting watcher never announced. */
export const CATCH_UP_MS: readonly number[] = [2_000, 8_000];

/** Every source of every workspace folder. */
export class StateFolders extends Disposable {
  private readonly byKeys = new Map<string, SourceFolder>();
  private readonly sourceWatches = new Map<string, vscode.Disposable[]>();
  private readonly detectWatches = new Map<string, vscode.Disposable[]>();
  /** The one coalescing of changes into refreshes (`autodev.debounceMs`). */
  private readonly spells = new RefreshSpells();
  private readonly changedUris = new Map<string, vscode.Uri[]>();
  private syncing: Promise<void> = Promise.resolve();
  /** A sync has run (the first one always tells the listeners). */
  private synced = false;
  /** The watches and context keys are on (else held back until {@link startWatching}). */
  private watching: boolean;
  private redetect: NodeJS.Timeout | undefined;
  /** False: every folder hears of changes after the spell only (the editor bench times both ways in one run). */
  readsAtOnce = true;
  /** The worker's own watch of live files (`live.enabled = false`: the editor's watcher alone). */
  readonly live: LiveFiles;
  private readonly changed = this.register(new vscode.EventEmitter<SourceFolder | undefined>());
  /** Fires with the source that changed (undefined: the set of sources changed). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly worker: StateWorkerClient,
    private readonly log: OutputLog,
    private readonly settings: SettingsReader,
    private readonly watcher: StateWatcher,
    private readonly adapterOf: (kind: string) => SourceAdapter,
    private readonly catchUpMs: readonly number[] = CATCH_UP_MS,
    watchNow = true,
  ) {
    super();
    this.watching = watchNow;
    this.live = this.register(new LiveFiles(worker, (folder, uri) => this.heard(folder, uri, "change", true)));
    const settingNames = SOURCE_MANIFESTS.flatMap((s) => (s.settings ?? []).map((n) => `autodev.${n}`));
    this.register(
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.sync()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.sync()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (settingNames.some((n) => e.affectsConfiguration(n))) void this.sync();
      }),
    );
  }

  /** Every source, in workspace-folder order, then in the order sources are registered. */
  get all(): SourceFolder[] {
    const order = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
    const kinds = SOURCE_MANIFESTS.map((s) => s.kind);
    return [...this.byKeys.values()].sort(
      (a, b) =>
        order.indexOf(a.folder.uri.toString()) - order.indexOf(b.folder.uri.toString()) ||
        kinds.indexOf(a.kind) - kinds.indexOf(b.kind),
    );
  }

  /** The sources of one workspace folder. */
  of(folder: vscode.WorkspaceFolder): SourceFolder[] {
    return this.all.filter((s) => s.folder.uri.toString() === folder.uri.toString());
  }

  /** The sources of one kind. */
  ofKind(kind: string): SourceFolder[] {
    return this.all.filter((s) => s.kind === kind);
  }

  /** A source by its key (`<folder uri>|<kind>`). */
  byKey(key: string): SourceFolder | undefined {
    return this.byKeys.get(key);
  }

  /** Every source whose run waits on someone, with whom. */
  get waiting(): { readonly folder: SourceFolder; readonly waiting: WaitingOn }[] {
    return this.all.flatMap((folder) => (folder.waiting ? [{ folder, waiting: folder.waiting }] : []));
  }

  /** Detects every folder's sources again; adds, keeps or drops them (one sync at a time). */
  sync(): Promise<void> {
    // A folder removed from the workspace goes at once, not after the syncs already queued (each
    // detects every folder, and each detection waits its turn in the worker behind the refreshes).
    this.dropRemoved();
    this.syncing = this.syncing.catch(() => undefined).then(() => this.syncNow());
    return this.syncing;
  }

  /** The file-scheme workspace folders open now. */
  private openFolders(): vscode.WorkspaceFolder[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((wf) => wf.uri.scheme === "file");
  }

  /** Drops the sources of workspace folders no longer open. */
  private dropRemoved(): void {
    if (this.isDisposed) return;
    const live = new Set(this.openFolders().map((wf) => wf.uri.toString()));
    const removed = [...this.byKeys].filter(([, f]) => !live.has(f.folder.uri.toString()));
    for (const [key, folder] of removed) this.drop(key, folder);
    if (removed.length > 0) {
      this.changed.fire(undefined);
      this.updateContextKeys();
    }
  }

  /** Detects again and re-reads every source. */
  async refreshAll(): Promise<void> {
    await this.sync();
    await Promise.all(this.all.map((s) => s.refresh()));
  }

  private settingsOf(wf: vscode.WorkspaceFolder): Record<string, SourceSettings> {
    const out: Record<string, SourceSettings> = {};
    for (const s of SOURCE_MANIFESTS) {
      if (s.settings?.length) out[s.kind] = this.settings.sourceSettings(s.settings, wf);
    }
    return out;
  }

  private async syncNow(): Promise<void> {
    if (this.isDisposed) return;
    const folders = this.openFolders();
    this.dropRemoved();
    if (this.watching) this.watchDetection(folders);
    const seen = new Set<string>();
    // Listeners hear "the set of sources changed" only when it did (a source added, dropped, moved,
    // detected otherwise or with other settings), and after the first sync: an agent's atomic
    // replace of a marker re-detects, and must not repaint every view for the same sources.
    let setChanged = !this.synced;
    this.synced = true;
    for (const wf of folders) {
      const settings = this.settingsOf(wf);
      let found;
      try {
        found = await this.worker.request({ type: "detect", cwd: wf.uri.fsPath, settings });
      } catch (e) {
        this.log.error(`${wf.name}: detecting state sources failed`, e);
        for (const s of this.of(wf)) seen.add(s.key); // keep what was shown
        continue;
      }
      // Removed from the workspace while it was being detected: it stays gone.
      if (!this.openFolders().some((o) => o.uri.toString() === wf.uri.toString())) continue;
      for (const d of found) {
        const key = `${wf.uri.toString()}|${d.kind}`;
        seen.add(key);
        const own = settings[d.kind] ?? {};
        const known = this.byKeys.get(key);
        if (known) {
          const moved =
            known.source.relDir !== d.relDir || known.source.watchGlobs.join("\n") !== d.watchGlobs.join("\n");
          if (JSON.stringify([known.source, known.settings]) !== JSON.stringify([d, own])) setChanged = true;
          known.redetected(d, own);
          if (moved) {
            this.unwatch(key);
            if (this.watching) this.watchSource(known);
            void known.refresh();
          } else if (this.watching) this.live.arm(known); // the worker keeps a watch of the same folder, or watches the one there now
          continue;
        }
        const folder = this.adapterOf(d.kind).createFolder(wf, d, own);
        setChanged = true;
        this.byKeys.set(key, folder);
        folder.onDidChange(() => this.changed.fire(folder));
        if (this.watching) this.watchSource(folder);
        this.log.info(`watching ${wf.uri.fsPath}/${d.relDir} (${d.displayName})`);
      }
    }
    for (const [key, folder] of [...this.byKeys]) {
      if (seen.has(key)) continue;
      this.drop(key, folder);
      setChanged = true;
    }
    if (setChanged) this.changed.fire(undefined);
    this.updateContextKeys();
  }

  /**
   * Starts what a registry made with `watchNow` false held back: the detection watches of every
   * open folder, each source's watches, the context keys; and detects again after the first
   * catch-up time (a marker that came or went before the watches started).
   */
  startWatching(): void {
    if (this.watching || this.isDisposed) return;
    this.watching = true;
    this.watchDetection(this.openFolders());
    for (const folder of this.byKeys.values()) if (!this.sourceWatches.has(folder.key)) this.watchSource(folder);
    this.updateContextKeys();
    if (this.synced && this.catchUpMs.length > 0) this.redetect = setTimeout(() => void this.sync(), this.catchUpMs[0]);
  }

  /** Forgets one (folder, source): its watches, its worker state and the folder itself. */
  private drop(key: string, folder: SourceFolder): void {
    this.byKeys.delete(key);
    this.unwatch(key);
    void this.worker.request({ type: "dispose", cwd: folder.cwd, kind: folder.kind }).catch(() => undefined);
    folder.dispose();
  }

  /** Re-detection when a file of any source's detect globs appears or goes, per workspace folder. */
  private watchDetection(folders: readonly vscode.WorkspaceFolder[]): void {
    const live = new Set(folders.map((f) => f.uri.toString()));
    for (const [uri, subs] of this.detectWatches) {
      if (live.has(uri)) continue;
      subs.forEach((d) => d.dispose());
      this.detectWatches.delete(uri);
    }
    const globs = [...new Set(SOURCE_MANIFESTS.flatMap((s) => s.detectGlobs ?? []))];
    for (const wf of folders) {
      const uri = wf.uri.toString();
      if (this.detectWatches.has(uri)) continue;
      const onEvent = (glob: string) => (_u: vscode.Uri, kind: FileEventKind) => {
        // A marker appearing where every source it marks is already shown adds nothing: that is an
        // agent's atomic replace (write a temp file, rename it over the marker), once per write.
        if (kind === "change" || (kind === "create" && this.marksOnlyKnown(wf, glob))) return;
        this.debounce(`detect|${uri}`, wf, () => void this.sync());
      };
      this.detectWatches.set(
        uri,
        globs.map((g) => this.watcher.watch(wf, g, onEvent(g))),
      );
    }
  }

  /** Whether every source whose detect globs include `glob` is already shown for `wf`. */
  private marksOnlyKnown(wf: vscode.WorkspaceFolder, glob: string): boolean {
    return SOURCE_MANIFESTS.filter((m) => m.detectGlobs?.includes(glob)).every((m) =>
      this.byKeys.has(`${wf.uri.toString()}|${m.kind}`),
    );
  }

  private watchSource(folder: SourceFolder): void {
    const onEvent = (uri: vscode.Uri, kind: FileEventKind) => {
      if (kind === "delete") return this.heard(folder, uri, kind);
      void this.live.isEcho(uri).then((echo) => echo || this.isDisposed || this.heard(folder, uri, kind));
    };
    const watches = folder.source.watchGlobs.map((g) => this.watcher.watch(folder.folder, g, onEvent));
    const stateDir = vscode.Uri.joinPath(folder.folder.uri, folder.source.relDir);
    const catchUps = this.catchUpMs.map((ms) =>
      setTimeout(() => this.sourceWatches.get(folder.key) === watches && this.heard(folder, stateDir, "change"), ms),
    );
    watches.push({ dispose: () => catchUps.forEach(clearTimeout) });
    this.sourceWatches.set(folder.key, watches);
    this.live.arm(folder);
  }

  /**
   * A watched file of `folder` changed, as the editor's watcher or (`live`) the worker's live watch
   * said. Each has its own debounce spell, so the editor's events about other files of the folder
   * (the writer's lock, its temporary copy) never hold a live change back to the end of a spell.
   */
  private heard(folder: SourceFolder, uri: vscode.Uri, kind: FileEventKind, live = false): void {
    const key = live ? `live|${folder.key}` : folder.key;
    const list = this.changedUris.get(key) ?? [];
    if (!list.some((u) => u.toString() === uri.toString())) list.push(uri);
    this.changedUris.set(key, list);
    this.debounce(
      key,
      folder.folder,
      () => {
        const uris = this.changedUris.get(key) ?? [];
        this.changedUris.delete(key);
        if (this.byKeys.get(folder.key) === folder) folder.filesChanged(uris);
      },
      this.readsAtOnce && folder.readsAtOnce === true,
    );
    // A deleted file may be the state folder going away: detection decides.
    if (kind === "delete") {
      this.debounce(`detect|${folder.folder.uri.toString()}`, folder.folder, () => void this.sync());
    }
  }

  private unwatch(key: string): void {
    this.live.disarm(key);
    this.sourceWatches.get(key)?.forEach((d) => d.dispose());
    this.sourceWatches.delete(key);
    for (const k of [key, `live|${key}`]) {
      this.spells.cancel(k);
      this.changedUris.delete(k);
    }
  }

  /** `run` through the one throttle ({@link RefreshSpells}), `autodev.debounceMs` of `wf` long. */
  private debounce(key: string, wf: vscode.WorkspaceFolder, run: () => void, leading = false): void {
    if (!this.isDisposed) this.spells.call(key, this.settings.debounceMs(wf), run, leading);
  }

  private updateContextKeys(): void {
    if (!this.watching) return; // startWatching sets them
    const present = new Set([...this.byKeys.values()].map((s) => s.kind));
    for (const s of SOURCE_MANIFESTS) {
      void vscode.commands.executeCommand("setContext", `autodev.has.${s.kind}`, present.has(s.kind));
    }
    void vscode.commands.executeCommand("setContext", "autodev.hasState", present.size > 0);
  }

  override dispose(): void {
    clearTimeout(this.redetect);
    this.live.dispose(); // the worker forgets the folders with its own end
    for (const key of [...this.sourceWatches.keys()]) this.unwatch(key);
    this.spells.dispose();
    for (const subs of this.detectWatches.values()) subs.forEach((d) => d.dispose());
    this.detectWatches.clear();
    for (const s of this.byKeys.values()) s.dispose();
    this.byKeys.clear();
    super.dispose();
  }
}
