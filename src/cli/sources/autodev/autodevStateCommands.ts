/**
 * `autodev-state tournaments` and `autodev-state knowledge`, and the parts of
 * `status` about the run rather than the plan: whether AutoDev is running,
 * the suspended inline delegation, config.json, spec drift and what
 * `autodev resume` / `execute` would do next.
 */
import { ParsedArgs, withOptionalDir } from "../../cliArgs";
import { col, eprintln, printJson, println } from "../../cliOutput";
import { requireDir } from "../../cliArgs";
import { readConfig, retryLabel } from "../../../core/sources/autodev/config/configReader";
import { readTournaments, TournamentSummary } from "../../../core/sources/autodev/tournaments/tournamentIndex";
import { scoreLine } from "../../../core/sources/autodev/tournaments/passResult";
import { KnowledgeEntry, readKnowledge } from "../../../core/sources/autodev/knowledge/knowledgeReader";
import { readInlineState, waitingLabel } from "../../../core/sources/autodev/inline/inlineState";
import { probeAutodevRunning } from "../../../core/sources/autodev/run/runningProbe";
import { checkSpecDrift } from "../../../core/sources/autodev/run/specDrift";
import { decideNextSteps, PlanTasks } from "../../../core/sources/autodev/run/nextStep";

/** A tournament as `tournaments --json` prints it. */
export function tournamentJson(t: TournamentSummary): Record<string, unknown> {
  return {
    id: t.id,
    phase: t.phase,
    task_id: t.taskId,
    passes: t.passes.length,
    winner: t.winner,
    converged: t.converged,
    finished: t.finished,
    pass_results: t.passes.map((p) => ({
      pass: p.pass,
      winner: p.winner,
      scores: p.scores,
      valid_judges: p.validJudges,
      elapsed_s: p.elapsedS,
      judges: p.judges.map((j) => ({
        ranking: j.ranking,
        ...(j.error !== null ? { error: j.error } : {}),
        ...(j.plugin !== null ? { plugin: j.plugin } : {}),
      })),
      incumbent_hash_before: p.hashBefore,
      incumbent_hash_after: p.hashAfter,
    })),
    files: t.files,
    leftover_worktrees: t.leftoverWorktrees,
    errors: t.errors,
  };
}

/** `tournaments [DIR] [--json]`: exit 1 when a tournament file is unreadable or a crash left worktrees behind. */
export async function cmdTournaments(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  requireDir(dir);
  const config = await readConfig(dir);
  const { tournaments, errors } = await readTournaments(dir, config.config);
  const bad = errors.length + tournaments.reduce((n, t) => n + t.errors.length + (t.leftoverWorktrees ? 1 : 0), 0);
  if (args.switches.has("json")) {
    printJson(tournaments.map(tournamentJson));
  } else {
    if (tournaments.length === 0) println("no tournaments");
    for (const t of tournaments) {
      const conv = t.converged === null ? "convergence unknown" : t.converged ? "converged" : "did not converge";
      println(
        `${t.id}  ${t.phase}${t.taskId ? ` task ${t.taskId}` : ""}  ${t.passes.length} pass${t.passes.length === 1 ? "" : "es"}, last winner ${t.winner ?? "—"}, ${conv}${t.finished ? "" : " (unfinished)"}`,
      );
      for (const p of t.passes) {
        const judges = p.judges
          .map((j) => (j.ranking ? j.ranking.join(">") : j.error ? "error" : "no ranking"))
          .join(", ");
        println(
          `  pass ${col(String(p.pass), 3)} ${col(p.winner, 2)} ${scoreLine(p.scores)}  judges ${p.validJudges}/${p.judges.length} [${judges}]  ${p.elapsedS}s`,
        );
      }
      if (t.leftoverWorktrees) {
        eprintln(
          `  ${t.dir}/worktrees/ is left over from a crashed run (${t.leftoverWorktrees.length} entries); remove it with git worktree prune and rm -r`,
        );
      }
      for (const e of t.errors) eprintln(`  ${t.dir}: ${e}`);
    }
    for (const e of errors) eprintln(e);
  }
  return bad === 0 ? 0 : 1;
}

function lessonJson(e: KnowledgeEntry): Record<string, unknown> {
  return {
    id: e.id,
    text: e.text,
    role_source: e.role_source,
    confidence: e.confidence,
    confirmations: e.confirmations,
    applied_count: e.applied_count,
    timestamp: e.timestamp,
    rank: e.rank,
  };
}

/** `knowledge [DIR] [--json]`: lessons ranked as Python ranks them, and rejected lessons. */
export async function cmdKnowledge(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  requireDir(dir);
  const k = await readKnowledge(dir, await readConfig(dir));
  if (args.switches.has("json")) {
    printJson({
      swarm: k.swarm.map(lessonJson),
      hive: k.hive.map(lessonJson),
      hive_path: k.hivePath,
      hive_enabled: k.hiveEnabled,
      rejected: k.rejected.map((r) => ({ id: r.id, text: r.text, reason: r.reason, rejected_at: r.rejected_at })),
      skipped: k.skipped,
      errors: k.errors,
    });
  } else {
    for (const [name, list] of [
      ["swarm (.autodev/knowledge.jsonl)", k.swarm],
      [`hive (${k.hivePath})${k.hiveEnabled ? "" : " — disabled in config.json"}`, k.hive],
    ] as const) {
      println(`${name}: ${list.length} lesson${list.length === 1 ? "" : "s"}`);
      for (const e of list) {
        println(
          `  ${e.rank.toFixed(3)}  conf ${e.confidence.toFixed(2)}  ×${e.confirmations}  applied ${e.applied_count}  [${e.role_source}] ${e.text}`,
        );
      }
    }
    println(`rejected: ${k.rejected.length}`);
    for (const r of k.rejected) println(`  ${r.text}  — ${r.reason} (${r.rejected_at})`);
    for (const s of k.skipped) eprintln(`${s.file}:${s.line}: skipped: ${s.reason}`);
    for (const e of k.errors) eprintln(e);
  }
  return k.errors.length === 0 ? 0 : 1;
}

/** The run-state fields `status --json` adds: running, waiting, config, spec, next. */
export async function runStateJson(
  dir: string,
  plan: (PlanTasks & { spec_hash: string }) | null,
): Promise<Record<string, unknown>> {
  const [probe, inline, config] = await Promise.all([probeAutodevRunning(dir), readInlineState(dir), readConfig(dir)]);
  const spec = await checkSpecDrift(dir, plan?.spec_hash ?? null);
  const w = inline.waiting;
  const next = decideNextSteps(plan, w);
  return {
    running: probe.running === true,
    running_detail: probe.detail,
    waiting: w
      ? {
          task_id: w.taskId,
          role: w.role,
          step: w.step,
          retry_count: w.retryCount,
          retry: retryLabel(w.retryCount, config.qaRetryLimit),
          label: waitingLabel(w, config.qaRetryLimit),
          last_issues: w.lastIssues,
          delegation_path: w.delegationPath,
          response_path: w.responsePath,
          response: w.response.state,
          response_error: w.response.error,
        }
      : null,
    inline_errors: inline.errors,
    config: config.present
      ? {
          ok: config.ok,
          errors: config.errors.map((e) => ({ path: e.path, message: e.message, line: e.line })),
          qa_retry_limit: config.qaRetryLimit,
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
    next: { resume: next.resume, execute: next.execute },
  };
}

/** The human lines `status` prints about the run. */
export function runStateLines(s: Record<string, unknown>): string[] {
  const out: string[] = [];
  out.push(s.running ? "AutoDev is running (another process holds .autodev/.lock)" : "AutoDev is not running");
  const w = s.waiting as { label: string; delegation_path: string; response_path: string; response: string } | null;
  if (w) out.push(`${w.label}: delegation ${w.delegation_path}, response ${w.response_path} (${w.response})`);
  const c = s.config as { ok: boolean; errors: Array<{ path: string; message: string; line: number }> } | null;
  if (c && !c.ok) for (const e of c.errors) out.push(`config.json line ${e.line}: ${e.path}: ${e.message}`);
  const sp = s.spec as { matches: boolean; message: string } | null;
  if (sp && !sp.matches) out.push(`spec drift: ${sp.message}`);
  const n = s.next as { resume: { text: string }; execute: { text: string } };
  out.push(`next: autodev resume ${n.resume.text}; autodev execute: ${n.execute.text}`);
  return out;
}
