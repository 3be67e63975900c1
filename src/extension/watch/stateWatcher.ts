/**
 * The one file watcher of the extension: every source's detect globs and watch globs, in every
 * workspace folder, go through it. One `FileSystemWatcher` per distinct wildcard pattern however
 * many sources ask for it, and one per folder for all the files watched by name in it (the ten
 * AutoDev markers of detection share `.autodev/`'s, agloop's detection and refresh `.agloop/`'s), created,
 * changed and deleted events all count (Python replaces the ledger by rename on every append),
 * and writers' temporary `*.tmp` files are ignored. Debouncing is the folder registry's.
 *
 * A file watched by name (`.git/HEAD`, a branch's ref, engine_state's manifest) is also looked at
 * every few seconds (all of them in one state worker request, an `lstat` each, never a read): when the OS watcher missed a change (seen under
 * load, on network and container mounts), the listeners hear of it then, once.
 */
import * as vscode from "vscode";
import { Disposable } from "../disposable";
import { lookAt } from "./fileLook";

/** How often files watched by name are looked at for a change no event announced. */
const MISSED_EVENT_POLL_MS = 5000;

/** What happened to a file. */
export type FileEventKind = "create" | "change" | "delete";

/** Looks at files without reading them: one signature each, in order (fileSignatureFormat.ts). */
export type LookAtFiles = (files: readonly vscode.Uri[]) => Promise<string[]>;

/** Called for each event on a watched pattern. */
export type FileEventListener = (uri: vscode.Uri, kind: FileEventKind) => void;

/** A glob's wildcard characters: a glob without any names one file. */
const WILDCARD = /[*?[\]{}]/;

/**
 * Where a glob (relative to `folder`, forward slashes) is watched. A glob naming one file (no
 * wildcard) is watched through a non-recursive watcher of its folder (`*`), shared by every file
 * of that folder watched by name, and its listeners hear only that file: VS Code then watches it
 * even where the workspace watcher reports nothing (`.git/HEAD`, `.git/logs/HEAD`, anything in
 * `files.watcherExclude`) and even outside the workspace folder (a worktree's git folder,
 * `../main/.git/worktrees/x/HEAD`). Wildcard globs stay relative to the workspace folder.
 */
function placeOf(
  folder: vscode.WorkspaceFolder,
  glob: string,
): { pattern: vscode.RelativePattern; name: string | null } {
  if (WILDCARD.test(glob)) return { pattern: new vscode.RelativePattern(folder, glob), name: null };
  const slash = glob.lastIndexOf("/");
  const base = slash < 0 ? folder.uri : vscode.Uri.joinPath(folder.uri, glob.slice(0, slash));
  return { pattern: new vscode.RelativePattern(base, "*"), name: glob.slice(slash + 1) };
}

/** The last path segment of a URI's path. */
const baseName = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf("/") + 1);

/** A file watched by name (file scheme only), looked at by {@link StateWatcher.lookNow}. */
interface Named {
  readonly file: vscode.Uri;
  readonly listeners: Set<FileEventListener>;
  /** The file's {@link lookAt} signature at the last look (taken when the watch starts, before any look). */
  seen?: string;
  /** The first signature's read, started with the watch (a look waits for it). */
  first: Promise<void> | null;
  /** An event came since the last look (the watcher did its job: the look only takes the new signature). */
  announced: boolean;
}

interface Shared {
  readonly watcher: vscode.FileSystemWatcher;
  /** Listeners of the whole pattern (wildcard globs). */
  readonly listeners: Set<FileEventListener>;
  /** Files of the watched folder watched by name, by name (literal globs). */
  readonly named: Map<string, Named>;
  readonly subscriptions: vscode.Disposable[];
}

/** Shares one watcher per pattern, and one per folder of the files watched by name, between every listener. */
export class StateWatcher extends Disposable {
  private readonly shared = new Map<string, Shared>();
  private poll: NodeJS.Timeout | null = null;
  private looking = false;
  /** Files watched by name whose starting signature is still to take (taken together, once). */
  private starting: Array<{ named: Named; done: () => void }> = [];

  /**
   * `pollMs`: how often files watched by name are looked at (tests pass a short one). `look`: how
   * (the extension asks the state worker, one request for all of them; else VS Code's `stat`).
   */
  constructor(
    private readonly pollMs = MISSED_EVENT_POLL_MS,
    private readonly look: LookAtFiles = (files) => Promise.all(files.map(lookAt)),
  ) {
    super();
  }

  /** How many watchers are open (one per distinct wildcard pattern, one per folder of files watched by name). */
  get watchers(): number {
    return this.shared.size;
  }

  /** Calls `listener` for every event on `glob` in `folder` until the returned disposable is disposed. */
  watch(folder: vscode.WorkspaceFolder, glob: string, listener: FileEventListener): vscode.Disposable {
    const { pattern, name } = placeOf(folder, glob);
    const key = `${pattern.baseUri.toString()}\u0000${name === null ? pattern.pattern : ""}`;
    const entry = this.shared.get(key) ?? this.open(key, pattern);
    let named: Named | undefined;
    if (name === null) entry.listeners.add(listener);
    else {
      named = entry.named.get(name) ?? this.name(vscode.Uri.joinPath(folder.uri, glob), folder.uri.scheme);
      entry.named.set(name, named);
      named.listeners.add(listener);
    }
    return {
      dispose: () => {
        if (named) {
          named.listeners.delete(listener);
          if (named.listeners.size === 0 && entry.named.get(name!) === named) entry.named.delete(name!);
        } else entry.listeners.delete(listener);
        if (entry.listeners.size > 0 || entry.named.size > 0 || this.shared.get(key) !== entry) return;
        this.shared.delete(key);
        entry.subscriptions.forEach((d) => d.dispose());
        entry.watcher.dispose();
      },
    };
  }

  private open(key: string, pattern: vscode.RelativePattern): Shared {
    const watcher = vscode.workspace.createFileSystemWatcher(pattern);
    const fire = (kind: FileEventKind) => (uri: vscode.Uri) => {
      if (uri.path.endsWith(".tmp")) return; // writers' temporary files (renamed over the real one)
      for (const l of [...entry.listeners]) l(uri, kind);
      const named = entry.named.get(baseName(uri));
      if (!named) return;
      named.announced = true;
      for (const l of [...named.listeners]) l(uri, kind);
    };
    const entry: Shared = {
      watcher,
      listeners: new Set(),
      named: new Map(),
      subscriptions: [
        watcher.onDidCreate(fire("create")),
        watcher.onDidChange(fire("change")),
        watcher.onDidDelete(fire("delete")),
      ],
    };
    this.shared.set(key, entry);
    return entry;
  }

  /** A file watched by name; looked at every few seconds when it is on disk (file scheme). */
  private name(file: vscode.Uri, scheme: string): Named {
    const named: Named = { file, listeners: new Set(), announced: false, first: null };
    if (scheme !== "file") return named;
    // The file as it is when the watch starts, so a change before the first look (while the
    // OS watcher itself is still starting, when events are most often lost) is not taken as the
    // starting point.
    named.first = new Promise<void>((done) => {
      if (this.starting.push({ named, done }) === 1) setImmediate(() => void this.takeStarting());
    });
    if (this.poll === null) {
      this.poll = setInterval(() => void this.lookNow(), this.pollMs);
      this.poll.unref?.();
    }
    return named;
  }

  /** Takes the starting signature of every file watched by name since the last time, in one look. */
  private async takeStarting(): Promise<void> {
    const batch = this.starting;
    this.starting = [];
    const seen = await this.look(batch.map((b) => b.named.file)).catch(() => batch.map(() => undefined));
    batch.forEach((b, i) => {
      if (b.named.seen === undefined) b.named.seen = seen[i];
      b.done();
    });
  }

  /**
   * Looks at every file watched by name now (the interval does it every few seconds); a change no
   * event announced is told to its listeners as one.
   */
  async lookNow(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      const named = [...this.shared.values()].flatMap((s) => [...s.named.values()]).filter((e) => e.first !== null);
      await Promise.all(named.map((e) => e.first)); // not on disk (another scheme, first null): the watcher alone
      if (named.length === 0 || this.isDisposed) return;
      const now = await this.look(named.map((e) => e.file)).catch(() => null);
      if (now === null) return; // the next look tries again
      named.forEach((e, i) => {
        const before = e.seen;
        const announced = e.announced;
        e.seen = now[i];
        e.announced = false;
        if (before === undefined || announced || before === now[i] || e.listeners.size === 0) return;
        const kind: FileEventKind = before === "absent" ? "create" : now[i] === "absent" ? "delete" : "change";
        for (const l of [...e.listeners]) l(e.file, kind);
      });
    } finally {
      this.looking = false;
    }
  }

  /** Resolves once every file watched by name has its starting signature (tests wait for it). */
  async started(): Promise<void> {
    await Promise.all([...this.shared.values()].flatMap((s) => [...s.named.values()].map((e) => e.first)));
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
