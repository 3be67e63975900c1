/**
 * AutoDev's part of the status bar item, over every AutoDev folder: progress and integrity at a
 * glance (`AutoDev 7/12 · ledger ok`, `ledger broken at line 34`, `verifying 42%`, `time travel`).
 * It is the primary part: its icon and colour lead the item, a click verifies the ledger.
 */
import * as vscode from "vscode";
import type { StatusPart } from "../sourceAdapter";
import type { AutodevFolder } from "./folder/autodevFolder";
import { planProgress } from "../../../core/sources/autodev/tree/planSummary";

/** The status part of `folders` (null when there are none). */
export function autodevStatusPart(folders: readonly AutodevFolder[]): StatusPart | null {
  if (folders.length === 0) return null;
  let done = 0;
  let total = 0;
  const broken: string[] = [];
  const rewritten: string[] = [];
  let verifying = false;
  let travel = false;
  const multi = folders.length > 1;
  const planPhase = folders.length > 0 && folders.every((f) => f.hasLedger === false);
  for (const f of folders) {
    // The tree's count (planTree.ts), of the live plan whatever the time travel.
    const p = f.live ? planProgress(f.live) : null;
    done += p?.done ?? 0;
    total += p?.total ?? 0;
    if (f.report === null) verifying = verifying || f.hasLedger !== false;
    else if (!f.report.ok) {
      const line = f.report.errors[0]?.atLine ?? "?";
      broken.push(multi ? vscode.l10n.t("{0}: line {1}", f.folder.name, line) : vscode.l10n.t("line {0}", line));
    }
    if (f.pinnedHeadLost) {
      broken.push(multi ? vscode.l10n.t("{0}: pinned head lost", f.folder.name) : vscode.l10n.t("pinned head lost"));
    }
    if (f.rewriteFinding) rewritten.push(f.folder.name);
    if (f.timeTravel) travel = true;
  }
  const progress = folders.find((f) => f.progress !== null)?.progress ?? null;
  const integrity =
    progress ??
    (broken.length
      ? vscode.l10n.t("ledger broken at {0}", broken.join(", "))
      : planPhase
        ? vscode.l10n.t("no ledger yet")
        : verifying
          ? vscode.l10n.t("verifying…")
          : rewritten.length
            ? ""
            : vscode.l10n.t("ledger ok"));
  const rewriteText = rewritten.length
    ? multi
      ? vscode.l10n.t("history rewritten: {0}", rewritten.join(", "))
      : vscode.l10n.t("history rewritten")
    : "";
  const text = [
    vscode.l10n.t("AutoDev {0}/{1}", done, total),
    integrity,
    rewriteText,
    travel ? `$(history) ${vscode.l10n.t("time travel")}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const tooltip = broken.length
    ? vscode.l10n.t(
        "{0} of {1} tasks complete or skipped. The ledger failed verification. Click to verify the ledger again.",
        done,
        total,
      )
    : rewritten.length
      ? vscode.l10n.t(
          "{0} of {1} tasks complete or skipped. The ledger verifies, but its history differs from the one verified earlier (see Problems). Click to verify the ledger again.",
          done,
          total,
        )
      : vscode.l10n.t(
          "{0} of {1} tasks complete or skipped. Ledger verified. Click to verify the ledger again.",
          done,
          total,
        );
  // Compact: the bare progress, then only what is not ok (verifying and time travel are states to know).
  const compact = [
    `${done}/${total}`,
    integrity === vscode.l10n.t("ledger ok") ? "" : integrity,
    rewriteText,
    travel ? `$(history) ${vscode.l10n.t("time travel")}` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  return {
    text,
    compact,
    errors: broken.length,
    warnings: rewritten.length,
    primary: {
      icon: broken.length || rewritten.length ? "$(warning)" : progress || verifying ? "$(sync~spin)" : "$(checklist)",
      error: broken.length > 0,
      warning: rewritten.length > 0,
      tooltip,
      command: "autodev.verify",
    },
  };
}
