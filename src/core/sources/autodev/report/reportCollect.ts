/**
 * Gathers a {@link RunReport}: one streaming pass over the ledger (the verify scan, which keeps
 * memory bounded by one plan however long the ledger is) that also keeps each task's status
 * changes (capped per task), then the evidence, tournaments and knowledge the plan points to.
 * A broken ledger still gets a report: its verdict says where it breaks and the plan shown is the
 * last one readable from the tail, marked unverified. Never throws for bad data.
 */
import * as path from "node:path";
import { loadFromTail, verifyLedger } from "../ledger/ledgerReader";
import { humanMessage } from "../ledger/verifyMessages";
import { EntrySummary, VerifyReport } from "../ledger/verifyTypes";
import { Plan } from "../plan/schemas";
import { loadTaskEvidence } from "../evidence/taskEvidence";
import { diffSourceLabel } from "../evidence/evidenceNames";
import { evidenceFailed, summarizeEvidence } from "../evidence/evidenceSummary";
import { patchStats } from "../evidence/patchModel";
import { readConfig } from "../config/configReader";
import { WorkspaceExpectations, workspaceExpectations } from "../evidence/evidenceExpectations";
import { readTournaments } from "../tournaments/tournamentIndex";
import { readKnowledge } from "../knowledge/knowledgeReader";
import { isReviewed } from "../evidence/reviewMarks";
import type { FolderReviewMarks } from "../../reviewMarkSchema";
import {
  DiffLine,
  EvidenceLine,
  MAX_EVIDENCE_TASKS,
  MAX_HISTORY_PER_TASK,
  MAX_HISTORY_TOTAL,
  MAX_REPORT_FINDINGS,
  MAX_TRACKED_TASKS,
  ReportPhase,
  ReportTask,
  RunReport,
  StatusChange,
} from "./reportTypes";

/**
 * Keeps the latest status changes of each task while the ledger streams past. Memory is bounded
 * twice: at most {@link MAX_HISTORY_PER_TASK} changes per task, and at most
 * {@link MAX_HISTORY_TOTAL} over all tasks (the per-task share shrinks as more tasks are seen).
 */
export class HistoryTracker {
  private readonly byTask = new Map<string, { changes: StatusChange[]; dropped: number }>();
  /** One copy of each status and chain word (the ledger repeats a handful of them millions of times). */
  private readonly words = new Map<string, string>();
  /** Status changes of tasks beyond {@link MAX_TRACKED_TASKS} (not kept). */
  untracked = 0;

  /** Changes kept per task now: the per-task cap, or a fair share of the total. */
  private get cap(): number {
    return Math.max(10, Math.min(MAX_HISTORY_PER_TASK, Math.floor(MAX_HISTORY_TOTAL / Math.max(1, this.byTask.size))));
  }

  /** Feeds one entry summary; entries that change no task's status are ignored. */
  see(e: EntrySummary): void {
    if (e.taskId === null || e.toStatus === null) return;
    let h = this.byTask.get(e.taskId);
    if (!h) {
      if (this.byTask.size >= MAX_TRACKED_TASKS) {
        this.untracked++;
        return;
      }
      this.byTask.set(e.taskId, (h = { changes: [], dropped: 0 }));
    }
    h.changes.push({
      seq: e.seq,
      timestamp: e.timestamp,
      from: e.fromStatus === null ? null : this.word(e.fromStatus),
      to: this.word(e.toStatus),
      retry: e.retryCount,
      escalated: e.escalated,
      chain: this.word(e.chain),
    });
    const cap = this.cap;
    if (h.changes.length > cap + (cap >> 2)) {
      const cut = h.changes.length - cap;
      h.changes.splice(0, cut);
      h.dropped += cut;
    }
  }

  private word(w: string): string {
    if (w.length > 40 || this.words.size > 1000) return w;
    const known = this.words.get(w);
    if (known !== undefined) return known;
    this.words.set(w, w);
    return w;
  }

  /** A task's kept changes (the latest ones, up to the cap) and how many older ones were left out. */
  of(taskId: string): { changes: StatusChange[]; omitted: number } {
    const h = this.byTask.get(taskId);
    if (!h) return { changes: [], omitted: 0 };
    const extra = Math.max(0, h.changes.length - this.cap);
    return { changes: h.changes.slice(extra), omitted: h.dropped + extra };
  }
}

/** The verdict sentence of a verification. */
function verdictOf(report: VerifyReport): string {
  const head = report.head ? `head seq ${report.head.seq} (${report.head.selfHash})` : "no entries";
  if (report.ok) return `verified: the hash chain and the replay of ${report.entries} entries hold; ${head}`;
  const first = report.errors[0];
  const n = report.errors.length;
  return (
    `BROKEN: ${n} finding${n === 1 ? "" : "s"} in ${report.entries} entries; the first: ${first ? humanMessage(first) : "unknown"}` +
    (report.head ? `; the last good entry is seq ${report.head.seq} (${report.head.selfHash})` : "; no entry verifies")
  );
}

async function taskOf(
  cwd: string,
  phaseId: string,
  t: Plan["phases"][number]["tasks"][number],
  history: HistoryTracker,
  withEvidence: boolean,
  expect: WorkspaceExpectations,
  marks: FolderReviewMarks | undefined,
): Promise<ReportTask> {
  const status = String(t.status);
  const evidence: EvidenceLine[] = [];
  const diffs: DiffLine[] = [];
  let missing: readonly string[] = [];
  if (withEvidence) {
    const ev = await loadTaskEvidence(cwd, t.id, status, t.evidence_bundle, expect.forTask(t.id));
    for (const i of ev.items) {
      evidence.push(
        i.ok
          ? {
              kind: i.kind,
              file: i.file,
              ok: true,
              summary: summarizeEvidence(i.evidence),
              failed: evidenceFailed(i.evidence),
            }
          : { kind: i.kind, file: i.file, ok: false, summary: i.error, failed: true },
      );
    }
    for (const d of ev.diffs.values()) {
      const reviewed = marks ? { reviewed: isReviewed(marks, t.id, d.source, d.hash) } : {};
      diffs.push(
        d.ok
          ? {
              source: diffSourceLabel(d),
              file: d.file,
              ok: true,
              files: d.files.length,
              summary: patchStats(d.files),
              ...reviewed,
            }
          : { source: diffSourceLabel(d), file: d.file, ok: false, files: 0, summary: d.error, ...reviewed },
      );
    }
    missing = ev.missing;
  }
  const h = history.of(t.id);
  return {
    id: t.id,
    phaseId,
    title: t.title,
    status,
    retryCount: Number(t.retry_count) || 0,
    escalated: t.escalated,
    blockedReason: t.blocked_reason,
    dependsOn: [...t.depends_on],
    history: h.changes,
    historyOmitted: h.omitted,
    evidence,
    diffs,
    missing,
  };
}

/** Options of {@link collectRunReport}. */
export interface CollectOptions {
  readonly signal?: AbortSignal;
  /** The clock (tests). */
  readonly now?: Date;
  /** The home folder the hive is read from (tests). */
  readonly home?: string;
  /** The hive file the user named (CLI `--hive`); else AutoDev's default is read. */
  readonly hive?: string;
  /**
   * The editor's reviewed marks of this folder: each diff then says whether it is reviewed. Absent
   * (the CLI): the report says the marks live in the editor.
   */
  readonly reviewMarks?: FolderReviewMarks;
}

/** Reads everything the report of `cwd` (the folder holding `.autodev/`) shows. */
export async function collectRunReport(cwd: string, options: CollectOptions = {}): Promise<RunReport> {
  const notes: string[] = [];
  const history = new HistoryTracker();
  const { report, plan: replayed } = await verifyLedger(cwd, {
    onEntry: (s) => history.see(s),
    signal: options.signal,
  });
  let plan = replayed;
  if (!report.ok) {
    plan = await loadFromTail(cwd).then(
      (r) => r.plan,
      () => null,
    );
    notes.push(
      plan
        ? "The ledger does not verify: the plan below is the last one readable from its tail, not verified."
        : "The ledger does not verify and no plan could be read from its tail.",
    );
  }
  if (history.untracked > 0) {
    notes.push(`${history.untracked} status changes of tasks beyond the first ${MAX_TRACKED_TASKS} are not listed.`);
  }
  const config = await readConfig(cwd);
  // Per task: a task that ran inline expects no impl tournament evidence (evidenceExpectations.ts).
  const expect = await workspaceExpectations(cwd);
  const phases: ReportPhase[] = [];
  let counted = 0;
  for (const phase of plan?.phases ?? []) {
    const tasks: ReportTask[] = [];
    for (const t of phase.tasks) {
      tasks.push(await taskOf(cwd, phase.id, t, history, counted++ < MAX_EVIDENCE_TASKS, expect, options.reviewMarks));
    }
    phases.push({ id: phase.id, title: phase.title, tasks });
  }
  if (!options.reviewMarks && phases.some((p) => p.tasks.some((t) => t.diffs.length > 0))) {
    notes.push(
      "Reviewed marks live in the editor: export this report from VS Code (AutoDev: Export Run Report) to see which diffs were reviewed.",
    );
  }
  if (counted > MAX_EVIDENCE_TASKS) {
    notes.push(`Evidence is summarised for the first ${MAX_EVIDENCE_TASKS} of ${counted} tasks.`);
  }
  const { tournaments, errors: tournamentErrors } = await readTournaments(cwd, config.config);
  const knowledge = await readKnowledge(cwd, config, { home: options.home, hive: options.hive });
  const title = plan?.metadata.get("title");
  return {
    generatedAt: (options.now ?? new Date()).toISOString(),
    workspace: path.basename(path.resolve(cwd)),
    ok: report.ok,
    entries: report.entries,
    head: report.head ? { seq: Number(report.head.seq), selfHash: report.head.selfHash } : null,
    verdict: verdictOf(report),
    findings: report.errors.slice(0, MAX_REPORT_FINDINGS).map((e) => ({
      line: e.line,
      seq: e.seq === null ? null : Number(e.seq),
      kind: e.kind,
      message: humanMessage(e),
    })),
    planVerified: report.ok && plan !== null,
    planId: plan?.plan_id ?? null,
    title: typeof title === "string" && title.trim() ? title : (plan?.plan_id ?? null),
    specHash: plan?.spec_hash ?? null,
    updatedAt: plan?.updated_at ?? null,
    phases,
    tournaments: tournaments.map((t) => ({
      id: t.id,
      phase: t.phase,
      taskId: t.taskId,
      passes: t.passes.length,
      winner: t.winner,
      converged: t.converged,
      finished: t.finished,
      errors: t.errors,
    })),
    knowledge: {
      swarm: knowledge.swarmCount,
      hive: knowledge.hiveCount,
      rejected: knowledge.rejectedCount,
      skipped: knowledge.skipped.reduce((n, s) => n + (s.more ?? 1), 0),
      errors: [...knowledge.errors],
    },
    notes: [
      ...notes,
      ...tournamentErrors,
      ...tournaments.flatMap((t) => t.errors.map((e) => `Tournament ${t.id} (${t.dir}): ${e}`)),
    ],
    tournamentErrors: tournamentErrors.length + tournaments.reduce((n, t) => n + t.errors.length, 0),
  };
}
