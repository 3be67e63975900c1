/**
 * The ledger worker thread (bundled as dist/verifyWorker.js). Owns one
 * {@link LedgerSession} per workspace folder and answers the host's requests
 * (see workerProtocol.ts): reads, verification (cancellable, with progress),
 * replay comparison, and writes through PlanManager's locked commit path — so
 * no ledger work ever runs on the extension host's thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { LedgerSession, SessionUpdate } from "../sources/autodev/ledger/ledgerSession";
import { parseVerificationRecord } from "../sources/autodev/ledger/verificationRecord";
import { loadFromTail, loadPlan, replayLedger } from "../sources/autodev/ledger/ledgerReader";
import { RefreshResult, WorkerMessage, WorkerRequest, WorkerResults } from "./workerProtocol";
import { Plan } from "../sources/autodev/plan/schemas";
import { planJsonText, readLastEntryHead } from "../sources/autodev/ledger/ledgerWriter";
import { PlanManager } from "../sources/autodev/ledger/planManager";
import { missingEvidenceWarnings, planJsonWarning } from "../sources/autodev/historyChecks";
import { planPath } from "../sources/autodev/autodevPaths";
import { TimelineService } from "../sources/autodev/timeline/ledgerTimelineService";
import { readRegularText } from "../fs/safeRead";
import { getMaxLineBytes, setMaxLineBytes } from "../sources/autodev/ledger/read/ledgerLineReader";
import { autodevRunView } from "../sources/autodev/run/runView";
import { disposeSources, handleSourceRequest } from "./sourceRequests";

setMaxLineBytes(Number((workerData as { maxLineBytes?: number } | null)?.maxLineBytes));
const sessions = new Map<string, LedgerSession>();
const running = new Map<number, AbortController>();
const timeline = new TimelineService();

function session(cwd: string): LedgerSession {
  let s = sessions.get(cwd);
  if (!s) sessions.set(cwd, (s = new LedgerSession(cwd)));
  return s;
}

async function refreshResult(
  s: LedgerSession,
  full: boolean,
  id: number,
  post: (m: WorkerMessage) => void,
  stored?: unknown,
): Promise<RefreshResult> {
  const t0 = performance.now();
  const ctl = new AbortController();
  running.set(id, ctl);
  try {
    if (full) s.invalidate();
    const progress = (bytes: number, total: number) => post({ kind: "progress", cwd: s.cwd, bytes, total });
    // A fresh session may resume from the record an earlier one left (only the appended bytes are verified).
    const record = !full && stored !== undefined && s.entries.length === 0 ? parseVerificationRecord(stored) : null;
    let rewritten = false;
    let update: SessionUpdate;
    if (record) {
      const u = await s.resume(record, ctl.signal, progress);
      rewritten = u.rewritten;
      update = u;
    } else update = await s.refresh(ctl.signal, progress);
    const next = update.mode === "none" ? undefined : await s.verificationRecord();
    return {
      update,
      report: s.report,
      plan: s.plan,
      entries: s.partial ? s.report.entries : s.entries.length,
      head: s.rememberable(),
      ms: performance.now() - t0,
      record: next,
      rewritten,
    };
  } finally {
    running.delete(id);
  }
}

async function errorText(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Handles one request; exported for tests that run it without a thread. */
export async function handleRequest(
  req: WorkerRequest,
  post: (m: WorkerMessage) => void,
): Promise<WorkerResults[keyof WorkerResults]> {
  switch (req.type) {
    case "refresh":
      return refreshResult(session(req.cwd), false, req.id, post, req.record);
    case "verify":
      return refreshResult(session(req.cwd), true, req.id, post);
    case "cancel": {
      const ctl = running.get(req.target);
      ctl?.abort();
      return ctl !== undefined;
    }
    case "tailPlan": {
      const { plan, seq } = await loadFromTail(req.cwd);
      return { plan, seq };
    }
    case "entries": {
      const all = session(req.cwd).entries;
      return { total: all.length, items: all.slice(req.offset, req.offset + req.limit) };
    }
    case "entryText":
      return session(req.cwd).entryText(req.seq);
    case "planAt": {
      const plan = await session(req.cwd).planAt(req.seq);
      return { plan, seq: req.seq };
    }
    case "replayCompare": {
      let replayed: Plan | null = null;
      let fast: Plan | null = null;
      let entries = 0;
      const err1 = await errorText(replayLedger(req.cwd).then((r) => ((replayed = r.plan), (entries = r.entries))));
      const err2 = await errorText(loadPlan(req.cwd).then((r) => (fast = r.plan)));
      const onDisk = await readRegularText(planPath(req.cwd), {
        root: req.cwd,
        what: "plan.json",
        maxBytes: getMaxLineBytes(),
      }).catch(() => null);
      const text = (p: Plan | null) => (p ? planJsonText(p) : null);
      return { replayed: text(replayed), fastPath: text(fast), planJson: onDisk, error: err1 ?? err2, entries };
    }
    case "historyWarnings": {
      const s = session(req.cwd);
      const plan = s.plan;
      const out = plan ? await missingEvidenceWarnings(req.cwd, plan, s.entries) : [];
      const pj = await planJsonWarning(req.cwd, plan);
      return pj ? [...out, pj] : out;
    }
    case "setStatus": {
      const pm = new PlanManager(req.cwd, {
        sessionId: req.sessionId,
        lockTimeoutS: req.lockTimeoutS,
        readOnly: req.readOnly,
      });
      await pm.updateTaskStatus(req.taskId, req.status);
      // The new head from the file's tail, not a re-read and re-parse of the whole ledger.
      return { seq: Number((await readLastEntryHead(req.cwd)).seq) };
    }
    case "dispose":
      sessions.delete(req.cwd);
      disposeSources(req.cwd);
      return null;
    case "timelinePage":
      return timeline.page(session(req.cwd), req);
    case "timelineDetail":
      return timeline.detail(session(req.cwd), req.seq);
    case "timelineEntry":
      return timeline.entryRef(session(req.cwd), req.seq);
    case "autodevRunView":
      return autodevRunView(req.cwd, req.plan, req.probeOnly);
    case "sourceDetect":
    case "sourceRefresh":
    case "sourceCheck":
    case "sourceTree":
    case "sourceSummarize":
    case "sourceTimelinePage":
    case "sourceTimelineDetail":
    case "sourceTimelineWhere":
    case "sourcePreviewAction":
    case "sourceRunAction":
      return handleSourceRequest(req);
  }
}

if (parentPort) {
  const port = parentPort;
  const post = (m: WorkerMessage) => port.postMessage(m);
  // Requests for one folder run in order (cancel jumps the queue); folders interleave.
  const queues = new Map<string, Promise<unknown>>();
  const run = async (req: WorkerRequest) => {
    try {
      post({ kind: "result", id: req.id, ok: true, result: await handleRequest(req, post) });
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const kind = (err as { problem?: { kind?: string } }).problem?.kind;
      post({ kind: "result", id: req.id, ok: false, error: err.message, errorName: err.name, errorKind: kind });
    }
  };
  port.on("message", (req: WorkerRequest) => {
    if (req.type === "cancel") return void run(req);
    const next = (queues.get(req.cwd) ?? Promise.resolve()).then(() => run(req));
    queues.set(req.cwd, next);
  });
}
