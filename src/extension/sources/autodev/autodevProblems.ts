/**
 * What Problems shows for an AutoDev folder: the problems the worker's refresh composed
 * (autodevSnapshot.ts, the composition `autodev-state check` prints), with what only the editor
 * adds — the Problems column of each part, the entry before a broken link as related information,
 * and a lost pinned head (a head pinned in an earlier session of this workspace).
 */
import * as vscode from "vscode";
import { LEDGER_REL } from "../../../core/sources/autodev/autodevPaths";
import type { AutodevProblem, AutodevProblemPart } from "../../../core/sources/autodev/autodevSnapshot";
import type { FolderProblem } from "../sourceAdapter";

/** The Problems column of each part. */
const ORIGIN: Record<AutodevProblemPart, string> = {
  ledger: "AutoDev ledger",
  contract: "AutoDev contract",
  run: "AutoDev",
};
/** Findings about a link between two entries: the entry before is related. */
const LINK_KINDS: ReadonlySet<string> = new Set([
  "prev_hash_mismatch",
  "seq_jump",
  "inserted_entry",
  "dropped_entries",
]);

/** The folder's problems: the refresh's, then a lost pinned head (`pinnedHeadLost`: why, or null). */
export function folderProblems(problems: readonly AutodevProblem[], pinnedHeadLost: string | null): FolderProblem[] {
  const out: FolderProblem[] = problems.map(({ part, ...p }) => ({
    ...p,
    origin: ORIGIN[part] ?? ORIGIN.run,
    related:
      p.file === LEDGER_REL && p.line !== null && p.line > 1 && LINK_KINDS.has(p.code)
        ? [{ file: LEDGER_REL, line: p.line - 1, message: vscode.l10n.t("the entry before it") }]
        : undefined,
  }));
  if (pinnedHeadLost) {
    out.push({
      file: LEDGER_REL,
      line: null,
      severity: "error",
      code: "pinned_head_lost",
      message: vscode.l10n.t(
        "The ledger no longer extends the pinned head: {0} Restore the ledger from a copy, or unpin the head (AutoDev: Unpin Verified Head) if this history is the one to keep.",
        pinnedHeadLost,
      ),
      origin: ORIGIN.ledger,
    });
  }
  return out;
}
