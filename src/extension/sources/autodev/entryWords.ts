/**
 * A ledger entry in words for pickers and hovers: its op ("status change", "plan stored") and what
 * it did to its task ("in progress → coded", "retry 2", "escalated"), with the statuses as the tree
 * names them, never the identifiers `update_task_status` or `in_progress`.
 */
import * as vscode from "vscode";
import type { EntrySummary } from "../../../core/sources/autodev/ledger/verifyTypes";
import { statusLabel } from "./taskStatusStyle";

/** The op of an entry in words (an op AutoDev adds later reads with spaces for underscores). */
export function opWords(op: string): string {
  switch (op) {
    case "init_plan":
      return vscode.l10n.t("plan stored");
    case "update_plan":
      return vscode.l10n.t("plan updated");
    case "update_task_status":
      return vscode.l10n.t("status change");
    case "snapshot":
      return vscode.l10n.t("snapshot");
    case "append_evidence":
      return vscode.l10n.t("evidence added");
    case "impl_tournament_complete":
      return vscode.l10n.t("tournament finished");
    default:
      return op.replace(/_/g, " ");
  }
}

/** What the entry did to its task's status, in words; "" when it touched none. */
export function changeWords(e: Pick<EntrySummary, "fromStatus" | "toStatus" | "retryCount" | "escalated">): string {
  if (e.toStatus === null) return "";
  const parts: string[] = [];
  if (e.fromStatus !== e.toStatus) {
    parts.push(vscode.l10n.t("{0} → {1}", statusLabel(e.fromStatus ?? "?"), statusLabel(e.toStatus)));
  }
  if (e.retryCount !== null) parts.push(vscode.l10n.t("retry {0}", e.retryCount));
  if (e.escalated) parts.push(vscode.l10n.t("escalated"));
  if (parts.length === 0) parts.push(vscode.l10n.t("{0} (unchanged)", statusLabel(e.toStatus)));
  return parts.join(" · ");
}
