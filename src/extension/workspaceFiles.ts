/**
 * Opening a file of a workspace folder that a state source names (a problem's file, a timeline
 * row's line, a tree node's target): confined to the folder, and in an untrusted workspace never
 * through a link that leads out of it (resolved by the state worker: the host does no file I/O).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { isInside } from "../core/fs/pathInside";
import type { StateWorkerClient } from "./stateWorkerClient";

/**
 * The URI of `file` (relative to `cwd`); rejects when it is outside, or (untrusted, or `always`)
 * links outside.
 */
export async function fileInside(
  worker: StateWorkerClient,
  cwd: string,
  file: string,
  always = false,
): Promise<vscode.Uri> {
  const abs = path.resolve(cwd, file);
  if (!isInside(cwd, abs)) {
    throw new Error(vscode.l10n.t("{0} is outside the workspace folder; it is not opened", file));
  }
  const rel = path.relative(cwd, abs);
  if ((always || !vscode.workspace.isTrusted) && (await worker.request({ type: "linksOut", cwd, file: rel }))) {
    throw new Error(
      always
        ? vscode.l10n.t("{0} links outside the workspace folder; it is not opened", file)
        : vscode.l10n.t("{0} links outside the workspace folder; it is not opened in an untrusted workspace", file),
    );
  }
  return vscode.Uri.file(abs);
}

/** Opens `file` (relative to `cwd`) at 1-based `line` in a preview editor. */
export async function openFileAt(worker: StateWorkerClient, cwd: string, file: string, line?: number): Promise<void> {
  const uri = await fileInside(worker, cwd, file);
  const pos = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
  await vscode.window.showTextDocument(uri, { selection: new vscode.Range(pos, pos), preview: true });
}
