/**
 * AutoDev's part of the state worker: one {@link LedgerSession} per workspace folder, its
 * requests (see autodevRequests.ts: refresh and verification with progress and cancel, replay
 * comparison, writes through PlanManager's locked commit path, the run view) and its timeline
 * (pages, details and row references over the session's entry index).
 */
import { readRegularText } from "../../../fs/safeRead";
import type { SourceWorkerHandler, WorkerContext } from "../../sourceWorker";
import { planPath } from "../autodevPaths";
import { missingEvidenceWarnings, planJsonWarning } from "../historyChecks";
import { loadFromTail, loadPlan, replayLedger } from "../ledger/ledgerReader";
import { LedgerSession, SessionUpdate } from "../ledger/ledgerSession";
import { planJsonText, readLastEntryHead } from "../ledger/ledgerWriter";
import { PlanManager } from "../ledger/planManager";
import { assertContractAllows } from "../contract/autodevWriteGuard";
import { checkAutodevContract } from "../contract/autodevContract";
import { readRunState, runPlanOf } from "../run/runState";
import { getMaxLineBytes } from "../../../fs/lineLimit";
import { parseVerificationRecord } from "../ledger/verificationRecord";
import { Plan } from "../plan/schemas";
import { autodevRunView } from "../run/runView";
import { TimelineService } from "../timeline/ledgerTimelineService";
import { lastChanges } from "../timeline/taskLastChange";
import type { AutodevContractResult } from "../contract/autodevContract";
import type { AutodevRequest, AutodevResults, RefreshResult, ReplayComparison } from "./autodevRequests";

const sessions = new Map<string, LedgerSession>();
const timeline = new TimelineService();

function session(cwd: string): LedgerSession {
  let s = sessions.get(cwd);
  if (!s) sessions.set(cwd, (s = new LedgerSession(cwd)));
  return s;
}

async function refreshResult(
  s: LedgerSession,
  full: boolean,
  context: WorkerContext,
  stored?: unknown,
): Promise<RefreshResult> {
  const t0 = performance.now();
  if (full) s.invalidate();
  const progress = (bytes: number, total: number) => context.progress(bytes, total);
  // A fresh session may resume from the record an earlier one left (only the appended bytes are verified).
  const record = !full && stored !== undefined && s.entries.length === 0 ? parseVerificationRecord(stored) : null;
  let rewritten = false;
  let update: SessionUpdate;
  if (record) {
    const u = await s.resume(record, context.signal, progress);
    rewritten = u.rewritten;
    update = u;
  } else update = await s.refresh(context.signal, progress);
  const next = update.mode === "none" ? undefined : await s.verificationRecord();
  const contract = update.mode === "none" ? undefined : await contractOf(s.cwd, s);
  return {
    update,
    report: s.report,
    plan: s.plan,
    entries: s.partial ? s.report.entries : s.entries.length,
    head: s.rememberable(),
    record: next,
    rewritten,
    contract,
    ms: performance.now() - t0,
  };
}

/** The phase contract on the session's intact ledger (empty on a broken one): the `contract` request's answer. */
async function contractOf(cwd: string, s: LedgerSession): Promise<AutodevContractResult[]> {
  if (!s.report.ok) return [];
  const run = await readRunState(cwd, runPlanOf(s.plan), { probe: false });
  return [
    await checkAutodevContract({ workspace: cwd, plan: s.plan, entries: s.entries, warnings: s.report.warnings, run }),
  ];
}

async function errorText(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

async function replayCompare(cwd: string): Promise<ReplayComparison> {
  let replayed: Plan | null = null;
  let fast: Plan | null = null;
  let entries = 0;
  const err1 = await errorText(replayLedger(cwd).then((r) => ((replayed = r.plan), (entries = r.entries))));
  const err2 = await errorText(loadPlan(cwd).then((r) => (fast = r.plan)));
  const onDisk = await readRegularText(planPath(cwd), {
    root: cwd,
    what: "plan.json",
    maxBytes: getMaxLineBytes(),
  }).catch(() => null);
  const text = (p: Plan | null) => (p ? planJsonText(p) : null);
  return { replayed: text(replayed), fastPath: text(fast), planJson: onDisk, error: err1 ?? err2, entries };
}

/** Answers one AutoDev request for `cwd`. */
async function handleAutodevRequest(
  cwd: string,
  req: AutodevRequest,
  context: WorkerContext,
): Promise<AutodevResults[AutodevRequest["type"]]> {
  switch (req.type) {
    case "refresh":
      return refreshResult(session(cwd), false, context, req.record);
    case "verify":
      return refreshResult(session(cwd), true, context);
    case "tailPlan": {
      const { plan, seq } = await loadFromTail(cwd);
      return { plan, seq };
    }
    case "entries": {
      const all = session(cwd).entries;
      return { total: all.length, items: all.slice(req.offset, req.offset + req.limit) };
    }
    case "planAt":
      return { plan: await session(cwd).planAt(req.seq), seq: req.seq };
    case "replayCompare":
      return replayCompare(cwd);
    case "lastChanges":
      return lastChanges(session(cwd).entries, session(cwd).plan);
    case "historyWarnings": {
      const s = session(cwd);
      const plan = s.plan;
      const out = plan ? await missingEvidenceWarnings(cwd, plan, s.entries) : [];
      const pj = await planJsonWarning(cwd, plan);
      return pj ? [...out, pj] : out;
    }
    case "contract":
      return contractOf(cwd, session(cwd));
    case "setStatus": {
      const pm = new PlanManager(cwd, {
        sessionId: req.sessionId,
        lockTimeoutS: req.lockTimeoutS,
        readOnly: req.readOnly,
      });
      // The phase contract first (Skip, Resume): refused with the reason before anything is written.
      const plan = await pm.load();
      if (plan) await assertContractAllows(cwd, plan, req.taskId, req.status);
      await pm.updateTaskStatus(req.taskId, req.status);
      // The new head from the file's tail, not a re-read and re-parse of the whole ledger.
      return { seq: Number((await readLastEntryHead(cwd)).seq) };
    }
    case "runView":
      return autodevRunView(cwd, req.plan, req.probeOnly);
    default:
      throw new Error(`AutoDev has no request ${JSON.stringify((req as { type?: unknown }).type)}`);
  }
}

/** AutoDev's {@link SourceWorkerHandler}. */
export const autodevWorker: SourceWorkerHandler = {
  handle: (cwd, request, context) => handleAutodevRequest(cwd, request as AutodevRequest, context),
  timelinePage: async (cwd, request) => timeline.page(session(cwd), request),
  timelineDetail: (cwd, rowId) => timeline.detail(session(cwd), rowId),
  timelineRef: (cwd, rowId) => timeline.entryRef(session(cwd), rowId),
  dispose: (cwd) => void sessions.delete(cwd),
};
