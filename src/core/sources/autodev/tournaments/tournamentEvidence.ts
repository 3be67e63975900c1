/**
 * Which task an impl tournament belongs to: Python records it only in the
 * task's tournament evidence (`evidence/{task}-tournament.json`, with
 * `tournament_id` and `converged`), so the evidence folder is scanned for
 * valid tournament bundles. Confined reads; never throws.
 */
import { parseEvidence } from "../evidence/evidenceStore";
import { AUTODEV_DIR, EVIDENCE_DIR } from "../autodevPaths";
import { listWorkspaceDir, readWorkspaceStateFile } from "../stateFile";

const MAX_BUNDLES = 2000;

/** tournament id → the task whose tournament evidence names it, and whether it converged. */
export async function tournamentEvidenceIndex(
  cwd: string,
): Promise<Map<string, { taskId: string; converged: boolean }>> {
  const out = new Map<string, { taskId: string; converged: boolean }>();
  const rel = `${AUTODEV_DIR}/${EVIDENCE_DIR}`;
  const listing = await listWorkspaceDir(cwd, rel);
  if (!listing.ok) return out;
  for (const name of listing.names.filter((n) => n.endsWith("-tournament.json")).slice(0, MAX_BUNDLES)) {
    const read = await readWorkspaceStateFile(cwd, `${rel}/${name}`, 16 * 1024 * 1024);
    if (read.kind !== "ok") continue;
    const parsed = parseEvidence(Buffer.from(read.text, "utf8"));
    if (parsed.ok && parsed.evidence.kind === "tournament") {
      out.set(parsed.evidence.tournament_id, { taskId: parsed.evidence.task_id, converged: parsed.evidence.converged });
    }
  }
  return out;
}
