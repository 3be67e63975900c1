/**
 * What the extension's AutoDev tree and Problems need from the run state, computed in the
 * worker thread (the host passes the plan it already has, so the ledger is not read again):
 * the nodes above and below the plan, the problems, and whether AutoDev is running. A
 * `probeOnly` request only probes the lock (polled while AutoDev runs: releasing the lock
 * changes no file).
 */
import type { SourceProblem, SourceTreeNode } from "../../stateSource";
import { readRunState, RunPlan, RunState } from "./runState";
import { probeAutodevRunning } from "./runningProbe";
import { autodevFolderStamp } from "./folderStamp";
import { runStateProblems } from "./runProblems";
import { runBottomNodes, runTopNodes } from "../tree/runTree";
import { waitingLabel } from "../inline/inlineState";
import { taskHistoryNode } from "../tree/inlineTree";
import { DEFAULT_QA_RETRY_LIMIT } from "../config/configSchema";
import { resumeRefusal, type ResumeRefusal } from "../inline/resumeGate";

/** The run state as the host shows it. */
export interface AutodevRunView {
  readonly running: boolean | null;
  readonly runningDetail: string;
  /** What AutoDev is doing while it runs ("task 1.2 · impl tournament pass 2"), null otherwise or when only probed. */
  readonly runningActivity: string | null;
  /** "Waiting on reviewer for 1.2 (retry 2/3)", or null when not suspended. */
  readonly waiting: string | null;
  /** The same, structured: who must answer, for which task, and the files involved (delegation, response). */
  readonly waitingOn: {
    readonly who: string;
    readonly what: string;
    readonly taskId: string;
    readonly files: readonly string[];
  } | null;
  /** Why *Resume Run* must not run `autodev resume` now (resumeGate.ts), or null. */
  readonly resumeRefusal: ResumeRefusal | null;
  /** Nodes above the plan (running, waiting) and below it (next, tournaments, knowledge, config, spec). */
  readonly top: readonly SourceTreeNode[];
  readonly bottom: readonly SourceTreeNode[];
  readonly problems: readonly SourceProblem[];
  /**
   * `qa_retry_limit` as AutoDev reads it: config.json's value, AutoDev's default when the file does
   * not set it or is absent (`autodev init` writes that default), null when the value is unusable.
   */
  readonly retryLimit: number | null;
  /** True when there is no config.json, so {@link retryLimit} is AutoDev's default, not the workspace's. */
  readonly retryLimitIsDefault: boolean;
  /** Each plan task's "Delegations" node (the core tree's, inlineTree.ts), for the tasks inline mode delegated. */
  readonly taskHistory: readonly { readonly taskId: string; readonly node: SourceTreeNode }[];
  /**
   * `.autodev/`'s folder stamp (folderStamp.ts) taken just before this was read, or null when not taken:
   * while AutoDev runs, a probe whose stamp differs has seen a change the file watcher may have missed.
   */
  readonly stamp: string | null;
}

/** Ids of bottom nodes the extension already shows its own way (plan evidence has its own group). */
const SHOWN_ELSEWHERE = new Set(["autodev|planEvidence"]);

/** Computes the view (or, with `probeOnly`, just `running` and the folder stamp). */
export async function autodevRunView(cwd: string, plan: RunPlan, probeOnly = false): Promise<AutodevRunView> {
  const stamp = await autodevFolderStamp(cwd);
  if (probeOnly) {
    const p = await probeAutodevRunning(cwd);
    return {
      running: p.running,
      runningDetail: p.detail,
      runningActivity: null,
      waiting: null,
      waitingOn: null,
      resumeRefusal: null,
      top: [],
      bottom: [],
      problems: [],
      retryLimit: null,
      retryLimitIsDefault: false,
      taskHistory: [],
      stamp,
    };
  }
  return { ...runViewOf(await readRunState(cwd, plan)), stamp };
}

/** The view of a run state read already (the refresh's snapshot). */
export function runViewOf(rs: RunState): AutodevRunView {
  // A stale suspend state (the plan already stored, the task already done) is not a wait.
  const w = rs.history.staleWaiting === null ? rs.inline.waiting : null;
  const waiting = w ? waitingLabel(w, w.retryCount > 0 ? rs.config.qaRetryLimit : null) : null;
  return {
    running: rs.running.running,
    runningDetail: rs.running.detail,
    runningActivity: rs.activity,
    waiting,
    waitingOn:
      w && waiting ? { who: w.role, what: waiting, taskId: w.taskId, files: [w.delegationPath, w.responsePath] } : null,
    resumeRefusal: resumeRefusal(rs.inline.waiting, rs.history.staleWaiting !== null),
    top: runTopNodes(rs),
    bottom: runBottomNodes(rs).filter((n) => !SHOWN_ELSEWHERE.has(n.id)),
    problems: runStateProblems(rs),
    retryLimit: rs.config.present ? rs.config.qaRetryLimit : DEFAULT_QA_RETRY_LIMIT,
    retryLimitIsDefault: !rs.config.present,
    taskHistory: (rs.tasks ?? []).flatMap((t) => {
      const node = taskHistoryNode(t.id, rs.history.steps);
      return node ? [{ taskId: t.id, node }] : [];
    }),
    stamp: null,
  };
}
