/**
 * AutoDev's part of the state worker: one {@link LedgerSession} per workspace folder, its
 * requests (see autodevRequests.ts: refresh and verification with progress and cancel, replay
 * comparison, writes through PlanManager's locked commit path, the run view) and its timeline
 * (pages, details and row references over the session's entry index).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isInside } from "../../../fs/pathInside";
import { readRegularText } from "../../../fs/safeRead";
import { WriteRefusedError } from "../../../errors";
import { createResponseFile } from "../inline/responseCreate";
import { checkResponseText } from "../inline/responseFile";
import { handleEvidenceRequest, isEvidenceRequest } from "./evidenceRequests";
import { loadTaskEvidence } from "../evidence/taskEvidence";
import type { SourceWorkerHandler, WorkerContext } from "../../sourceWorker";
import { AUTODEV_DIR, autodevRoot, ledgerPath, planPath } from "../autodevPaths";
import { readWorkspaceStateFile } from "../stateFile";
import { loadFromTail, loadPlan, replayLedger } from "../ledger/ledgerReader";
import { LedgerSession, SessionUpdate } from "../ledger/ledgerSession";
import { planJsonText, readLastEntryHead } from "../ledger/ledgerWriter";
import { PlanManager } from "../ledger/planManager";
import { assertContractAllows } from "../contract/autodevWriteGuard";
import { readRunState, runPlanOf } from "../run/runState";
import { probeAutodevRunning } from "../run/runningProbe";
import { readAutodevSnapshot, snapshotProblems, unreadableLedgerProblems } from "../autodevSnapshot";
import { tailHoldMs } from "../ledger/tailHold";
import { getMaxLineBytes } from "../../../fs/lineLimit";
import { parseVerificationRecord } from "../ledger/verificationRecord";
import { Plan } from "../plan/schemas";
import { autodevRunView, runViewOf } from "../run/runView";
import { autodevFolderStamp } from "../run/folderStamp";
import { TimelineService } from "../timeline/ledgerTimelineService";
import { autodevStateTree, planOnlyTree, retryLimitOf, unreadableTree } from "../tree/stateTree";
import type { RetryLimitView } from "../tree/retryWords";
import { TaskNodeMemo } from "../tree/planTree";
import { l10n } from "../../../text/coreL10n";
import { lastChanges } from "../timeline/taskLastChange";
import type { AutodevRequest, AutodevResults, RefreshResult, ReplayComparison } from "./autodevRequests";
import { errorText } from "../../../text/errorText";

const sessions = new Map<string, LedgerSession>();
/** The most a `stateFileText` request reads. */
const MAX_STATE_FILE_TEXT = 16 * 1024 * 1024;
const timeline = new TimelineService();
/** The retry limit each folder's last refresh read (a time-travel tree shows it beside the counts). */
const retryLimits = new Map<string, RetryLimitView>();
/** Each folder's task nodes of its last refreshed tree (an append changes one task of hundreds). */
const treeMemos = new Map<string, TaskNodeMemo>();

function treeMemo(cwd: string): TaskNodeMemo {
  let m = treeMemos.get(cwd);
  if (!m) treeMemos.set(cwd, (m = new TaskNodeMemo()));
  return m;
}

function session(cwd: string): LedgerSession {
  let s = sessions.get(cwd);
  if (!s) sessions.set(cwd, (s = new LedgerSession(cwd)));
  return s;
}

async function refreshResult(
  s: LedgerSession,
  full: boolean,
  context: WorkerContext,
  options: { stored?: unknown; historyWarnings?: boolean } = {},
): Promise<RefreshResult> {
  const t0 = performance.now();
  // Taken before anything is read: a later change shows as a different stamp at the next probe.
  const stamp = await autodevFolderStamp(s.cwd);
  // On the live path (a session that has read the ledger: an append's refresh, milliseconds long),
  // whether AutoDev runs (a line on the lock prober's pipe, the process look-up) is asked beside the
  // ledger's read, not after it, so the answer waits for the slower of the two only.
  const running = !full && s.entries.length > 0 ? probeAutodevRunning(s.cwd) : undefined;
  if (full) s.invalidate();
  const progress = (bytes: number, total: number) => context.progress(bytes, total);
  // A fresh session may resume from the record an earlier one left (only the appended bytes are verified).
  const record =
    !full && options.stored !== undefined && s.entries.length === 0 ? parseVerificationRecord(options.stored) : null;
  let rewritten = false;
  let update: SessionUpdate;
  try {
    if (record) {
      const u = await s.resume(record, context.signal, progress);
      rewritten = u.rewritten;
      update = u;
    } else update = await s.refresh(context.signal, progress);
  } catch (e) {
    if (context.signal?.aborted) throw e;
    return unreadableResult(s.cwd, e, performance.now() - t0, stamp);
  }
  const next = update.mode === "none" ? undefined : await s.verificationRecord();
  const report = s.report;
  const hasLedger = update.mode !== "missing";
  // The rest of .autodev/ is read on every refresh: a delegation, a response or config.json may
  // have changed without the ledger.
  const snapshot = await readAutodevSnapshot(
    s.cwd,
    {
      ok: report.ok,
      ledger: hasLedger,
      errors: report.errors,
      warnings: report.warnings,
      plan: s.plan,
      entries: s.entries,
      bytes: s.readSize,
    },
    true,
    running,
  );
  retryLimits.set(s.cwd, retryLimitOf(snapshot.run));
  return {
    update,
    report,
    plan: s.plan,
    tree: autodevStateTree(snapshot, s.cwd, treeMemo(s.cwd)),
    entries: s.partial ? report.entries : s.entries.length,
    head: s.rememberable(),
    record: next,
    rewritten,
    contract: snapshot.contract ? [snapshot.contract] : [],
    problems: snapshotProblems(snapshot, { historyWarnings: options.historyWarnings }),
    run: { ...runViewOf(snapshot.run), stamp },
    lastChanges: lastChanges(s.entries, s.plan),
    holdMs: full ? null : await tailHoldMs(report, s.file),
    hasLedger,
    ms: performance.now() - t0,
  };
}

/** The answer when the ledger cannot be read (a FIFO, a folder, a link out): that problem and the run state's. */
async function unreadableResult(cwd: string, e: unknown, ms: number, stamp: string): Promise<RefreshResult> {
  const run = await readRunState(cwd, null, { probe: true });
  const why = errorText(e);
  return {
    update: { mode: "missing", added: 0, bytesRead: 0 },
    report: { ok: false, entries: 0, head: null, errors: [], warnings: [], bytes: 0 },
    plan: null,
    tree: unreadableTree(run, why),
    entries: 0,
    head: null,
    contract: [],
    problems: await unreadableLedgerProblems(cwd, e),
    run: { ...runViewOf(run), stamp },
    lastChanges: [],
    holdMs: null,
    hasLedger: true,
    unreadable: why,
    ms,
  };
}

async function rejectionText(p: Promise<unknown>): Promise<string | null> {
  try {
    await p;
    return null;
  } catch (e) {
    return errorText(e);
  }
}

async function replayCompare(cwd: string): Promise<ReplayComparison> {
  let replayed: Plan | null = null;
  let fast: Plan | null = null;
  let entries = 0;
  const err1 = await rejectionText(replayLedger(cwd).then((r) => ((replayed = r.plan), (entries = r.entries))));
  const err2 = await rejectionText(loadPlan(cwd).then((r) => (fast = r.plan)));
  const onDisk = await readRegularText(planPath(cwd), {
    root: cwd,
    what: "plan.json",
    maxBytes: getMaxLineBytes(),
  }).catch(() => null);
  const text = (p: Plan | null) => (p ? planJsonText(p) : null);
  return { replayed: text(replayed), fastPath: text(fast), planJson: onDisk, error: err1 ?? err2, entries };
}

/** The first of `.autodev/` and the ledger that resolves outside `cwd`, or why they cannot be resolved. */
async function linksOut(cwd: string): Promise<{ link: string | null; error: string | null }> {
  try {
    const root = await fs.promises.realpath(cwd);
    for (const p of [autodevRoot(cwd), ledgerPath(cwd)]) {
      const real = await fs.promises.realpath(p).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "ENOENT") return null;
        throw e;
      });
      if (real === null) continue;
      if (!isInside(root, real)) return { link: path.relative(cwd, p), error: null };
    }
    return { link: null, error: null };
  } catch (e) {
    return { link: null, error: errorText(e) };
  }
}

/** Answers one AutoDev request for `cwd`. */
async function handleAutodevRequest(
  cwd: string,
  req: AutodevRequest,
  context: WorkerContext,
): Promise<AutodevResults[AutodevRequest["type"]]> {
  if (isEvidenceRequest(req)) return handleEvidenceRequest(cwd, req);
  switch (req.type) {
    case "refresh":
      return refreshResult(session(cwd), false, context, { stored: req.record, historyWarnings: req.historyWarnings });
    case "verify":
      return refreshResult(session(cwd), true, context, { historyWarnings: req.historyWarnings });
    case "tailPlan": {
      const { plan, seq } = await loadFromTail(cwd);
      const tree = planOnlyTree(plan, cwd, retryLimits.get(cwd) ?? null, [], l10n.t("Loading…"));
      return { plan, seq, tree };
    }
    case "entries": {
      const all = session(cwd).entries;
      return { total: all.length, items: all.slice(req.offset, req.offset + req.limit) };
    }
    case "planAt": {
      const s = session(cwd);
      const plan = await s.planAt(req.seq);
      const upTo = s.entries.filter((e) => e.seq <= req.seq);
      const tree = planOnlyTree(plan, cwd, retryLimits.get(cwd) ?? null, upTo, l10n.t("No plan at this entry"));
      return { plan, seq: req.seq, tree };
    }
    case "replayCompare":
      return replayCompare(cwd);
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
    case "runView": {
      // The plan the session holds (the host never sends it back); without one, the tail snapshot's.
      const s = session(cwd);
      const plan = s.entries.length > 0 ? s.plan : (await loadFromTail(cwd)).plan;
      return autodevRunView(cwd, runPlanOf(plan), req.probeOnly);
    }
    case "linksOut":
      return linksOut(cwd);
    case "stateFileText":
      // Only `.autodev/`'s files, confined to the folder, regular files only, at most 16 MiB.
      if (!req.rel.startsWith(`${AUTODEV_DIR}/`) || req.rel.split("/").includes("..")) {
        return { kind: "error", error: `${req.rel} is not a file of ${AUTODEV_DIR}/` };
      }
      return readWorkspaceStateFile(cwd, req.rel, Math.min(req.maxBytes, MAX_STATE_FILE_TEXT));
    case "taskEvidence":
      return loadTaskEvidence(cwd, req.taskId, req.status, req.evidenceBundle);
    case "createResponse":
      try {
        return await createResponseFile(cwd, req.taskId, req.role);
      } catch (e) {
        if (!(e instanceof WriteRefusedError)) throw e;
        return { kind: "refused", message: e.message };
      }
    case "checkResponse":
      return checkResponseText(req.text, { taskId: req.taskId, role: req.role });
    default:
      throw new Error(`AutoDev has no request ${JSON.stringify((req as { type?: unknown }).type)}`);
  }
}

/** AutoDev's {@link SourceWorkerHandler}. */
export const autodevWorker: SourceWorkerHandler = {
  handle: (cwd, request, context) => handleAutodevRequest(cwd, request as AutodevRequest, context),
  // The refresh and the first paint's tail snapshot are what the tree shows a change with.
  priorityOf: (request) => {
    const type = (request as { type?: unknown } | null)?.type;
    return type === "refresh" || type === "tailPlan" ? "live" : "normal";
  },
  timelinePage: async (cwd, request) => timeline.page(session(cwd), request),
  timelineDetail: (cwd, rowId) => timeline.detail(session(cwd), rowId),
  timelineRef: (cwd, rowId) => timeline.entryRef(session(cwd), rowId),
  dispose: (cwd) => {
    sessions.delete(cwd);
    retryLimits.delete(cwd);
    treeMemos.delete(cwd);
  },
};
