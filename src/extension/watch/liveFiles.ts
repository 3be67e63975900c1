/**
 * The state worker's own watch of each source's live files (`StateSource.liveFiles`, see
 * src/core/worker/liveWatch.ts), on the host's side: it asks the worker to watch a folder's live
 * files when the folder is watched, forgets them when it is not, arms them again when the worker
 * restarted, and tells the folder registry of each change the worker heard (as a file event, so
 * the same debounce applies). The editor's watcher stays the source of truth; an event of it
 * about a live file that looks exactly as when the worker told of it (size, mtime) is an
 * echo of the same change and is dropped, anything else goes through.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { LiveFileEvent } from "../../core/worker/liveWatch";
import { Disposable } from "../disposable";
import type { StateWorkerClient } from "../stateWorkerClient";
import type { SourceFolder } from "../sources/sourceAdapter";
import { lookAt } from "./fileLook";

/** How many told signatures are kept (one per live file; bounded whatever the workspace). */
const MAX_TOLD = 256;

/** Live watches in the worker, and the dedupe of the editor's events against them. */
export class LiveFiles extends Disposable {
  /** False: the worker's events are ignored and nothing is deduped (the editor bench times both ways). */
  enabled = true;
  private readonly folders = new Map<string, SourceFolder>();
  /** The signature of each live file (by URI string) when the worker last told of it. */
  private readonly told = new Map<string, string>();

  /** `heard`: a live file of `folder` changed (told as the editor's watcher would). */
  constructor(
    private readonly worker: StateWorkerClient,
    private readonly heard: (folder: SourceFolder, uri: vscode.Uri) => void,
  ) {
    super();
    this.register(
      worker.onLiveFile((e) => this.onLiveFile(e)),
      worker.onDidRestart(() => {
        for (const f of this.folders.values()) this.arm(f);
      }),
    );
  }

  /** Asks the worker to watch `folder`'s live files (nothing when it has none or does not read at once). */
  arm(folder: SourceFolder): void {
    const files = folder.source.liveFiles ?? [];
    if (this.isDisposed || folder.readsAtOnce !== true || files.length === 0) return;
    this.folders.set(folder.key, folder);
    const req = { type: "liveWatch", cwd: folder.cwd, kind: folder.kind, relDir: folder.source.relDir, files } as const;
    void this.worker.request(req).catch(() => false);
  }

  /** Stops the worker's watch of the folder with `key` (`SourceFolder.key`). */
  disarm(key: string): void {
    const folder = this.folders.get(key);
    if (!folder || this.isDisposed) return;
    this.folders.delete(key);
    const req = {
      type: "liveWatch",
      cwd: folder.cwd,
      kind: folder.kind,
      relDir: folder.source.relDir,
      files: [],
    } as const;
    void this.worker.request(req).catch(() => false);
  }

  /**
   * True when an event of the editor's watcher about `uri` is an echo of a change the worker told
   * already (the file looks as it did then); false for anything else.
   */
  async isEcho(uri: vscode.Uri): Promise<boolean> {
    const told = this.enabled ? this.told.get(uri.toString()) : undefined;
    if (told === undefined) return false;
    return (await lookAt(uri)) === told;
  }

  private onLiveFile(e: LiveFileEvent): void {
    if (!this.enabled || this.isDisposed) return;
    const folder = [...this.folders.values()].find((f) => f.cwd === e.cwd && f.kind === e.kind);
    if (!folder) return;
    const uri = vscode.Uri.file(path.join(folder.cwd, ...e.rel.split("/")));
    const key = uri.toString();
    this.told.delete(key);
    this.told.set(key, e.signature);
    if (this.told.size > MAX_TOLD) this.told.delete(this.told.keys().next().value as string);
    this.heard(folder, uri);
  }
}
