/**
 * `autodev-state status [DIR] [--json]`: what `autodev status` prints — the
 * plan's tasks with status, retries and evidence counted as Python's
 * `list_evidence` counts them (the `.patch` shown apart), the knowledge
 * counts — and what it does not: the ledger's last entry, whether AutoDev is
 * running, who the run waits on (or why inline-state.json is stale), config
 * errors, spec drift, what `autodev resume` / `execute` (and in the plan
 * phase `autodev plan`) would do next, each task's delegations, and the
 * inline hazards. In the plan phase (no ledger yet) it answers like
 * `autodev status`: "No plan yet", with the waiting state and the next step.
 */
import { ParsedArgs, withOptionalDir } from "../../cliArgs";
import { col, printJson, println } from "../../cliOutput";
import { requireAutodevState } from "./cliPreflight";
import { planTitle } from "./readCommands";
import { loadPlan, verifyLedger } from "../../../core/sources/autodev/ledger/ledgerReader";
import { EntrySummary } from "../../../core/sources/autodev/ledger/verifyTypes";
import { readPatch } from "../../../core/sources/autodev/evidence/evidenceStore";
import { pythonEvidence } from "../../../core/sources/autodev/evidence/evidenceCount";
import { RunState, readRunState, runPlanOf } from "../../../core/sources/autodev/run/runState";
import { inlineModeProblems } from "../../../core/sources/autodev/run/inlineModeProblems";
import { retryLabel } from "../../../core/sources/autodev/config/configReader";
import { waitingLabel } from "../../../core/sources/autodev/inline/inlineState";
import { displayMessage, displayValue } from "../../../core/text/displayText";
import { hiveIgnoredNote, hiveSaid } from "../../../core/sources/autodev/knowledge/knowledgeReader";

/** The run-state fields `status --json` adds: running, waiting, config, spec, next, knowledge, inline. */
export function runStateJson(rs: RunState): Record<string, unknown> {
  const w = rs.history.staleWaiting === null ? rs.inline.waiting : null;
  const limit = rs.config.qaRetryLimit;
  const spec = rs.spec;
  const k = rs.knowledge;
  return {
    running: rs.running.running, // null: the probe could not tell (running_detail says why)
    running_detail: rs.running.detail,
    waiting: w
      ? {
          task_id: w.taskId,
          role: w.role,
          step: w.step,
          retry_count: w.retryCount,
          retry: retryLabel(w.retryCount, limit),
          label: waitingLabel(w, limit),
          last_issues: w.lastIssues,
          delegation_path: w.delegationPath,
          response_path: w.responsePath,
          response: w.response.state,
          response_error: w.response.error,
          lessons_injected: rs.delegation?.lessons.length ?? null,
        }
      : null,
    stale_inline_state: rs.history.staleWaiting,
    inline_errors: rs.inline.errors,
    config: rs.config.present
      ? {
          ok: rs.config.ok,
          errors: rs.config.errors.map((e) => ({ path: e.path, message: e.message, line: e.line })),
          qa_retry_limit: limit,
          platform: rs.config.config?.platform ?? null,
        }
      : null,
    spec:
      spec === null
        ? null
        : spec.state === "checked"
          ? { matches: spec.matches, message: spec.message }
          : spec.state === "no_spec"
            ? { matches: false, message: "no .autodev/spec.md" }
            : { matches: false, message: spec.error },
    next: { resume: rs.next.resume, execute: rs.next.execute, plan: rs.next.plan },
    knowledge: {
      swarm: k.swarmCount,
      hive: k.hiveEnabled ? k.hiveCount : 0,
      rejected: k.rejectedCount,
      hive_path: k.hivePath,
      hive_origin: k.hiveOrigin,
      hive_ignored: k.hiveIgnored,
    },
    inline_steps: rs.history.steps.map((s) => ({
      task_id: s.taskId,
      role: s.role,
      state: s.state,
      delegation: s.delegation,
      response: s.response?.file ?? null,
      note: s.note,
    })),
    notes: inlineModeProblems(rs).map((p) => ({
      severity: p.severity,
      code: p.code,
      file: p.file,
      message: p.message,
    })),
  };
}

/** The human lines `status` prints about the run (after the plan's). */
export function runStateLines(rs: RunState): string[] {
  const j = runStateJson(rs);
  const out: string[] = [];
  out.push(
    j.running === true
      ? "AutoDev is running (another process holds .autodev/.lock)"
      : j.running === false
        ? "AutoDev is not running"
        : `Cannot tell whether AutoDev is running: ${String(j.running_detail)}`,
  );
  const w = j.waiting as { label: string; delegation_path: string; response_path: string; response: string } | null;
  if (w) out.push(`${w.label}: delegation ${w.delegation_path}, response ${w.response_path} (${w.response})`);
  if (rs.history.staleWaiting) out.push(`stale inline state: ${rs.history.staleWaiting}`);
  for (const e of rs.config.errors) out.push(`config.json line ${e.line}: ${e.path}: ${e.message}`);
  const sp = j.spec as { matches: boolean; message: string } | null;
  if (sp && !sp.matches) out.push(`spec drift: ${sp.message}`);
  const n = rs.next;
  if (n.plan) out.push(`next: ${n.plan.text}`);
  else if (n.resume.text === n.execute.text) out.push(`next: autodev resume (and autodev execute) ${n.resume.text}`);
  else {
    out.push(`next: autodev resume ${n.resume.text}`);
    out.push(`      autodev execute ${n.execute.text}`);
  }
  // One line per hazard (a hazard about several files is one problem per file in `check`).
  const said = new Set<string>();
  for (const p of inlineModeProblems(rs)) {
    if (p.code === "inline_state_stale" || said.has(p.message)) continue;
    said.add(p.message);
    out.push(`${p.severity}: ${p.message}`);
  }
  const k = rs.knowledge;
  out.push(
    `Knowledge: ${k.swarmCount} lessons in swarm tier, ${k.hiveEnabled ? k.hiveCount : 0} in hive tier (${hiveSaid(k)})`,
  );
  if (k.hiveIgnored !== null) out.push(`note: ${hiveIgnoredNote(k.hiveIgnored)}`);
  return out;
}

/** `status [DIR] [--json]` */
export async function cmdStatus(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  const stage = await requireAutodevState(dir);
  const { plan, entries } = stage === "ledger" ? await loadPlan(dir) : { plan: null, entries: 0 };
  let last: EntrySummary | null = null;
  if (entries > 0) await verifyLedger(dir, { replay: false, onEntry: (s) => (last = s) });
  const lastEntry = last as EntrySummary | null;
  const rs = await readRunState(dir, runPlanOf(plan), { hive: args.options.get("hive") });
  const steps = rs.history.steps;
  const rows = [];
  const byStatus: Record<string, number> = {};
  for (const phase of plan?.phases ?? []) {
    for (const t of phase.tasks) {
      const ev = await pythonEvidence(dir, t.id);
      const status = String(t.status);
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      rows.push({
        phase_id: phase.id,
        id: t.id,
        title: t.title,
        status,
        retry_count: t.retry_count,
        escalated: t.escalated,
        evidence: ev.length,
        evidence_kinds: ev.map((e) => e.kind),
        patch: (await readPatch(dir, t.id)) !== null,
        delegations: steps.filter((s) => s.taskId === t.id).map((s) => ({ role: s.role, state: s.state })),
      });
    }
  }
  const done = (byStatus.complete ?? 0) + (byStatus.skipped ?? 0);
  const summary = {
    autodev_dir: true,
    phase: plan ? "execute" : "plan",
    plan_id: plan?.plan_id ?? null,
    title: plan ? planTitle(plan) : null,
    spec_hash: plan?.spec_hash ?? null,
    updated_at: plan?.updated_at ?? null,
    tasks: rows,
    totals: { tasks: rows.length, done, by_status: byStatus },
    ledger: {
      present: stage === "ledger",
      entries,
      last_op: lastEntry?.op ?? null,
      last_timestamp: lastEntry?.timestamp ?? null,
    },
  };
  if (args.switches.has("json")) {
    printJson({ ...summary, ...runStateJson(rs) });
    return 0;
  }
  if (!plan) {
    println(
      stage === "ledger"
        ? "No plan yet (the ledger has no plan)."
        : "No plan yet (no ledger: the plan phase has not stored a plan).",
    );
  } else {
    println(
      `Plan ${displayValue(planTitle(plan))}  spec ${displayValue(plan.spec_hash)}  updated ${displayValue(plan.updated_at)}`,
    );
    println(
      `${col("PHASE", 6)} ${col("TASK", 8)} ${col("STATUS", 13)} ${col("RETRY", 5)} ${col("ESC", 3)} ${col("EVID", 4)} ${col("PATCH", 5)} TITLE`,
    );
    for (const r of rows) {
      println(
        `${col(r.phase_id, 6)} ${col(r.id, 8)} ${col(r.status, 13)} ${col(String(r.retry_count), 5)} ${col(r.escalated ? "!" : "", 3)} ${col(String(r.evidence), 4)} ${col(r.patch ? "yes" : "", 5)} ${displayValue(r.title)}`,
      );
    }
    const parts = Object.entries(byStatus).map(([k, v]) => `${v} ${displayValue(k)}`);
    println(`${done}/${rows.length} done · ${parts.join(", ")}`);
    println(
      `ledger: ${entries} entries, last ${lastEntry ? `${displayValue(lastEntry.op)} at ${displayValue(lastEntry.timestamp)}` : "—"}`,
    );
  }
  for (const l of runStateLines(rs)) println(displayMessage(l));
  return 0;
}
