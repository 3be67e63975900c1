/**
 * Task commands: the FSM's user-driven edges (Skip Task: pending → skipped;
 * Resume Blocked Task: blocked → in_progress) with confirmation, written by
 * the worker through the core's locked commit path; Copy Task ID; Reveal Task.
 */
import * as os from "node:os";
import * as vscode from "vscode";
import { Task } from "../../../../core/sources/autodev/plan/schemas";
import { AutodevFolder } from "../folder/autodevFolder";
import { CommandHandler } from "../../../commandManager";
import { FolderPicker } from "../folder/folderPicker";
import { StateWorkerClient, WorkerRequestError } from "../../../stateWorkerClient";
import { OutputLog } from "../../../outputLog";
import type { AutodevNode } from "../autodevNodes";
import type { AutodevTree } from "../autodevTree";
import type { TreeHost } from "../../adapterHost";
import { autodevRequest } from "../autodevRequest";
import type { SettingsReader } from "../../../settings/settings";
import { taskStatusLabel as statusLabel } from "../../../../core/sources/taskStatusIcons";

type TaskArg = { folder: AutodevFolder; task: Task };

/** A task in a picker: id and title, its status in words ("in progress", never `in_progress`). */
export function taskPickItem(t: Pick<Task, "id" | "title" | "status">): { label: string; description: string } {
  return { label: `${t.id} ${t.title}`, description: statusLabel(String(t.status)) };
}

/** The user-driven FSM edges (the verb names the edge in tests and logs). */
export type TransitionVerb = "Skip" | "Resume";

/** The words of one edge in the UI language: its button, its confirmation and its failure. */
function verbTexts(
  verb: TransitionVerb,
  id: string,
  title: string,
  from: string,
  to: string,
  why = "",
): { button: string; confirm: string; failed: string } {
  return verb === "Skip"
    ? {
        button: vscode.l10n.t("Skip"),
        confirm: vscode.l10n.t(
          'Skip task {0} "{1}"? This appends a ledger entry ({2} → {3}) and a snapshot, as Python AutoDev would.',
          id,
          title,
          from,
          to,
        ),
        failed: vscode.l10n.t("AutoDev: could not skip task {0}: {1}", id, why),
      }
    : {
        button: vscode.l10n.t("Resume"),
        confirm: vscode.l10n.t(
          'Resume task {0} "{1}"? This appends a ledger entry ({2} → {3}) and a snapshot, as Python AutoDev would.',
          id,
          title,
          from,
          to,
        ),
        failed: vscode.l10n.t("AutoDev: could not resume task {0}: {1}", id, why),
      };
}

function asTaskNode(arg: unknown): TaskArg | undefined {
  const n = arg as AutodevNode | undefined;
  return n && typeof n === "object" && n.kind === "task" ? { folder: n.folder, task: n.task } : undefined;
}

/** Implements the task commands. */
export class TaskCommands {
  constructor(
    private readonly worker: StateWorkerClient,
    private readonly picker: FolderPicker,
    private readonly tree: AutodevTree,
    private readonly treeHost: TreeHost,
    private readonly settings: SettingsReader,
    private readonly log: OutputLog,
  ) {}

  /** id → handler */
  handlers(): Record<string, CommandHandler> {
    return {
      "autodev.skipTask": (arg) => this.transition(arg, "pending", "skipped", "Skip"),
      "autodev.resumeTask": (arg) => this.transition(arg, "blocked", "in_progress", "Resume"),
      "autodev.copyTaskId": async (arg) => {
        const t = asTaskNode(arg) ?? (await this.pickTask(undefined, null));
        if (t) await vscode.env.clipboard.writeText(t.task.id);
      },
      "autodev.revealTask": (folderUri, taskId) =>
        this.reveal(folderUri, typeof taskId === "string" ? taskId : undefined),
    };
  }

  private async pickTask(arg: unknown, status: string | null): Promise<TaskArg | undefined> {
    const folder = await this.picker.pick(arg);
    if (!folder?.live) return undefined;
    const tasks = folder.live.phases.flatMap((p) => p.tasks).filter((t) => status === null || t.status === status);
    if (tasks.length === 0) {
      void vscode.window.showInformationMessage(
        status === null
          ? vscode.l10n.t("AutoDev: no task is in the plan.")
          : vscode.l10n.t("AutoDev: no task is {0}.", statusLabel(status)),
      );
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(
      tasks.map((t) => ({ ...taskPickItem(t), t })),
      { placeHolder: vscode.l10n.t("Which task?") },
    );
    return pick ? { folder, task: pick.t } : undefined;
  }

  /** Confirms and applies one FSM edge. Returns the new seq, or undefined. */
  async transition(
    arg: unknown,
    from: string,
    to: string,
    verb: TransitionVerb,
    confirm = true,
  ): Promise<number | undefined> {
    if (!vscode.workspace.isTrusted) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t(
          "AutoDev: this workspace is not trusted, so AutoDev State is read-only here. Trust the workspace to change task status.",
        ),
      );
      return undefined;
    }
    const picked = asTaskNode(arg) ?? (await this.pickTask(arg, from));
    if (!picked) return undefined;
    // Tree nodes can be older than the live plan: act on the task as it is now.
    const current = picked.folder.live?.phases.flatMap((p) => p.tasks).find((x) => x.id === picked.task.id);
    if (!current) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("AutoDev: task {0} is no longer in the plan.", picked.task.id),
      );
      return undefined;
    }
    const t = { folder: picked.folder, task: current };
    if (t.folder.timeTravel) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("AutoDev: you are viewing an earlier plan; go back to live before changing a task."),
      );
      return undefined;
    }
    if (String(t.task.status) !== from) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t("AutoDev: task {0} is {1}, not {2}.", t.task.id, String(t.task.status), from),
      );
      return undefined;
    }
    if (confirm) {
      const texts = verbTexts(verb, t.task.id, t.task.title, from, to);
      const ok = await vscode.window.showWarningMessage(texts.confirm, { modal: true }, texts.button);
      if (ok !== texts.button) return undefined;
    }
    try {
      const { seq } = await autodevRequest(this.worker, t.folder.cwd, {
        type: "setStatus",
        taskId: t.task.id,
        status: to,
        sessionId: `vscode-${os.hostname()}`,
        lockTimeoutS: this.settings.lockTimeoutSeconds(t.folder.folder),
        readOnly: !vscode.workspace.isTrusted,
      });
      this.log.info(`${t.folder.folder.name}: task ${t.task.id} ${from} → ${to} (ledger head seq ${seq})`);
      await t.folder.refreshLedger();
      return seq;
    } catch (e) {
      const err = e as WorkerRequestError;
      const why = err.errorName === "PlanLockTimeoutError" ? `${err.message}` : err.message;
      void vscode.window.showErrorMessage(verbTexts(verb, t.task.id, t.task.title, from, to, why).failed);
      this.log.error(`${verb} ${t.task.id} failed`, e);
      return undefined;
    }
  }

  /** Reveals a task in the state tree. */
  async reveal(folderUri: unknown, taskId?: string): Promise<void> {
    const folder = await this.picker.pick(folderUri);
    if (!folder || !taskId) return;
    await this.revealIn(folder, taskId, true);
  }

  /**
   * Reveals `taskId` of `folder` in the tree: with `focus`, selects and focuses it (telling the user
   * when the plan has no such task); without, selects it only when the view is visible and shows
   * another node. True when the selection changed.
   */
  async revealIn(folder: AutodevFolder, taskId: string, focus: boolean): Promise<boolean> {
    if (!focus && !this.treeHost.visible) return false;
    const node = await this.tree.findTaskNode(folder, taskId);
    if (!node) {
      if (focus) {
        void vscode.window.showInformationMessage(vscode.l10n.t("AutoDev: task {0} is not in the plan.", taskId));
      }
      return false;
    }
    if (!focus && this.treeHost.selectedId === node.id) return false;
    await this.treeHost.reveal(node, { select: true, focus, expand: false });
    return true;
  }
}
