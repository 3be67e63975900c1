/**
 * The read-only subcommands of `autodev-state`: replay, load, log (status is statusCommand.ts,
 * verify verifyCommand.ts). Each returns its exit code.
 */
import { ParsedArgs, UsageError, withOptionalDir } from "../../cliArgs";
import { noLedgerYet, requireAutodevState, requireKnownOp, taskIds, unknownTaskMessage } from "./cliPreflight";
import { InvalidInputError } from "../../../core/errors";
import { changeWords } from "../../../core/timeline/timelineWords";
import { LEDGER_WORDS } from "../../../core/sources/autodev/timeline/ledgerTimelineWords";
import { col, eprintln, printJson, println } from "../../cliOutput";
import { loadPlan, replayLedger, verifyLedger } from "../../../core/sources/autodev/ledger/ledgerReader";
import { Plan, planToPy } from "../../../core/sources/autodev/plan/schemas";
import { EntrySummary } from "../../../core/sources/autodev/ledger/verifyTypes";
import { displayValue } from "../../../core/text/displayText";

/** `replay [DIR] [--at SEQ] [--json]` */
export async function cmdReplay(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const atRaw = args.options.get("at");
  let at: number | undefined;
  if (atRaw !== undefined) {
    at = Number(atRaw);
    if (!/^\s*\d+\s*$/.test(atRaw) || !Number.isSafeInteger(at) || at < 1) {
      throw new UsageError(`--at must be an entry's seq (a whole number from 1), got ${JSON.stringify(atRaw)}`);
    }
  }
  if ((await requireAutodevState(dir)) === "plan_phase") {
    if (at !== undefined) throw new InvalidInputError(`replay --at ${at}: ${noLedgerYet(dir)}`);
    return printPlan(args, null, 0, dir);
  }
  const { plan, entries } = await replayLedger(dir, at);
  if (at !== undefined && at > entries) {
    throw new InvalidInputError(
      entries === 0
        ? `replay --at ${at}: the ledger is empty`
        : `replay --at ${at}: past the last entry (seq ${entries}); choose a seq from 1 to ${entries}`,
    );
  }
  return printPlan(args, plan, entries);
}

/** `load [DIR] [--json]` */
export async function cmdLoad(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  if ((await requireAutodevState(dir)) === "plan_phase") return printPlan(args, null, 0, dir);
  const { plan, entries } = await loadPlan(dir);
  return printPlan(args, plan, entries);
}

/** Prints a plan; `noLedgerIn` is the folder when there is no ledger yet (the plan phase). */
function printPlan(args: ParsedArgs, plan: Plan | null, entries: number, noLedgerIn?: string): number {
  if (args.switches.has("json")) {
    printJson({ plan: plan ? planToPy(plan) : null, entries, ledger: noLedgerIn === undefined });
  } else if (noLedgerIn !== undefined) println(`no plan yet: ${noLedgerYet(noLedgerIn)}`);
  else if (!plan) println(`no plan (${entries} entries)`);
  else {
    println(`${displayValue(planTitle(plan))}  (${entries} entries)`);
    for (const phase of plan.phases) {
      println(`Phase ${displayValue(phase.id)}: ${displayValue(phase.title)}`);
      for (const t of phase.tasks) println(`  ${col(t.id, 8)} ${col(String(t.status), 13)} ${displayValue(t.title)}`);
    }
  }
  return 0;
}

/** The plan's display title: `metadata.title`, else `plan_id`. */
export function planTitle(plan: Plan): string {
  const t = plan.metadata.get("title");
  return typeof t === "string" && t.trim() ? t : plan.plan_id;
}

/** `log [DIR] [--json] [--task ID] [--op OP]` */
export async function cmdLog(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const task = args.options.get("task");
  const op = args.options.get("op");
  if (op !== undefined) requireKnownOp(op);
  if ((await requireAutodevState(dir)) === "plan_phase") {
    if (args.switches.has("json")) printJson([]);
    else eprintln(`the ledger has no entries: ${noLedgerYet(dir)}`);
    return 0;
  }
  const rows: EntrySummary[] = [];
  let taskSeen = false;
  const { report, plan } = await verifyLedger(dir, {
    onEntry: (s) => {
      if (task !== undefined && s.taskId === task) taskSeen = true;
      if ((task === undefined || s.taskId === task) && (op === undefined || s.op === op)) rows.push(s);
    },
  });
  // A task the ledger never mentions and the plan does not have is a mistake, not an empty result.
  if (task !== undefined && !taskSeen && plan && !taskIds(plan).includes(task)) {
    throw new InvalidInputError(unknownTaskMessage(task, taskIds(plan)));
  }
  if (args.switches.has("json")) {
    printJson(
      rows.map((r) => ({
        seq: r.seq,
        line: r.line,
        timestamp: r.timestamp,
        session_id: r.sessionId,
        op: r.op,
        task_id: r.taskId,
        from: r.fromStatus,
        to: r.toStatus,
        retry_count: r.retryCount,
        escalated: r.escalated,
        change: changeWords(LEDGER_WORDS, r) || null,
        self_hash: r.selfHash,
        chain: r.chain,
      })),
    );
  } else {
    for (const r of rows) {
      const label = changeWords(LEDGER_WORDS, r);
      const change = label ? ` ${displayValue(label)}` : "";
      const mark = r.chain === "ok" ? "" : `  [${r.chain}]`;
      println(
        `${col(`#${r.seq}`, 6)} ${displayValue(r.timestamp.slice(0, 19))}  ${col(r.op, 24)} ${col(r.taskId ?? "", 6)}${change}  (${displayValue(r.sessionId)})${mark}`,
      );
    }
    if (rows.length === 0) {
      const filters = [task !== undefined ? `--task ${task}` : "", op !== undefined ? `--op ${op}` : ""]
        .filter(Boolean)
        .join(" ");
      eprintln(
        filters ? `no entries match ${filters} (${report.entries} entries in the ledger)` : "the ledger has no entries",
      );
    }
  }
  return report.ok ? 0 : 1;
}
