/**
 * A warning badge on a task whose status implies evidence it lacks (reviewed
 * or later without a valid review bundle, tested or later without a valid test
 * bundle). Tree items carry no status hook of their own, so the badge is a file
 * decoration on an `autodev-task:` resource URI: a task item that sets
 * `resourceUri = taskDecorationUri(folder, taskId)` gets it.
 */
import * as vscode from "vscode";
import { Task } from "../../../../core/sources/autodev/plan/schemas";
import { AutodevFolder } from "../folder/autodevFolder";
import type { AutodevFolders } from "../folder/autodevFolders";
import { Disposable } from "../../../disposable";
import { EvidenceTreeContributor } from "./evidenceTreeContributor";

/** The scheme of task resource URIs (decorations only; never opened). */
const TASK_DECORATION_SCHEME = "autodev-task";

/** The resource URI a task's tree item sets to receive its evidence badge. */
export function taskDecorationUri(folder: AutodevFolder, taskId: string): vscode.Uri {
  return vscode.Uri.from({
    scheme: TASK_DECORATION_SCHEME,
    path: `/${encodeURIComponent(taskId)}`,
    query: new URLSearchParams({ f: folder.folder.uri.toString() }).toString(),
  });
}

/** FileDecorationProvider of missing-evidence badges. */
export class EvidenceTaskDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly changed = this.register(new vscode.EventEmitter<undefined>());
  readonly onDidChangeFileDecorations = this.changed.event;

  constructor(
    private readonly folders: AutodevFolders,
    private readonly contributor: EvidenceTreeContributor,
  ) {
    super();
    this.register(vscode.window.registerFileDecorationProvider(this));
    this.register(
      folders.onDidChange(() => this.changed.fire(undefined)),
      contributor.onDidRefresh(() => this.changed.fire(undefined)),
    );
  }

  async provideFileDecoration(uri: vscode.Uri): Promise<vscode.FileDecoration | undefined> {
    if (uri.scheme !== TASK_DECORATION_SCHEME) return undefined;
    const folderUri = new URLSearchParams(uri.query).get("f");
    const folder = folderUri ? this.folders.byUri(folderUri) : undefined;
    const taskId = decodeURIComponent(uri.path.slice(1));
    const task: Task | undefined = folder?.plan?.phases.flatMap((p) => p.tasks).find((t) => t.id === taskId);
    if (!folder || !task) return undefined;
    const te = await this.contributor.taskEvidence(folder, task);
    if (te.missing.length === 0) return undefined;
    return {
      badge: "!",
      tooltip:
        te.missing.length === 1
          ? vscode.l10n.t(
              "status '{0}' implies {1} evidence, which is missing or invalid",
              String(task.status),
              te.missing[0],
            )
          : vscode.l10n.t(
              "status '{0}' implies {1} and {2} evidence, which is missing or invalid",
              String(task.status),
              te.missing.slice(0, -1).join(", "),
              te.missing[te.missing.length - 1],
            ),
      color: new vscode.ThemeColor("problemsWarningIcon.foreground"),
      propagate: false,
    };
  }
}
