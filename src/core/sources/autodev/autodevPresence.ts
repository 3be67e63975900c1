/**
 * Is there an AutoDev run in a workspace, and how far has it got? AutoDev
 * writes `.autodev/config.json` and `spec.md` at `autodev init`, the plan
 * phase's `inline-state.json`, `delegations/`, `responses/` and
 * `evidence/plan-*.json` before any ledger exists, and `plan-ledger.jsonl`
 * only when the plan is stored. Any of these marks the folder as AutoDev's,
 * so the plan phase is visible before the first ledger line. Nothing is
 * opened: `lstat` only.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { AUTODEV_MARKERS, autodevRoot } from "./autodevPaths";

/** What `.autodev/` holds, as far as detection needs. */
export interface AutodevPresence {
  /** `.autodev/` is a real folder holding at least one of {@link AUTODEV_MARKERS}, or something that cannot be read as one (a link, EACCES). */
  readonly present: boolean;
  /**
   * The ledger: "file" (a regular file), "missing" (nothing there: the plan is not stored yet) or
   * "other" (a link, FIFO, folder…: the ledger reader says what and refuses it).
   */
  readonly ledger: "file" | "missing" | "other";
  /** The markers found, in {@link AUTODEV_MARKERS} order. */
  readonly markers: readonly string[];
}

/** What `p` is; "other" too when it cannot be told (EACCES): a state file that cannot be read is never absent. */
async function lstatKind(p: string): Promise<"file" | "dir" | "other" | "missing"> {
  try {
    const st = await fs.promises.lstat(p);
    return st.isFile() ? "file" : st.isDirectory() ? "dir" : "other";
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "missing" : "other";
  }
}

/** Looks at `<workspace>/.autodev/` without opening anything. */
export async function autodevPresence(workspace: string): Promise<AutodevPresence> {
  const root = autodevRoot(workspace);
  const rootKind = await lstatKind(root);
  if (rootKind === "missing") return { present: false, ledger: "missing", markers: [] };
  // A link, a FIFO or an unreadable entry where .autodev/ belongs: a source with an error (the ledger reader says what).
  if (rootKind !== "dir") return { present: true, ledger: "other", markers: [] };
  const kinds = await Promise.all(AUTODEV_MARKERS.map((m) => lstatKind(path.join(root, m))));
  const markers = AUTODEV_MARKERS.filter((_, i) => kinds[i] !== "missing");
  const ledgerKind = kinds[0];
  return {
    present: markers.length > 0,
    ledger: ledgerKind === "file" ? "file" : ledgerKind === "missing" ? "missing" : "other",
    markers,
  };
}
