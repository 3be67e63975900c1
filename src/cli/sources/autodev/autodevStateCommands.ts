/**
 * `autodev-state tournaments` and `autodev-state knowledge`.
 */
import { ParsedArgs, withOptionalDir } from "../../cliArgs";
import { col, eprintln, printJson, println } from "../../cliOutput";
import { readConfig } from "../../../core/sources/autodev/config/configReader";
import { requireDir } from "../../cliArgs";
import { readTournaments, TournamentSummary } from "../../../core/sources/autodev/tournaments/tournamentIndex";
import { scoreLine } from "../../../core/sources/autodev/tournaments/passResult";
import { findAutodevProcess } from "../../../core/sources/autodev/run/autodevProcess";
import {
  KnowledgeEntry,
  hiveIgnoredNote,
  hiveSaid,
  readKnowledge,
} from "../../../core/sources/autodev/knowledge/knowledgeReader";

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
    worktrees: t.worktrees,
    errors: t.errors,
  };
}

/**
 * `tournaments [DIR] [--json]`: exit 1 when a tournament file is unreadable or a stopped run left worktrees
 * behind (while AutoDev runs in DIR, an unfinished tournament's worktrees are its work, not leftovers).
 */
export async function cmdTournaments(args: ParsedArgs): Promise<number> {
  const { dir } = withOptionalDir(args.positionals, []);
  requireDir(dir);
  const config = await readConfig(dir);
  const [{ tournaments, errors }, proc] = await Promise.all([
    readTournaments(dir, config.config),
    findAutodevProcess(dir),
  ]);
  const running = proc.state === "found";
  const left = (t: TournamentSummary) => (t.leftoverWorktrees && !running ? t.leftoverWorktrees : null);
  const bad = errors.length + tournaments.reduce((n, t) => n + t.errors.length + (left(t) ? 1 : 0), 0);
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
      const stale = left(t);
      if (stale) {
        eprintln(
          `  ${t.dir}/worktrees/ is left over: the tournament stopped before it finished (${stale.length} entries); remove each with git worktree remove --force <path>, then delete the folder`,
        );
      } else if (t.leftoverWorktrees) {
        println(`  ${t.dir}/worktrees/: ${t.leftoverWorktrees.length} worktrees of the tournament AutoDev is running`);
      } else if (t.worktrees) {
        println(
          `  ${t.dir}/worktrees/ kept (${t.worktrees.length} entries): the run finished; AutoDev's offline impl runner never removes its worktrees, the folder can be deleted`,
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
  const k = await readKnowledge(dir, await readConfig(dir), { hive: args.options.get("hive") });
  if (args.switches.has("json")) {
    printJson({
      swarm: k.swarm.map(lessonJson),
      swarm_count: k.swarmCount,
      hive: k.hive.map(lessonJson),
      hive_count: k.hiveCount,
      hive_path: k.hivePath,
      hive_origin: k.hiveOrigin,
      hive_ignored: k.hiveIgnored,
      hive_enabled: k.hiveEnabled,
      rejected: k.rejected.map((r) => ({ id: r.id, text: r.text, reason: r.reason, rejected_at: r.rejected_at })),
      rejected_count: k.rejectedCount,
      skipped: k.skipped,
      errors: k.errors,
    });
  } else {
    for (const [name, list, count] of [
      ["swarm (.autodev/knowledge.jsonl)", k.swarm, k.swarmCount],
      [`hive (${hiveSaid(k)})${k.hiveEnabled ? "" : " — disabled in config.json"}`, k.hive, k.hiveCount],
    ] as const) {
      const listed = count > list.length ? ` (the ${list.length} highest-ranked listed)` : "";
      println(`${name}: ${count} lesson${count === 1 ? "" : "s"}${listed}`);
      for (const e of list) {
        println(
          `  ${e.rank.toFixed(3)}  conf ${e.confidence.toFixed(2)}  ×${e.confirmations}  applied ${e.applied_count}  [${e.role_source}] ${e.text}`,
        );
      }
    }
    println(
      `rejected: ${k.rejectedCount}${k.rejectedCount > k.rejected.length ? ` (the newest ${k.rejected.length} listed)` : ""}`,
    );
    for (const r of k.rejected) println(`  ${r.text}  — ${r.reason} (${r.rejected_at})`);
    for (const s of k.skipped) eprintln(`${s.file}:${s.line}: skipped: ${s.reason}`);
    for (const e of k.errors) eprintln(e);
    if (k.hiveIgnored !== null) eprintln(`note: ${hiveIgnoredNote(k.hiveIgnored)}`);
  }
  return k.errors.length === 0 ? 0 : 1;
}
