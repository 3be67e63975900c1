/**
 * The read-only subcommands of `autodev-state`: replay, load, status, log
 * (verify is verifyCommand.ts). Each returns its exit code.
 */
import * as fs from "node:fs";
import { ParsedArgs, UsageError, withOptionalDir } from "../../cliArgs";
import { requireKnownOp, requireLedger, taskIds, unknownTaskMessage } from "./cliPreflight";
import { InvalidInputError } from "../../../core/errors";
import { entryChangeLabel } from "../../../core/sources/autodev/timeline/entryChangeLabel";
import { col, eprintln, printJson, println } from "../../cliOutput";
import { loadPlan, replayLedger, verifyLedger } from "../../../core/sources/autodev/ledger/ledgerReader";
import { Plan, planToPy } from "../../../core/sources/autodev/plan/schemas";
import { listEvidence, readPatch } from "../../../core/sources/autodev/evidence/evidenceStore";
import { EntrySummary } from "../../../core/sources/autodev/ledger/verifyTypes";
import { autodevRoot } from "../../../core/sources/autodev/autodevPaths";
import { displayMessage, displayValue } from "../../../core/text/displayText";
import { runStateJson, runStateLines } from "./autodevStateCommands";

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
  requireLedger(dir);
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
  requireLedger(dir);
  const { plan, entries } = await loadPlan(dir);
  return printPlan(args, plan, entries);
}

function printPlan(args: ParsedArgs, plan: Plan | null, entries: number): number {
  if (args.switches.has("json")) printJson({ plan: plan ? planToPy(plan) : null, entries });
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

/** `status [DIR] [--json]` */
export async function cmdStatus(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  requireLedger(dir);
  const { plan, entries } = await loadPlan(dir);
  let last: EntrySummary | null = null;
  if (entries > 0) await verifyLedger(dir, { replay: false, onEntry: (s) => (last = s) });
  const lastEntry = last as EntrySummary | null;
  const rows = [];
  const byStatus: Record<string, number> = {};
  for (const phase of plan?.phases ?? []) {
    for (const t of phase.tasks) {
      const ev = (await listEvidence(dir, t.id)).length + ((await readPatch(dir, t.id)) ? 1 : 0);
      const status = String(t.status);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      rows.push({
        phase_id: phase.id,
        id: t.id,
        title: t.title,
        status,
        retry_count: t.retry_count,
        escalated: t.escalated,
        evidence: ev,
      });
    }
  }
  const done = (byStatus.complete ?? 0) + (byStatus.skipped ?? 0);
  const summary = {
    autodev_dir: fs.existsSync(autodevRoot(dir)),
    plan_id: plan?.plan_id ?? null,
    title: plan ? planTitle(plan) : null,
    spec_hash: plan?.spec_hash ?? null,
    updated_at: plan?.updated_at ?? null,
    tasks: rows,
    totals: { tasks: rows.length, done, by_status: byStatus },
    ledger: { entries, last_op: lastEntry?.op ?? null, last_timestamp: lastEntry?.timestamp ?? null },
  };
  const run = summary.autodev_dir
    ? await runStateJson(
        dir,
        plan
          ? {
              phases: plan.phases.map((p) => ({
                tasks: p.tasks.map((t) => ({ id: t.id, status: String(t.status), title: t.title })),
              })),
              spec_hash: plan.spec_hash,
            }
          : null,
      )
    : { running: false, waiting: null, config: null, spec: null };
  if (args.switches.has("json")) {
    printJson({ ...summary, ...run });
    return 0;
  }
  if (!plan) {
    println(summary.autodev_dir ? "no plan yet (the ledger is empty)" : `no .autodev/ in ${dir}: nothing to show`);
    if (summary.autodev_dir) for (const l of runStateLines(run)) println(displayMessage(l));
    return 0;
  }
  println(
    `Plan ${displayValue(planTitle(plan))}  spec ${displayValue(plan.spec_hash)}  updated ${displayValue(plan.updated_at)}`,
  );
  println(
    `${col("PHASE", 6)} ${col("TASK", 8)} ${col("STATUS", 13)} ${col("RETRY", 5)} ${col("ESC", 3)} ${col("EVID", 4)} TITLE`,
  );
  for (const r of rows) {
    println(
      `${col(r.phase_id, 6)} ${col(r.id, 8)} ${col(r.status, 13)} ${col(String(r.retry_count), 5)} ${col(r.escalated ? "!" : "", 3)} ${col(String(r.evidence), 4)} ${displayValue(r.title)}`,
    );
  }
  const parts = Object.entries(byStatus).map(([k, v]) => `${v} ${displayValue(k)}`);
  println(`${done}/${rows.length} done · ${parts.join(", ")}`);
  println(
    `ledger: ${entries} entries, last ${lastEntry ? `${displayValue(lastEntry.op)} at ${displayValue(lastEntry.timestamp)}` : "—"}`,
  );
  for (const l of runStateLines(run)) println(displayMessage(l));
  return 0;
}

/** `log [DIR] [--json] [--task ID] [--op OP]` */
export async function cmdLog(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const task = args.options.get("task");
  const op = args.options.get("op");
  if (op !== undefined) requireKnownOp(op);
  requireLedger(dir);
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
        change: entryChangeLabel(r),
        self_hash: r.selfHash,
        chain: r.chain,
      })),
    );
  } else {
    for (const r of rows) {
      const label = entryChangeLabel(r);
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
