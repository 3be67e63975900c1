/**
 * Checks the CLI makes before it reads or writes: is there a ledger where the
 * user pointed (and if not, where they probably meant), is there a plan to
 * write to, does the task exist, is the op known. Each failure is an
 * {@link InvalidInputError} (exit 2) that says what was expected, what was
 * found and what to do — and nothing on disk has been touched yet.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { InvalidInputError } from "../../../core/errors";
import { loadFromTail, loadPlan } from "../../../core/sources/autodev/ledger/ledgerReader";
import { LEDGER_OPS, Plan } from "../../../core/sources/autodev/plan/schemas";
import { AUTODEV_DIR, LEDGER_FILE, ledgerPath } from "../../../core/sources/autodev/autodevPaths";
import { autodevPresence } from "../../../core/sources/autodev/autodevPresence";

/** How many ids or names an error message lists before "… and N more". */
const LIST_LIMIT = 20;

/** `a, b, c` — at most LIST_LIMIT items, then "and N more". */
function listSome(items: readonly string[]): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, LIST_LIMIT).join(", ");
  return items.length > LIST_LIMIT ? `${shown} … and ${items.length - LIST_LIMIT} more` : shown;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A folder near `dir` that does hold a ledger: its parent when `dir` is `.autodev/` itself or inside it. */
function nearbyLedgerDir(dir: string): string | null {
  const abs = path.resolve(dir);
  let up = abs;
  for (let i = 0; i < 3; i++) {
    const parent = path.dirname(up);
    if (parent === up) break;
    if (path.basename(up) === AUTODEV_DIR && isFile(ledgerPath(parent))) return parent;
    up = parent;
  }
  return null;
}

/**
 * Makes sure `DIR/.autodev/plan-ledger.jsonl` exists; otherwise exit 2 with
 * "no AutoDev ledger at …" and the folder the user probably meant.
 */
export function requireLedger(dir: string): void {
  if (!isDirectory(dir)) {
    throw new InvalidInputError(`${dir} is not a folder (expected the folder that contains ${AUTODEV_DIR}/)`);
  }
  const ledger = ledgerPath(dir);
  // Only "nothing there" (lstat ENOENT) is answered here. Anything else at the ledger's path (a FIFO, a
  // device, a link, EACCES) is left to the command's checked read, which names what it found and what to
  // do (src/core/fs/fileGuard.ts).
  try {
    fs.lstatSync(ledger);
    return;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") return;
  }
  const found = nearbyLedgerDir(dir);
  // Suggest it the way the user wrote DIR: relative stays relative.
  const near = found === null || path.isAbsolute(dir) ? found : path.relative(process.cwd(), found) || ".";
  if (near !== null) {
    throw new InvalidInputError(
      `no AutoDev ledger at ${ledger}; did you mean ${near}? (DIR is the folder that contains ${AUTODEV_DIR}/)`,
    );
  }
  const hint = isDirectory(path.join(dir, AUTODEV_DIR))
    ? `${AUTODEV_DIR}/ exists but holds no ${LEDGER_FILE} yet: run AutoDev (\`autodev plan\`) or \`autodev-state init ${dir} --plan FILE\``
    : `this folder has no ${AUTODEV_DIR}/: point at the folder AutoDev runs in, or create a plan with \`autodev-state init ${dir} --plan FILE\``;
  throw new InvalidInputError(`no AutoDev ledger at ${ledger}; ${hint}`);
}

/** What a read command finds: a ledger, or the plan phase (`.autodev/` written by AutoDev, no ledger yet). */
export type AutodevStage = "ledger" | "plan_phase";

/**
 * Like {@link requireLedger}, but the plan phase is an answer, not an error: AutoDev has written
 * `.autodev/` (config.json, spec.md, the plan phase's delegations…) and no ledger yet.
 */
export async function requireAutodevState(dir: string): Promise<AutodevStage> {
  if (isDirectory(dir)) {
    const presence = await autodevPresence(dir);
    if (presence.present && presence.ledger === "missing") return "plan_phase";
  }
  requireLedger(dir);
  return "ledger";
}

/** The sentence every read command says in the plan phase. */
export function noLedgerYet(dir: string): string {
  return `no ledger yet in ${path.join(dir, AUTODEV_DIR)}: AutoDev has not stored a plan (the plan phase writes ${LEDGER_FILE} when \`autodev plan\` finishes)`;
}

/**
 * The live plan a write will apply to (the fast tail load, else a full load);
 * exit 2 when the ledger has no plan yet. Never creates anything.
 */
export async function requirePlan(dir: string): Promise<Plan> {
  requireLedger(dir);
  const plan = await livePlan(dir);
  if (plan === null) {
    throw new InvalidInputError(
      `the ledger at ${ledgerPath(dir)} has no plan yet (no init_plan entry); nothing was written. Create one with \`autodev-state init ${dir} --plan FILE\``,
    );
  }
  return plan;
}

/** Every task id of `plan`, in plan order. */
export function taskIds(plan: Plan): string[] {
  return plan.phases.flatMap((p) => p.tasks.map((t) => t.id));
}

/** Exit 2 naming the task ids that exist when `plan` has no task `id`, or when several tasks share it. */
export function requireTask(plan: Plan, id: string): void {
  const ids = taskIds(plan);
  const count = ids.filter((x) => x === id).length;
  if (count === 0) throw new InvalidInputError(unknownTaskMessage(id, ids));
  if (count > 1) {
    throw new InvalidInputError(
      `task id ${JSON.stringify(id)} is used by ${count} tasks of the plan; a write would reach only the first (as AutoDev's own lookup does). Nothing was written. Give each task its own id (a replan), then retry.`,
    );
  }
}

/** "unknown task 9.9; the plan's tasks are: 1.1, 1.2, …" */
export function unknownTaskMessage(id: string, ids: readonly string[]): string {
  return `unknown task ${JSON.stringify(id)}; the plan's tasks are: ${listSome(ids)}`;
}

/** Exit 2 naming the known ops when `op` is not one of them. */
export function requireKnownOp(op: string): void {
  if (!(LEDGER_OPS as readonly string[]).includes(op)) {
    throw new InvalidInputError(`unknown op ${JSON.stringify(op)}; known ops: ${LEDGER_OPS.join(", ")}`);
  }
}

/** The live plan for a read command's task argument, or null when the ledger has none (then any id is accepted). */
export async function livePlan(dir: string): Promise<Plan | null> {
  return (await loadFromTail(dir)).plan ?? (await loadPlan(dir)).plan;
}
