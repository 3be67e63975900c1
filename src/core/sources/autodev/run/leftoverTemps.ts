/**
 * The temp files AutoDev's atomic writes leave when it stops between writing a temp file and renaming
 * it over the real one (killed, crashed, out of disk): `.ledger.<random>.tmp` and `.plan.<random>.tmp`
 * in `.autodev/`, `.evidence.<random>.tmp` in `evidence/`, `.<name>.<random>.tmp` beside a tournament's
 * files, `knowledge.jsonl.tmp-<pid>-<hex>`. AutoDev never reads or removes them (seen in the recorded
 * default-mode run: `resume` after a kill leaves them). While AutoDev runs they are its writes in
 * flight, not leftovers.
 */
import { AUTODEV_DIR, EVIDENCE_DIR } from "../autodevPaths";
import type { TournamentSummary } from "../tournaments/tournamentIndex";

/** `tempfile.mkstemp(prefix=".<name>.", suffix=".tmp")`: eight random characters. */
const MKSTEMP = /^\.[^/\\]{1,200}\.[A-Za-z0-9_]{6,16}\.tmp$/;
/** knowledge.py's `<file>.tmp-<pid>-<6 hex>`. */
const KNOWLEDGE_TMP = /^knowledge\.jsonl\.tmp-\d{1,10}-[0-9a-f]{1,32}$/;

/** True for a file name AutoDev's writers use for a temp file. */
export function isAutodevTemp(name: string): boolean {
  return MKSTEMP.test(name) || KNOWLEDGE_TMP.test(name);
}

/** Workspace-relative paths of the temp files among `.autodev/`, `evidence/` and the tournaments' files. */
export function autodevTemps(
  rootNames: readonly string[],
  evidenceNames: readonly string[],
  tournaments: readonly TournamentSummary[],
): string[] {
  const out = [
    ...rootNames.filter(isAutodevTemp).map((n) => `${AUTODEV_DIR}/${n}`),
    ...evidenceNames.filter(isAutodevTemp).map((n) => `${AUTODEV_DIR}/${EVIDENCE_DIR}/${n}`),
  ];
  for (const t of tournaments) {
    for (const f of t.files) if (isAutodevTemp(f.split("/").pop() ?? "")) out.push(`${t.dir}/${f}`);
  }
  return out.sort();
}
