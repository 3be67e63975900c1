/**
 * The one file watcher of the extension: every source's detect globs and watch globs, in every
 * workspace folder, go through it. One `FileSystemWatcher` per distinct pattern however many
 * sources ask for it (AutoDev's `.autodev/**` serves its detection and its refresh), created,
 * changed and deleted events all count (Python replaces the ledger by rename on every append),
 * and writers' temporary `*.tmp` files are ignored. Debouncing is the folder registry's.
 *
 * A file watched by name (`.git/HEAD`, a branch's ref, engine_state's manifest) is also looked at
 * every few seconds (one `lstat`, never a read): when the OS watcher missed a change (seen under
 * load, on network and container mounts), the listeners hear of it then, once.
 */
import * as vscode from "vscode";
import { fileSignatureAsync } from "../../core/fs/fileSignature";
import { Disposable } from "../disposable";

/** How often files watched by name are looked at for a change no event announced. */
const MISSED_EVENT_POLL_MS = 5000;

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
  /** The one file a glob without wildcards names (file scheme only), looked at by {@link StateWatcher.lookNow}. */
  readonly file: vscode.Uri | null;
  /** The file's {@link fileSignatureAsync} at the last look (taken when the watch starts, before any look). */
  seen?: string;
  /** The first signature's read, started with the watch (a look waits for it). */
  first: Promise<void> | null;
  /** An event came since the last look (the watcher did its job: the look only takes the new signature). */
  announced: boolean;
}

/** Shares one watcher per pattern between every listener of it. */
export class StateWatcher extends Disposable {
  private readonly shared = new Map<string, Shared>();
  private poll: NodeJS.Timeout | null = null;
  private looking = false;

  /** `pollMs`: how often files watched by name are looked at (tests pass a short one). */
  constructor(private readonly pollMs = MISSED_EVENT_POLL_MS) {
    super();
  }

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
      const literal = !/[*?[\]{}]/.test(glob) && folder.uri.scheme === "file";
      const fire = (kind: FileEventKind) => (uri: vscode.Uri) => {
        if (uri.path.endsWith(".tmp")) return; // writers' temporary files (renamed over the real one)
        created.announced = true;
        for (const l of [...listeners]) l(uri, kind);
      };
      const created: Shared = {
        watcher,
        listeners,
        subscriptions: [
          watcher.onDidCreate(fire("create")),
          watcher.onDidChange(fire("change")),
          watcher.onDidDelete(fire("delete")),
        ],
        file: literal ? vscode.Uri.joinPath(folder.uri, glob) : null,
        announced: false,
        first: null,
      };
      // The file as it is when the watch starts, so a change before the first look (while the
      // OS watcher itself is still starting, when events are most often lost) is not taken as the
      // starting point.
      if (created.file) {
        const file = created.file.fsPath;
        created.first = fileSignatureAsync(file).then((s) => {
          if (created.seen === undefined) created.seen = s;
        });
      }
      entry = created;
      this.shared.set(key, entry);
      if (created.file && this.poll === null) {
        this.poll = setInterval(() => void this.lookNow(), this.pollMs);
        this.poll.unref?.();
      }
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

  /**
   * Looks at every file watched by name now (the interval does it every few seconds); a change no
   * event announced is told to its listeners as one.
   */
  async lookNow(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      for (const e of [...this.shared.values()]) {
        if (!e.file) continue;
        await e.first;
        const now = await fileSignatureAsync(e.file.fsPath);
        const before = e.seen;
        const announced = e.announced;
        e.seen = now;
        e.announced = false;
        if (before === undefined || announced || before === now || e.listeners.size === 0) continue;
        const kind: FileEventKind = before === "absent" ? "create" : now === "absent" ? "delete" : "change";
        for (const l of [...e.listeners]) l(e.file, kind);
      }
    } finally {
      this.looking = false;
    }
  }

  /** Resolves once every file watched by name has its starting signature (tests wait for it). */
  async started(): Promise<void> {
    await Promise.all([...this.shared.values()].map((e) => e.first));
  }

  override dispose(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    for (const e of this.shared.values()) {
      e.subscriptions.forEach((d) => d.dispose());
      e.watcher.dispose();
    }
    this.shared.clear();
    super.dispose();
  }
}
