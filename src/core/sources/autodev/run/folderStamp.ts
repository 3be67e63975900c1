/**
 * A stamp of the folders of `.autodev/`: each folder's path and modification time. AutoDev writes every
 * file by a rename into its folder, so any file it adds, replaces or removes changes its folder's stamp.
 *
 * Why: AutoDev makes a folder and writes into it within milliseconds (`tournaments/plan-…/`, then
 * `initial_a.md`; `pass_01/`, then its five files). An OS watcher (inotify, VS Code's recursive watcher)
 * watches a new folder only once it has reported it, so it can miss the folder's first files — and when
 * it missed the folder itself, everything written into it later (seen in the live replay of the default
 * run: a whole plan tournament went unreported). While AutoDev runs, the editor's once-a-second probe
 * compares this stamp with the one its last refresh was read under and reads again when it differs.
 *
 * Read with `readdir` and `lstat` only (no file is opened, links are not followed). The contents of a
 * tournament's worktrees (git checkouts of the project) are left out: only `worktrees/` and the names in
 * it count. At most {@link MAX_FOLDERS} folders are looked at. Never throws.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AUTODEV_DIR } from "../autodevPaths";

/** Folders looked at, at most (a run has a few dozen). */
export const MAX_FOLDERS = 512;

/** The stamp of `cwd`'s `.autodev/` folders ("" when there is none). */
export async function autodevFolderStamp(cwd: string): Promise<string> {
  const out: string[] = [];
  const queue = [AUTODEV_DIR];
  while (queue.length > 0 && out.length < MAX_FOLDERS) {
    const rel = queue.shift()!;
    const abs = path.join(cwd, ...rel.split("/"));
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(abs);
    } catch {
      continue;
    }
    if (!st.isDirectory()) continue;
    out.push(`${rel}:${st.mtimeMs}`);
    if (path.posix.basename(path.posix.dirname(rel)) === "worktrees") continue; // a worktree's checkout
    let names: fs.Dirent[];
    try {
      names = await fs.promises.readdir(abs, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const d of names) if (d.isDirectory()) queue.push(`${rel}/${d.name}`);
  }
  return out.join("\n");
}
