/**
 * The writing subcommands of `autodev-state`; each goes through
 * PlanManager's locked commit path.
 */
import * as fs from "node:fs";
import { ParsedArgs, UsageError, lockTimeout, withOptionalDir } from "../../cliArgs";
import { println } from "../../cliOutput";
import { requireDir } from "../../cliArgs";
import { requireKnownOp, requirePlan, requireTask } from "./cliPreflight";
import { PlanManager } from "../../../core/sources/autodev/ledger/planManager";
import { PyObject, PyValue, isPyObject } from "../../../core/pyjson/pyValue";
import { parsePyJson, PyJsonError } from "../../../core/pyjson/pyJsonParse";
import { TASK_STATUSES, validatePlan } from "../../../core/sources/autodev/plan/schemas";
import { InvalidInputError } from "../../../core/errors";
import { AUDIT_OPS, PLAN_OPS, ReplayError, applyStrict, findTask } from "../../../core/sources/autodev/ledger/replay";
import { assertTransition } from "../../../core/sources/autodev/plan/taskFsm";
import { assertAppendAllowed, assertStatusChangeAllowed } from "../../../core/sources/autodev/contract/ledgerOpGuard";
import type { Plan } from "../../../core/sources/autodev/plan/schemas";

/** The commit path for DIR; every argument is checked before this is called, so a mistake touches nothing. */
function manager(dir: string, args: ParsedArgs): PlanManager {
  requireDir(dir);
  return new PlanManager(dir, {
    sessionId: args.options.get("session") ?? "autodev-state-cli",
    lockTimeoutS: lockTimeout(args),
  });
}

/** Checks the options, that DIR has a plan and that it has `task`; creates nothing (no .autodev/, no .lock). */
async function preflightTask(dir: string, args: ParsedArgs, task: string): Promise<Plan> {
  lockTimeout(args);
  const plan = await requirePlan(dir);
  requireTask(plan, task);
  return plan;
}

/** `set-status [DIR] TASK STATUS [--reason TEXT]` */
export async function cmdSetStatus(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK", "STATUS"]);
  const [task, status] = values;
  if (!(TASK_STATUSES as readonly string[]).includes(status)) {
    throw new UsageError(`unknown status ${JSON.stringify(status)}; one of: ${TASK_STATUSES.join(", ")}`);
  }
  const reason = args.options.get("reason");
  const meta: PyObject | undefined = reason !== undefined ? new Map([["blocked_reason", reason]]) : undefined;
  // The one status check (state machine, reason, phase contract) first: a refusal writes nothing.
  const plan = await preflightTask(dir, args, task);
  const current = plan.phases.flatMap((p) => p.tasks).find((t) => t.id === task)!;
  await assertStatusChangeAllowed(dir, plan, { taskId: task, status, reason }, String(current.status));
  const t = await manager(dir, args).updateTaskStatus(task, status, meta);
  println(`task ${t.id} is now ${String(t.status)}`);
  return 0;
}

/** `retry [DIR] TASK` */
export async function cmdRetry(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK"]);
  await preflightTask(dir, args, values[0]);
  const count = await manager(dir, args).markTaskRetry(values[0]);
  println(`task ${values[0]} retry_count is now ${count}`);
  return 0;
}

/** `escalate [DIR] TASK` */
export async function cmdEscalate(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK"]);
  await preflightTask(dir, args, values[0]);
  await manager(dir, args).markEscalated(values[0]);
  println(`task ${values[0]} is escalated`);
  return 0;
}

function readJsonArg(args: ParsedArgs, inline: string, fileOpt: string): PyValue {
  const text = args.options.get(inline);
  const file = args.options.get(fileOpt);
  if ((text === undefined) === (file === undefined)) {
    throw new UsageError(`give exactly one of --${inline} JSON or --${fileOpt} FILE`);
  }
  return readJsonText(text, file, inline);
}

function readJsonText(text: string | undefined, file: string | undefined, inline: string): PyValue {
  let source: string;
  try {
    source = text ?? fs.readFileSync(file!, "utf8");
  } catch (e) {
    throw new InvalidInputError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  try {
    return parsePyJson(source.replace(/^\uFEFF/, "").trim());
  } catch (e) {
    throw new InvalidInputError(
      `${file ?? `--${inline}`} is not valid JSON: ${e instanceof PyJsonError ? e.message : String(e)}`,
    );
  }
}

/**
 * `append [DIR] OP (--payload JSON | --payload-file FILE) [--force]`: refuses entries that would
 * break replay, ops AutoDev never writes and payloads it never writes (unless `--force`), and every
 * status change through the same check as `set-status`; a change to the plan is snapshotted
 * (plan.json and a snapshot entry), as AutoDev's own writes are.
 */
export async function cmdAppend(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["OP"]);
  const op = values[0];
  requireKnownOp(op);
  const payload = readJsonArg(args, "payload", "payload-file");
  if (!isPyObject(payload)) throw new InvalidInputError("the payload must be a JSON object");
  lockTimeout(args);
  // Only a plan op may start a ledger; anything else needs a plan to apply to (and creates nothing without one).
  const force = args.switches.has("force");
  if (!PLAN_OPS.has(op)) {
    const plan = await requirePlan(dir);
    const taskId = payload.get("task_id");
    if (
      typeof taskId === "string" &&
      (op === "update_task_status" || plan.phases.some((p) => p.tasks.some((t) => t.id === taskId)))
    ) {
      requireTask(plan, taskId); // replay rejects an unknown id here; other ops tolerate one, not a repeated one
    }
    await assertAppendAllowed(dir, plan, op, payload, force);
  } else {
    requireDir(dir);
    await assertAppendAllowed(dir, null, op, payload, force);
  }
  const pm = manager(dir, args);
  let seq: number | bigint = 0;
  let snapshot: Plan | undefined;
  await pm.commit(
    (plan) => {
      // Check the entry against the current plan the way replay will apply it.
      const probe = { seq: 0, timestamp: "", session_id: "", op, payload, prev_hash: "", self_hash: "" } as never;
      try {
        const status = payload.get("status");
        const task = plan ? findTask(plan, payload.get("task_id") ?? "") : undefined;
        const applied = applyStrict(plan ? structuredClonePlan(plan) : null, probe);
        if (op === "update_task_status" && task && typeof status === "string" && status !== task.status) {
          assertTransition(String(task.status), status);
        }
        // A change to the plan is snapshotted as AutoDev's writes are (an audit-only op is not).
        if (!AUDIT_OPS.has(op) && op !== "snapshot" && applied.plan) snapshot = applied.plan;
      } catch (e) {
        if (e instanceof ReplayError) {
          throw new InvalidInputError(
            `refusing to append: replay would fail: ${e.message.replace("entry seq=0 ", "")}`,
          );
        }
        throw e;
      }
      return { audit: { op, payload }, snapshot, result: undefined };
    },
    (e) => (seq = e.seq),
  );
  println(`appended ${op} as seq ${seq}`);
  return 0;
}

function structuredClonePlan<T>(plan: T): T {
  return structuredClone(plan);
}

/** `init [DIR] --plan FILE` */
export async function cmdInit(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const file = args.options.get("plan");
  if (file === undefined) throw new UsageError("missing --plan FILE (a Plan as JSON)");
  requireDir(dir);
  const raw = readJsonText(undefined, file, "plan");
  const res = validatePlan(raw);
  if (!res.ok) throw new InvalidInputError(`${file} is not a valid Plan: ${res.error}`);
  const plan = await manager(dir, args).initPlan(res.value);
  println(`initialized plan ${plan.plan_id} (${plan.phases.reduce((n, p) => n + p.tasks.length, 0)} tasks)`);
  return 0;
}
