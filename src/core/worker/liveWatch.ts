/**
 * The worker's own watch of a state folder's live files (a source's `liveFiles`: AutoDev's ledger),
 * so an atomic replace is heard in milliseconds instead of after the editor's file watcher has
 * delivered and coalesced it. One non-recursive `fs.watch` per (workspace folder, source); the
 * editor's watcher stays the source of truth, and anything this one cannot do (a link in the way,
 * too many watches, the OS refusing) falls back to it silently.
 *
 * Confined: the state folder must be a real directory inside the workspace folder, reached without
 * a symbolic link (its real path is the workspace's real path plus its relative path); only events
 * naming one of the live files are told, each with the file's signature (size, mtime, from
 * `lstat`: never followed, never read). Coping with a swap: the folder's identity is kept; an
 * event from a folder that is no longer the one at the path (renamed away, replaced) closes the
 * watch and arms it again on the folder there now. Bounded: at most {@link MAX_LIVE_WATCHES}
 * watches (libuv uses one inotify instance per thread whatever their number), events of one watch
 * are told at most once per {@link COALESCE_MS} (the first at once, the last of a burst after it).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fileSignature } from "../fs/fileSignature";

/** The most state folders watched at once; more fall back to the editor's watcher. */
export const MAX_LIVE_WATCHES = 64;
/** Events of one file closer together than this are told once more at the end of the burst. */
const COALESCE_MS = 10;

/** A live file changed: which, and what it looks like now (`size:mtimeMs`, "absent" when gone: fileSignature.ts). */
export interface LiveFileEvent {
  readonly cwd: string;
  readonly kind: string;
  /** Path of the file relative to the workspace folder, forward slashes (".autodev/plan-ledger.jsonl"). */
  readonly rel: string;
  readonly signature: string;
}

/** The state folder's path when it is a real directory inside `cwd` reached without links, else null. */
export function linkFreeDir(cwd: string, relDir: string): string | null {
  const parts = relDir.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  if (parts.length === 0 || parts.some((p) => p === "..") || path.isAbsolute(relDir)) return null;
  try {
    const root = fs.realpathSync(cwd);
    const dir = path.join(cwd, ...parts);
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || st.isSymbolicLink()) return null;
    return fs.realpathSync(dir) === path.join(root, ...parts) ? dir : null;
  } catch {
    return null;
  }
}

interface Watch {
  readonly cwd: string;
  readonly kind: string;
  readonly relDir: string;
  /** `relDir` with forward slashes and no empty or "." parts: the told paths' prefix. */
  readonly relPrefix: string;
  readonly files: ReadonlySet<string>;
  dir: string;
  ident: string;
  watcher: fs.FSWatcher;
  /** Files heard since the last tell (coalescing), and the timer that tells them. */
  pending: Set<string>;
  timer: NodeJS.Timeout | null;
  lastTold: number;
}

const identOf = (dir: string): string | null => {
  try {
    const st = fs.lstatSync(dir, { bigint: true });
    return st.isDirectory() ? `${st.dev}:${st.ino}` : null;
  } catch {
    return null;
  }
};

/** Every live watch of the worker thread. */
export class LiveWatches {
  private readonly watches = new Map<string, Watch>();

  /** `tell`: called for each event on a live file (outside any request). */
  constructor(private readonly tell: (e: LiveFileEvent) => void) {}

  /** How many folders are watched. */
  get size(): number {
    return this.watches.size;
  }

  /**
   * Watches `files` (names in `relDir`) of one source of `cwd`; true when the watch is armed (an
   * armed watch of the same folder is kept, a different one replaced), false when the editor's
   * watcher has to do (the folder is not confined, too many watches, the OS refused).
   */
  watch(cwd: string, kind: string, relDir: string, files: readonly string[]): boolean {
    const key = `${kind}\u0000${cwd}`;
    const old = this.watches.get(key);
    const dir = linkFreeDir(cwd, relDir);
    const ident = dir === null ? null : identOf(dir);
    const same = old && old.files.size === files.length && files.every((f) => old.files.has(f));
    if (old && same && dir !== null && ident === old.ident && old.relDir === relDir) return true;
    if (old) this.close(key);
    if (dir === null || ident === null || files.length === 0 || this.watches.size >= MAX_LIVE_WATCHES) return false;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: false });
    } catch {
      return false;
    }
    const w: Watch = {
      cwd,
      kind,
      relDir,
      relPrefix: relDir
        .split(/[\\/]/)
        .filter((p) => p !== "" && p !== ".")
        .join("/"),
      files: new Set(files),
      dir,
      ident,
      watcher,
      pending: new Set(),
      timer: null,
      lastTold: 0,
    };
    watcher.on("change", (_type, name) => this.heard(key, w, typeof name === "string" ? name : null));
    watcher.on("error", () => {
      if (this.watches.get(key) === w) this.close(key);
    });
    this.watches.set(key, w);
    return true;
  }

  /** Stops watching `cwd` (one source's folder, or all of them when `kind` is absent). */
  unwatch(cwd: string, kind?: string): void {
    for (const [key, w] of [...this.watches]) {
      if (w.cwd === cwd && (kind === undefined || w.kind === kind)) this.close(key);
    }
  }

  /** Closes every watch. */
  dispose(): void {
    for (const key of [...this.watches.keys()]) this.close(key);
  }

  private heard(key: string, w: Watch, name: string | null): void {
    if (this.watches.get(key) !== w) return;
    if (identOf(w.dir) !== w.ident) {
      // The folder at the path is not the one watched (renamed away, swapped): watch the one there now.
      // Every live file is told: the folder there now may hold other ones.
      const files = [...w.files];
      this.close(key);
      if (!this.watch(w.cwd, w.kind, w.relDir, files)) return;
      const now = this.watches.get(key)!;
      this.flush(now, new Set(files));
      return;
    }
    if (name === null || !w.files.has(name)) return;
    w.pending.add(name);
    if (w.timer !== null) return;
    const wait = w.lastTold + COALESCE_MS - Date.now();
    if (wait <= 0) this.flush(w, w.pending);
    else {
      w.timer = setTimeout(() => {
        w.timer = null;
        if (this.watches.get(key) === w) this.flush(w, w.pending);
      }, wait);
      w.timer.unref?.();
    }
  }

  private flush(w: Watch, names: Set<string>): void {
    const list = [...names];
    names.clear();
    w.lastTold = Date.now();
    for (const name of list) {
      this.tell({
        cwd: w.cwd,
        kind: w.kind,
        rel: `${w.relPrefix}/${name}`,
        signature: fileSignature(path.join(w.dir, name)),
      });
    }
  }

  private close(key: string): void {
    const w = this.watches.get(key);
    if (!w) return;
    this.watches.delete(key);
    if (w.timer !== null) clearTimeout(w.timer);
    w.timer = null;
    w.watcher.close();
  }
}
