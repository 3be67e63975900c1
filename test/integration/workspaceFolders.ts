// Adding and removing workspace folders in the integration tests, the one way every suite does it.
//
// VS Code's `updateWorkspaceFolders` returns false (and does nothing) while an earlier change of
// the folders is still being applied, and applies an accepted change later; a suite that calls it
// once and waits for the extension can wait for a change that was never made. These helpers ask
// again until VS Code takes the change, wait for VS Code's folders and then for the extension's,
// and say which of the two never came.
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import { pollUntil } from "../helpers/poll";

/** A folder to open in the workspace. */
export interface FolderToAdd {
  readonly dir: string;
  readonly name: string;
}

const opened = (dir: string): boolean => (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.fsPath === dir);

/**
 * Adds `folders` at the end of the workspace and waits until VS Code lists every one; throws when
 * VS Code did not take the change or did not apply it within `timeoutMs`.
 */
export async function addWorkspaceFolders(folders: readonly FolderToAdd[], timeoutMs = 30_000): Promise<void> {
  const add = () =>
    vscode.workspace.updateWorkspaceFolders(
      vscode.workspace.workspaceFolders?.length ?? 0,
      0,
      ...folders.map((f) => ({ uri: vscode.Uri.file(f.dir), name: f.name })),
    );
  if (!(await pollUntil(add, timeoutMs))) {
    throw new Error(`VS Code refused to add ${folders.map((f) => f.name).join(", ")} for ${timeoutMs} ms`);
  }
  if (!(await pollUntil(() => folders.every((f) => opened(f.dir)), timeoutMs))) {
    const missing = folders.filter((f) => !opened(f.dir)).map((f) => f.name);
    throw new Error(`VS Code took the change but never listed ${missing.join(", ")}`);
  }
}

/**
 * Removes every workspace folder at one of `dirs` (one change at a time, asked again while VS Code
 * refuses), waits until VS Code no longer lists them and then until the extension shows none of
 * them (no folder, no wait); throws saying which step never came.
 */
export async function removeWorkspaceFolders(a: StateApi, dirs: readonly string[], timeoutMs = 30_000): Promise<void> {
  const mine = new Set(dirs);
  const deadline = Date.now() + timeoutMs;
  while (dirs.some(opened)) {
    let removed: string[] = [];
    const remove = () => {
      const all = vscode.workspace.workspaceFolders ?? [];
      const i = all.findIndex((f) => mine.has(f.uri.fsPath));
      let n = 0;
      while (i + n < all.length && mine.has(all[i + n].uri.fsPath)) n++;
      removed = all.slice(i, i + n).map((f) => f.uri.fsPath);
      return vscode.workspace.updateWorkspaceFolders(i, n);
    };
    if (!(await pollUntil(remove, Math.max(0, deadline - Date.now())))) {
      throw new Error(`VS Code still lists ${dirs.filter(opened).join(", ")}: it refused their removal`);
    }
    if (!(await pollUntil(() => !removed.some(opened), Math.max(0, deadline - Date.now())))) {
      throw new Error(`VS Code took the removal but still lists ${removed.filter(opened).join(", ")}`);
    }
  }
  const shown = () => [
    ...a.folders.all.filter((f) => mine.has(f.folder.uri.fsPath)).map((f) => `${f.folder.name} (${f.kind})`),
    ...a.folders.waiting
      .filter((w) => mine.has(w.folder.folder.uri.fsPath))
      .map((w) => `a wait of ${w.folder.folder.name}`),
  ];
  if (!(await pollUntil(() => shown().length === 0, Math.max(5_000, deadline - Date.now())))) {
    throw new Error(`VS Code removed the folders but the extension still shows ${shown().join(", ")}`);
  }
}
