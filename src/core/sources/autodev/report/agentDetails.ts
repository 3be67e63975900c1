/**
 * What AutoDev tells an agent (the language-model tools) beyond its summary: whether the run is
 * going on or waiting and what `autodev resume` / `execute` would do next, and one task in full —
 * status, retries, escalation, blocked reason, its status history from the ledger and its
 * evidence and diffs in one line each. From the verified ledger; a broken one says so.
 */
import type { SourceLocation } from "../../stateSource";
import { verifyLedger, loadFromTail } from "../ledger/ledgerReader";
import { readRunState, runPlanOf } from "../run/runState";
import { waitingLabel } from "../inline/inlineState";
import { collectRunReport } from "./reportCollect";
import { taskFieldsJson } from "./reportJson";
import { changeWords } from "../../../timeline/timelineWords";
import { LEDGER_WORDS } from "../timeline/ledgerTimelineWords";

/** Most status changes listed for one task (the latest). */
const MAX_TASK_HISTORY = 30;

/** The run's state for an agent: running, waiting, next steps, integrity. */
export async function autodevRunStatus(location: SourceLocation): Promise<Record<string, unknown>> {
  const { report, plan: verified } = await verifyLedger(location.workspace, { replay: true });
  const plan = report.ok ? verified : (await loadFromTail(location.workspace).catch(() => ({ plan: null }))).plan;
  const rs = await readRunState(location.workspace, runPlanOf(plan));
  const w = rs.history.staleWaiting === null ? rs.inline.waiting : null;
  return {
    ledger_ok: report.ok,
    head: report.head ? { seq: Number(report.head.seq), self_hash: report.head.selfHash } : null,
    first_error: report.errors[0]?.message ?? null,
    running: rs.running.running,
    waiting: w ? waitingLabel(w, w.retryCount > 0 ? rs.config.qaRetryLimit : null) : null,
    next: { resume: rs.next.resume.text, execute: rs.next.execute.text, plan: rs.next.plan?.text ?? null },
    tasks: (plan?.phases ?? []).flatMap((p) =>
      p.tasks.map((t) => ({
        id: t.id,
        phase_id: p.id,
        title: t.title,
        status: String(t.status),
        retry_count: Number(t.retry_count) || 0,
        escalated: t.escalated,
        blocked_reason: t.blocked_reason,
        depends_on: [...t.depends_on],
      })),
    ),
  };
}

/** One task for an agent, or null when the plan has no such task. */
export async function autodevTaskDetail(
  location: SourceLocation,
  taskId: string,
): Promise<Record<string, unknown> | null> {
  const r = await collectRunReport(location.workspace);
  const t = r.phases.flatMap((p) => p.tasks).find((x) => x.id === taskId);
  if (!t) return null;
  const history = t.history.slice(-MAX_TASK_HISTORY);
  return {
    ledger_ok: r.ok,
    verdict: r.verdict,
    ...taskFieldsJson(t),
    history: history.map((h) => ({
      seq: h.seq,
      timestamp: h.timestamp,
      change: changeWords(LEDGER_WORDS, {
        fromStatus: h.from,
        toStatus: h.to,
        retryCount: h.retry,
        escalated: h.escalated,
      }),
      ...(h.retry !== null ? { retry: h.retry } : {}),
      ...(h.escalated ? { escalated: true } : {}),
    })),
    history_omitted: t.historyOmitted + (t.history.length - history.length),
    evidence: t.evidence.map((e) => `${e.kind} (${e.file}): ${e.ok ? "" : "invalid: "}${e.summary}`),
    diffs: t.diffs.map((d) => `${d.source}: ${d.summary}`),
    missing_evidence: t.missing,
  };
}
