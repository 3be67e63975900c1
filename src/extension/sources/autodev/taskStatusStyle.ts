/**
 * How each task status looks in VS Code terms: the shared icon language of
 * src/core/sources/taskStatusIcons.ts as ThemeIcons.
 */
import * as vscode from "vscode";
import { isDoneStatus, taskStatusIcon, taskStatusLabel } from "../../../core/sources/taskStatusIcons";

/** The icon of a status (an unknown status gets a question mark). */
export function statusIcon(status: string): vscode.ThemeIcon {
  const icon = taskStatusIcon(status);
  return new vscode.ThemeIcon(icon.id, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
}

/** Human label of a status. */
export function statusLabel(status: string): string {
  return taskStatusLabel(status);
}

/** Statuses that count as done for progress. */
export function isDone(status: string): boolean {
  return isDoneStatus(status);
}
