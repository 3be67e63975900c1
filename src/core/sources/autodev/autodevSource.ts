/**
 * AutoDev's `.autodev/` as a {@link StateSource}: detected by anything AutoDev
 * writes there (config.json from `autodev init`, the plan phase's inline files,
 * the ledger once the plan is stored: autodevPresence.ts), so the plan phase
 * shows before any ledger exists; checked by the ledger verification (hash
 * chain, replay) when there is a ledger, plus the phase contract (contract/:
 * evidence per status, allowed moves, re-entry) and plan.json drift, summarised
 * for the CLI, listed for the timeline; its worker part (autodevWorker.ts) keeps a ledger session
 * per folder. The extension shows it through its adapter under src/extension/sources/autodev/.
 */
import { loadFromTail, verifyLedger } from "./ledger/ledgerReader";
import { contractJson } from "../phaseContract";
import { EntrySummary } from "./ledger/verifyTypes";
import { SourceLocation, SourceProblem, SourceTimelineRow, SourceTreeNode, StateSource } from "../stateSource";
import { AUTODEV_DIR, LEDGER_REL, autodevRoot } from "./autodevPaths";
import { autodevPresence } from "./autodevPresence";
import { autodevManifest } from "./autodevManifest";
import {
  AutodevLedgerRead,
  AutodevSnapshot,
  readAutodevSnapshot,
  snapshotProblems,
  unreadableLedgerProblems,
} from "./autodevSnapshot";
import { autodevWorker } from "./worker/autodevWorker";
import { autodevGraph } from "./autodevGraph";
import { autodevRunStatus, autodevTaskDetail } from "./report/agentDetails";
import { autodevReport } from "./report/autodevReport";
import { autodevStateTree, unreadableTree } from "./tree/stateTree";
import { readRunState } from "./run/runState";
import { errorText } from "../../text/errorText";

/** Reads the ledger once: report, replayed plan and entry summaries (`ledger: false` in the plan phase). */
async function readAll(location: SourceLocation): Promise<AutodevLedgerRead> {
  if ((await autodevPresence(location.workspace)).ledger === "missing") {
    return { ok: true, ledger: false, errors: [], warnings: [], plan: null, entries: [] };
  }
  const entries: EntrySummary[] = [];
  const { report, plan } = await verifyLedger(location.workspace, { onEntry: (s) => void entries.push(s) });
  // A broken chain shows the plan of the last snapshot, as the editor's ledger session does.
  const shown = report.ok ? plan : (await loadFromTail(location.workspace)).plan;
  return { ok: report.ok, ledger: true, errors: report.errors, warnings: report.warnings, plan: shown, entries };
}

/** The ledger, the run state, the phase contract and the history warnings, read once. */
async function readChecked(location: SourceLocation, probe: boolean): Promise<AutodevSnapshot> {
  return readAutodevSnapshot(location.workspace, await readAll(location), probe);
}

/**
 * Every problem of `.autodev/` (autodevSnapshot.ts: the composition the editor shows too). A ledger
 * that cannot be read is one problem; the run state's still show.
 */
export async function autodevProblems(location: SourceLocation): Promise<SourceProblem[]> {
  let checked: AutodevSnapshot;
  try {
    checked = await readChecked(location, false);
  } catch (e) {
    return unreadableLedgerProblems(location.workspace, e);
  }
  return snapshotProblems(checked);
}

function rowOf(e: EntrySummary): SourceTimelineRow {
  const change = e.toStatus ? `${e.fromStatus ?? "?"} → ${e.toStatus}` : "";
  return {
    index: e.seq,
    time: e.timestamp || null,
    actor: e.sessionId || null,
    action: e.op,
    taskId: e.taskId,
    status: e.toStatus,
    summary: [change, e.chain === "ok" ? "" : `chain: ${e.chain}`].filter(Boolean).join(" · "),
    file: LEDGER_REL,
    line: e.line,
  };
}

/** The AutoDev state source. */
export const autodevSource: StateSource = {
  ...autodevManifest,
  worker: autodevWorker,

  async detect(workspace) {
    if (!(await autodevPresence(workspace)).present) return null;
    return { kind: "autodev", workspace, dir: autodevRoot(workspace), relDir: AUTODEV_DIR };
  },

  watchGlobs() {
    return [`${AUTODEV_DIR}/**`];
  },

  check: autodevProblems,

  async summarize(location) {
    const { ok, ledger, plan, entries, run, contract } = await readChecked(location, false);
    const w = run.history.staleWaiting === null ? run.inline.waiting : null;
    const tasks = (plan?.phases ?? []).flatMap((p) =>
      p.tasks.map((t) => ({ id: t.id, title: t.title, status: String(t.status), depends_on: [...t.depends_on] })),
    );
    const title = plan?.metadata.get("title");
    return {
      kind: "autodev",
      path: location.relDir,
      plan_id: plan?.plan_id ?? null,
      title: typeof title === "string" && title.trim() ? title : (plan?.plan_id ?? null),
      ok: ledger ? ok : null,
      ledger,
      phase: plan ? "execute" : "plan",
      waiting: w ? { task_id: w.taskId, role: w.role, response: w.response.state } : null,
      tasks,
      entries: entries.length,
      contract: contractJson(contract?.view ?? null),
    };
  },

  async tree(location): Promise<readonly SourceTreeNode[]> {
    let checked: AutodevSnapshot;
    try {
      checked = await readChecked(location, true);
    } catch (e) {
      const run = await readRunState(location.workspace, null, { probe: true });
      return unreadableTree(run, errorText(e));
    }
    return autodevStateTree(checked, location.workspace);
  },

  async timeline(location) {
    return (await readAll(location)).entries.map(rowOf);
  },

  graph: autodevGraph,
  runStatus: autodevRunStatus,
  taskDetail: autodevTaskDetail,
  report: autodevReport,
};
