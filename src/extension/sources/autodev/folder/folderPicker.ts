/**
 * Resolves which AutoDev folder a command acts on: from a tree node, a folder
 * URI string, the only folder, or a quick pick.
 */
import * as vscode from "vscode";
import { AutodevFolder } from "./autodevFolder";
import type { AutodevFolders } from "./autodevFolders";

/** Picks the folder a command applies to; undefined when the user cancels or there is none. */
export class FolderPicker {
  constructor(private readonly workspaces: AutodevFolders) {}

  /**
   * The folder named by `arg` (an AutodevNode with `folder` or under one, or a folder URI string), else asks —
   * among the folders `only` accepts when it is given (the only such folder is taken without asking).
   */
  async pick(arg?: unknown, only?: (f: AutodevFolder) => boolean): Promise<AutodevFolder | undefined> {
    // A tree node: its own folder, or its nearest ancestor's (run-state nodes hang under a root or a task).
    for (let n: unknown = arg, depth = 0; n && typeof n === "object" && depth < 64; depth++) {
      const folder = (n as { folder?: unknown }).folder;
      if (folder instanceof AutodevFolder) return folder;
      n = (n as { parent?: unknown }).parent;
    }
    if (typeof arg === "string") {
      const f = this.workspaces.folders.find((x) => x.folder.uri.toString() === arg);
      if (f) return f;
    }
    const all = this.workspaces.folders;
    const some = only ? all.filter(only) : all;
    const folders = some.length > 0 ? some : all;
    if (folders.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: no workspace folder has a .autodev/ folder."));
      return undefined;
    }
    if (folders.length === 1) return folders[0];
    const picked = await vscode.window.showQuickPick(
      folders.map((f) => ({ label: f.folder.name, description: f.cwd, f })),
      { placeHolder: vscode.l10n.t("Which AutoDev workspace folder?") },
    );
    return picked?.f;
  }
}
