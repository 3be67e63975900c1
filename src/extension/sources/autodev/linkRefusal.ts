/**
 * In an untrusted workspace, a `.autodev/` (or ledger) that resolves outside the workspace folder
 * is not read at all: a cloned repository must not make us read files elsewhere on the machine.
 * Trusted: read (never written; the core's PlanManager refuses writes through such links).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { autodevRoot, ledgerPath } from "../../../core/sources/autodev/autodevPaths";
import { isInside } from "../../../core/fs/pathInside";

/** Why `folder`'s AutoDev state must not be read, or null. */
export function linkRefusal(folder: string): string | null {
  if (vscode.workspace.isTrusted) return null;
  try {
    const root = fs.realpathSync(folder);
    for (const p of [autodevRoot(folder), ledgerPath(folder)]) {
      if (!fs.existsSync(p)) continue;
      if (!isInside(root, fs.realpathSync(p))) {
        return vscode.l10n.t(
          "{0} links outside this workspace folder; it is not read in an untrusted workspace. Trust the workspace to read it (it is never written through the link).",
          path.relative(folder, p),
        );
      }
    }
  } catch (e) {
    return vscode.l10n.t("cannot resolve .autodev/: {0}", e instanceof Error ? e.message : String(e));
  }
  return null;
}
