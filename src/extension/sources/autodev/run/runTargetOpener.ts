/**
 * Opens what a run-state node points at: a state file at a line (config.json, a response, the
 * delegation — editable: fixing a config or writing a response is the user's job), a tournament
 * artifact read-only (its text in an `autodev-view` document), two artifacts as a read-only diff,
 * or a task node of the tree. Paths are confined to the workspace folder.
 */
import * as vscode from "vscode";
import { ReadOnlyDocuments } from "../../../readOnlyDocuments";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { fileInside } from "../../../workspaceFiles";
import { autodevRequest } from "../autodevRequest";
import { parseNodeTarget } from "../../sourceTargetOpener";
import type { AutodevFolders } from "../folder/autodevFolders";

const READ_ONLY_UNDER = ".autodev/tournaments/";
const MAX_ARTIFACT_BYTES = 16 * 1024 * 1024;

/** Opens run-state node targets. */
export class RunTargetOpener {
  constructor(
    private readonly folders: AutodevFolders,
    private readonly docs: ReadOnlyDocuments,
    private readonly worker: StateWorkerClient,
  ) {}

  /** The `autodev.openRunTarget` handler: `(folder uri, target)`. */
  async open(folderUri: unknown, rawTarget: unknown): Promise<void> {
    const folder = typeof folderUri === "string" ? this.folders.byUri(folderUri) : undefined;
    if (!folder) throw new Error(vscode.l10n.t("that AutoDev folder is no longer in this workspace"));
    const target = parseNodeTarget(rawTarget);
    switch (target.kind) {
      case "file":
        if (target.file.startsWith(READ_ONLY_UNDER)) {
          await vscode.window.showTextDocument(await this.readOnly(folder.cwd, target.file), { preview: true });
          return;
        }
        await vscode.window.showTextDocument(await this.inside(folder.cwd, target.file), {
          preview: true,
          selection: new vscode.Range(Math.max(0, (target.line ?? 1) - 1), 0, Math.max(0, (target.line ?? 1) - 1), 0),
        });
        return;
      case "diff": {
        const side = (s: typeof target.left) =>
          s.kind === "file" ? this.readOnly(folder.cwd, s.file) : Promise.resolve(this.docs.put(s.name, s.text));
        await vscode.commands.executeCommand(
          "vscode.diff",
          await side(target.left),
          await side(target.right),
          target.title,
          { preview: true },
        );
        return;
      }
      case "reveal": {
        const taskId = /^autodev\|task\|(.+)$/.exec(target.nodeId)?.[1];
        if (taskId) await vscode.commands.executeCommand("autodev.revealTask", folder.folder.uri.toString(), taskId);
        return;
      }
      case "text":
        await vscode.window.showTextDocument(this.docs.put(target.title, target.text), { preview: true });
        return;
      case "action":
        throw new Error(vscode.l10n.t("run-state nodes have no actions"));
    }
  }

  /** A state file's text as a read-only document (read by the worker: confined, regular files only, size-capped). */
  private async readOnly(cwd: string, rel: string): Promise<vscode.Uri> {
    const read = await autodevRequest(this.worker, cwd, { type: "stateFileText", rel, maxBytes: MAX_ARTIFACT_BYTES });
    if (read.kind !== "ok") {
      throw new Error(read.kind === "missing" ? vscode.l10n.t("{0} does not exist (any more)", rel) : read.error);
    }
    return this.docs.put(rel.slice(rel.lastIndexOf("/") + 1), read.text);
  }

  private inside(cwd: string, file: string): Promise<vscode.Uri> {
    return fileInside(this.worker, cwd, file, true);
  }
}
