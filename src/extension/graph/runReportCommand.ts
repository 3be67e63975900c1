/**
 * "Export Run Report" (`autodev.exportRunReport`): the run report of a folder's `.autodev/` —
 * made in the state worker (the ledger is streamed there, never on the extension host) — saved
 * where the user picks, as one self-contained HTML file, Markdown or JSON. A broken ledger still
 * gets its report; the message says the verdict.
 */
import * as vscode from "vscode";
import type { FolderReviewMarks } from "../../core/sources/reviewMarkSchema";
import type { SourceSettings } from "../../core/sources/stateSource";
import type { ViewClient } from "./graphPanel";

const FORMATS = () =>
  [
    {
      format: "html",
      label: "HTML",
      detail: vscode.l10n.t("one self-contained file, no script; prints well"),
      ext: "html",
    },
    { format: "md", label: "Markdown", detail: vscode.l10n.t("for a pull request or an issue"), ext: "md" },
    { format: "json", label: "JSON", detail: vscode.l10n.t("for scripts: ok, head, plan_id, tasks"), ext: "json" },
  ] as const;

/** A format and a file given to the command (scripts, tests): it asks for neither then. */
export interface ReportTarget {
  readonly format: "md" | "html" | "json";
  readonly uri: vscode.Uri;
}

/** `{format, uri}` when `arg` is one, else undefined. */
export function reportTargetOf(arg: unknown): ReportTarget | undefined {
  const o = arg as { format?: unknown; uri?: unknown } | undefined;
  const format = FORMATS().find((f) => f.format === o?.format)?.format;
  return format && o?.uri instanceof vscode.Uri ? { format, uri: o.uri } : undefined;
}

/**
 * Asks for a format and a file (unless `given`), writes the report of `folder` with the editor's
 * reviewed marks; returns the file written, or undefined when cancelled.
 */
export async function exportRunReport(
  client: ViewClient,
  folder: vscode.WorkspaceFolder | undefined,
  reviewMarksOf: (folder: vscode.WorkspaceFolder) => Record<string, FolderReviewMarks> = () => ({}),
  given?: ReportTarget,
  settingsOf?: (folder: vscode.WorkspaceFolder) => Record<string, SourceSettings>,
): Promise<vscode.Uri | undefined> {
  const target =
    folder ??
    (vscode.workspace.workspaceFolders?.length === 1
      ? vscode.workspace.workspaceFolders[0]
      : await vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t("Run report of which folder?") }));
  if (!target) return undefined;
  const choice = given
    ? FORMATS().find((f) => f.format === given.format)
    : await vscode.window.showQuickPick(
        FORMATS().map((f) => ({ ...f, description: f.detail })),
        { placeHolder: vscode.l10n.t("Format of the run report") },
      );
  if (!choice) return undefined;
  const file =
    given?.uri ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(target.uri, `autodev-run-report.${choice.ext}`),
      filters: { [choice.label]: [choice.ext] },
      saveLabel: vscode.l10n.t("Save Run Report"),
    }));
  if (!file) return undefined;
  const answer = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t("AutoDev: making the run report…") },
    () =>
      client.request({
        type: "report",
        cwd: target.uri.fsPath,
        format: choice.format,
        reviewMarks: reviewMarksOf(target),
        settings: settingsOf?.(target),
      }),
  );
  await vscode.workspace.fs.writeFile(file, Buffer.from(answer.text, "utf8"));
  const open = vscode.l10n.t("Open");
  const shown = answer.ok
    ? vscode.window.showInformationMessage(vscode.l10n.t("Run report saved: the ledger verifies."), open)
    : vscode.window.showWarningMessage(
        vscode.l10n.t("Run report saved. The ledger is BROKEN; the report's verdict says where."),
        open,
      );
  void shown.then((pick) => pick === open && vscode.commands.executeCommand("vscode.open", file));
  return file;
}
