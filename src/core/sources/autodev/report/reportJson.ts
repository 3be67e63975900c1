/**
 * The run report as JSON (`report --format json`): exact values (nothing escaped or cut beyond the
 * report's own caps), snake_case keys as the rest of the CLI's JSON. The first keys are the ones CI
 * scripts read: `ok`, `head` `{seq, self_hash}`, `plan_id`, `tasks`.
 */
import type { ReportTask, RunReport } from "./reportTypes";

/** A task's own fields in the CLI's JSON (snake_case): the report's tasks and the agent's task details start so. */
export function taskFieldsJson(t: ReportTask): Record<string, unknown> {
  return {
    id: t.id,
    phase_id: t.phaseId,
    title: t.title,
    status: t.status,
    retry_count: t.retryCount,
    escalated: t.escalated,
    blocked_reason: t.blockedReason,
    depends_on: t.dependsOn,
  };
}

/** One task of the report's JSON. */
function taskJson(t: ReportTask): Record<string, unknown> {
  return {
    ...taskFieldsJson(t),
    history: t.history.map((h) => ({
      seq: h.seq,
      timestamp: h.timestamp,
      from: h.from,
      to: h.to,
      retry: h.retry,
      escalated: h.escalated,
      chain: h.chain,
    })),
    history_omitted: t.historyOmitted,
    evidence: t.evidence.map((e) => ({
      kind: e.kind,
      file: e.file,
      ok: e.ok,
      summary: e.summary,
      failed: e.failed,
    })),
    diffs: t.diffs.map((d) => ({
      source: d.source,
      file: d.file,
      ok: d.ok,
      files: d.files,
      summary: d.summary,
      ...(d.reviewed === undefined ? {} : { reviewed: d.reviewed }),
    })),
    missing_evidence: t.missing,
  };
}

/** The document's keys after `tasks`. */
function restJson(r: RunReport): Record<string, unknown> {
  return {
    verdict: r.verdict,
    entries: r.entries,
    findings: r.findings.map((f) => ({ line: f.line, seq: f.seq, kind: f.kind, message: f.message })),
    plan_verified: r.planVerified,
    title: r.title,
    spec_hash: r.specHash,
    updated_at: r.updatedAt,
    phases: r.phases.map((p) => ({ id: p.id, title: p.title, tasks: p.tasks.map((t) => t.id) })),
    tournaments: r.tournaments.map((t) => ({
      id: t.id,
      phase: t.phase,
      task_id: t.taskId,
      passes: t.passes,
      winner: t.winner,
      converged: t.converged,
      finished: t.finished,
      errors: t.errors,
    })),
    knowledge: { ...r.knowledge },
    notes: r.notes,
    workspace: r.workspace,
    generated_at: r.generatedAt,
  };
}

/** The JSON document of a report. */
export function reportToJson(r: RunReport): Record<string, unknown> {
  return {
    ok: r.ok,
    head: r.head ? { seq: r.head.seq, self_hash: r.head.selfHash } : null,
    plan_id: r.planId,
    tasks: r.phases.flatMap((p) => p.tasks.map(taskJson)),
    ...restJson(r),
  };
}

/** Indents every line after the first of a JSON.stringify result by `n` spaces. */
function indent(json: string, n: number): string {
  return json.replace(/\n/g, `\n${" ".repeat(n)}`);
}

/**
 * The same document as `JSON.stringify(reportToJson(r), null, 2)`, in pieces (one per task), so a
 * report with 100 000 history rows is written without a second copy of it in memory.
 */
export function* reportJsonChunks(r: RunReport): Generator<string> {
  const head = r.head ? { seq: r.head.seq, self_hash: r.head.selfHash } : null;
  yield `{\n  "ok": ${JSON.stringify(r.ok)},\n  "head": ${indent(JSON.stringify(head, null, 2), 2)},\n  "plan_id": ${JSON.stringify(r.planId)},\n  "tasks": [`;
  let first = true;
  for (const p of r.phases) {
    for (const t of p.tasks) {
      yield `${first ? "" : ","}\n    ${indent(JSON.stringify(taskJson(t), null, 2), 4)}`;
      first = false;
    }
  }
  yield first ? "]" : "\n  ]";
  for (const [k, v] of Object.entries(restJson(r))) {
    yield `,\n  ${JSON.stringify(k)}: ${indent(JSON.stringify(v, null, 2), 2)}`;
  }
  yield "\n}\n";
}
