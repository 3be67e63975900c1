/**
 * Opening a file of a workspace folder that a state source names (a problem's file, a timeline
 * row's line, a tree node's target): confined to the folder, and in an untrusted workspace never
 * through a link that leads out of it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { isInside } from "../core/fs/pathInside";

/** The URI of `file` (relative to `cwd`); throws when it is outside, or links outside while untrusted. */
export function fileInside(cwd: string, file: string): vscode.Uri {
  const abs = path.resolve(cwd, file);
  if (!isInside(cwd, abs)) {
    throw new Error(vscode.l10n.t("{0} is outside the workspace folder; it is not opened", file));
  }
  if (!vscode.workspace.isTrusted && fs.existsSync(abs)) {
    if (!isInside(fs.realpathSync(cwd), fs.realpathSync(abs))) {
      throw new Error(
        vscode.l10n.t("{0} links outside the workspace folder; it is not opened in an untrusted workspace", file),
      );
    }
  }
  return vscode.Uri.file(abs);
}

/** Opens `file` (relative to `cwd`) at 1-based `line` in a preview editor. */
export async function openFileAt(cwd: string, file: string, line?: number): Promise<void> {
  const uri = fileInside(cwd, file);
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
}
