/**
 * In an untrusted workspace, a `.autodev/` (or ledger) that resolves outside the workspace folder
 * is not read at all: a cloned repository must not make us read files elsewhere on the machine.
 * Trusted: read (never written; the core's PlanManager refuses writes through such links). The
 * links are resolved in the state worker (`linksOut`), not on the host.
 */
import * as vscode from "vscode";
import type { StateWorkerClient } from "../../../stateWorkerClient";
import { autodevRequest } from "../autodevRequest";
import { errorText } from "../../../../core/text/errorText";

/** Why `folder`'s AutoDev state must not be read, or null (always null in a trusted workspace). */
export async function linkRefusal(worker: StateWorkerClient, folder: string): Promise<string | null> {
  if (vscode.workspace.isTrusted) return null;
  try {
    const found = await autodevRequest(worker, folder, { type: "linksOut" });
    if (found.error !== null) return vscode.l10n.t("cannot resolve .autodev/: {0}", found.error);
    if (found.link === null) return null;
    return vscode.l10n.t(
      "{0} links outside this workspace folder; it is not read in an untrusted workspace. Trust the workspace to read it (it is never written through the link).",
      found.link,
    );
  } catch (e) {
    return vscode.l10n.t("cannot resolve .autodev/: {0}", errorText(e));
  }
}
