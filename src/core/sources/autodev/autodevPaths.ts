/**
 * The `.autodev/` layout (design §10.3), defined in one place. Every path
 * builder takes the workspace folder that *contains* `.autodev/`.
 */
import * as path from "node:path";

/** Name of the state folder inside a workspace. */
export const AUTODEV_DIR = ".autodev";
/** File names inside `.autodev/`. */
export const CONFIG_FILE = "config.json";
export const SPEC_FILE = "spec.md";
export const PLAN_FILE = "plan.json";
export const LEDGER_FILE = "plan-ledger.jsonl";
/** The ledger relative to the workspace folder, with forward slashes (problems and timeline rows name it so). */
export const LEDGER_REL = `${AUTODEV_DIR}/${LEDGER_FILE}`;
const LOCK_FILE = ".lock";
export const KNOWLEDGE_FILE = "knowledge.jsonl";
export const REJECTED_LESSONS_FILE = "rejected_lessons.jsonl";
export const EVIDENCE_DIR = "evidence";
export const TOURNAMENTS_DIR = "tournaments";

/** `<cwd>/.autodev` */
export function autodevRoot(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR);
}
/** `<cwd>/.autodev/plan-ledger.jsonl` */
export function ledgerPath(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, LEDGER_FILE);
}
/** `<cwd>/.autodev/plan.json` */
export function planPath(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, PLAN_FILE);
}
/** `<cwd>/.autodev/.lock` (the OS lock Python's filelock takes) */
export function lockPath(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, LOCK_FILE);
}
/** `<cwd>/.autodev/config.json` */
export function configPath(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, CONFIG_FILE);
}
/** `<cwd>/.autodev/spec.md` */
export function specPath(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, SPEC_FILE);
}
/** `<cwd>/.autodev/evidence` */
export function evidenceDir(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, EVIDENCE_DIR);
}
/** `<cwd>/.autodev/tournaments` */
export function tournamentsDir(cwd: string): string {
  return path.join(cwd, AUTODEV_DIR, TOURNAMENTS_DIR);
}
/** `<cwd>/.autodev/sessions` */

/**
 * True when `name` is safe as one path segment inside `.autodev/evidence/`:
 * no separators, no `..`, no NUL, not absolute. Python uses task ids verbatim;
 * we refuse ids that would escape the folder.
 */
export function isSafeSegment(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= 200 &&
    !/[\\/\0]/.test(name) &&
    name !== "." &&
    name !== ".." &&
    !path.isAbsolute(name)
  );
}

/** `<cwd>/.autodev/evidence/{taskId}-{kind}.json`; throws on an unsafe id or kind. */
export function evidencePath(cwd: string, taskId: string, kind: string): string {
  const name = `${taskId}-${kind}.json`;
  if (!isSafeSegment(taskId) || !isSafeSegment(name)) throw new Error(`unsafe evidence name: ${JSON.stringify(name)}`);
  return path.join(evidenceDir(cwd), name);
}

/** `<cwd>/.autodev/evidence/{taskId}.patch`; throws on an unsafe id. */
export function patchPath(cwd: string, taskId: string): string {
  const name = `${taskId}.patch`;
  if (!isSafeSegment(taskId) || !isSafeSegment(name)) throw new Error(`unsafe patch name: ${JSON.stringify(name)}`);
  return path.join(evidenceDir(cwd), name);
}

/** The entries of `.autodev/` that AutoDev writes (any one of them marks the folder as AutoDev's). */
export const AUTODEV_MARKERS: readonly string[] = [
  LEDGER_FILE,
  CONFIG_FILE,
  SPEC_FILE,
  "inline-state.json",
  PLAN_FILE,
  "delegations",
  "responses",
  "evidence",
  KNOWLEDGE_FILE,
  "tournaments",
];

/** Globs (workspace-relative) whose creation or deletion can change what autodevPresence.ts finds. */
export const AUTODEV_DETECT_GLOBS: readonly string[] = AUTODEV_MARKERS.map((m) => `${AUTODEV_DIR}/${m}`);
