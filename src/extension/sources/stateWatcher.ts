/**
 * The one file watcher of the extension: every source's detect globs and watch globs, in every
 * workspace folder, go through it. One `FileSystemWatcher` per distinct pattern however many
 * sources ask for it (AutoDev's `.autodev/**` serves its detection and its refresh), created,
 * changed and deleted events all count (Python replaces the ledger by rename on every append),
 * and writers' temporary `*.tmp` files are ignored. Debouncing is the folder registry's.
 */
import * as vscode from "vscode";
import { Disposable } from "../disposable";

/** What happened to a file. */
export type FileEventKind = "create" | "change" | "delete";

/** Called for each event on a watched pattern. */
export type FileEventListener = (uri: vscode.Uri, kind: FileEventKind) => void;

/**
 * The pattern a glob (relative to `folder`, forward slashes) is watched with. A glob naming one
 * file (no wildcard) becomes a non-recursive pattern on that file's folder: VS Code then watches it
 * even where the workspace watcher reports nothing (`.git/HEAD`, `.git/logs/HEAD`, anything in
 * `files.watcherExclude`) and even outside the workspace folder (a worktree's git folder,
 * `../main/.git/worktrees/x/HEAD`). Wildcard globs stay relative to the workspace folder.
 */
function watchPattern(folder: vscode.WorkspaceFolder, glob: string): vscode.RelativePattern {
  if (/[*?[\]{}]/.test(glob)) return new vscode.RelativePattern(folder, glob);
  const slash = glob.lastIndexOf("/");
  if (slash < 0) return new vscode.RelativePattern(folder, glob);
  return new vscode.RelativePattern(vscode.Uri.joinPath(folder.uri, glob.slice(0, slash)), glob.slice(slash + 1));
}

interface Shared {
  readonly watcher: vscode.FileSystemWatcher;
  readonly listeners: Set<FileEventListener>;
  readonly subscriptions: vscode.Disposable[];
}

/** Shares one watcher per pattern between every listener of it. */
export class StateWatcher extends Disposable {
  private readonly shared = new Map<string, Shared>();

  /** How many watchers are open (one per distinct pattern). */
  get watchers(): number {
    return this.shared.size;
  }

  /** Calls `listener` for every event on `glob` in `folder` until the returned disposable is disposed. */
  watch(folder: vscode.WorkspaceFolder, glob: string, listener: FileEventListener): vscode.Disposable {
    const pattern = watchPattern(folder, glob);
    const key = `${pattern.baseUri.toString()}\u0000${pattern.pattern}`;
    let entry = this.shared.get(key);
    if (!entry) {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const listeners = new Set<FileEventListener>();
      const fire = (kind: FileEventKind) => (uri: vscode.Uri) => {
        if (uri.path.endsWith(".tmp")) return; // writers' temporary files (renamed over the real one)
        for (const l of [...listeners]) l(uri, kind);
      };
      entry = {
        watcher,
        listeners,
        subscriptions: [
          watcher.onDidCreate(fire("create")),
          watcher.onDidChange(fire("change")),
          watcher.onDidDelete(fire("delete")),
        ],
      };
      this.shared.set(key, entry);
    }
    const held = entry;
    held.listeners.add(listener);
    return {
      dispose: () => {
        held.listeners.delete(listener);
        if (held.listeners.size > 0 || this.shared.get(key) !== held) return;
        this.shared.delete(key);
        held.subscriptions.forEach((d) => d.dispose());
        held.watcher.dispose();
      },
    };
  }

  override dispose(): void {
    for (const e of this.shared.values()) {
      e.subscriptions.forEach((d) => d.dispose());
      e.watcher.dispose();
    }
    this.shared.clear();
    super.dispose();
  }
}
