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
import * as path from "node:path";
import { verifyLedger } from "./ledger/ledgerReader";
import { UnsafeFileError } from "../../fs/safeRead";
import { missingEvidenceWarnings, planJsonWarning } from "./historyChecks";
import { checkAutodevContract } from "./contract/autodevContract";
import { contractJson, contractTreeNode } from "../phaseContract";
import { EntrySummary, VerifyFinding, VerifyWarning } from "./ledger/verifyTypes";
import { Plan } from "./plan/schemas";
import { ProblemCollector, sortProblems } from "../sourceProblems";
import { SourceLocation, SourceProblem, SourceTimelineRow, SourceTreeNode, StateSource } from "../stateSource";
import { AUTODEV_DIR, LEDGER_REL, PLAN_FILE, autodevRoot } from "./autodevPaths";
import { autodevPresence } from "./autodevPresence";
import { autodevManifest } from "./autodevManifest";
import { autodevWorker } from "./worker/autodevWorker";
import { autodevTree } from "./autodevTree";
import { autodevGraph, planDependencyProblems } from "./autodevGraph";
import { autodevRunStatus, autodevTaskDetail } from "./report/agentDetails";
import { autodevReport } from "./report/autodevReport";
import { readRunState, runPlanOf } from "./run/runState";
import { runStateProblems } from "./run/runProblems";
import { runBottomNodes, runTopNodes } from "./tree/runTree";
import { planPhaseNode, taskHistoryNode } from "./tree/inlineTree";
import { errorProblem, warningProblem } from "./ledgerProblems";

/** The ledger's findings and warnings as problems (ledgerProblems.ts). */
export { errorProblem, warningProblem };

/** Reads the ledger once: report, replayed plan and entry summaries (`ledger: false` in the plan phase). */
async function readAll(location: SourceLocation): Promise<{
  ok: boolean;
  ledger: boolean;
  errors: readonly VerifyFinding[];
  warnings: readonly VerifyWarning[];
  plan: Plan | null;
  entries: EntrySummary[];
}> {
  if ((await autodevPresence(location.workspace)).ledger === "missing") {
    return { ok: true, ledger: false, errors: [], warnings: [], plan: null, entries: [] };
  }
  const entries: EntrySummary[] = [];
  const { report, plan } = await verifyLedger(location.workspace, { onEntry: (s) => void entries.push(s) });
  return { ok: report.ok, ledger: true, errors: report.errors, warnings: report.warnings, plan, entries };
}

/** The ledger, the run state and (on an intact ledger) the phase contract, read once. */
async function readChecked(location: SourceLocation, probe: boolean) {
  const all = await readAll(location);
  const run = await readRunState(location.workspace, runPlanOf(all.plan), { probe });
  const contract = all.ok
    ? await checkAutodevContract({
        workspace: location.workspace,
        plan: all.plan,
        entries: all.entries,
        warnings: all.warnings,
        run,
      })
    : null;
  return { ...all, run, contract };
}

/** A problem for a part of the check that stopped, so the other parts' findings still show. */
function stoppedProblem(file: string, part: string, e: unknown): SourceProblem {
  return {
    file,
    line: null,
    severity: "error",
    code: "check_failed",
    message: `the ${part} stopped: ${e instanceof Error ? e.message : String(e)}`,
  };
}

/**
 * Every problem of `.autodev/`: integrity errors, then (on an intact ledger) the phase contract's
 * findings (they stand in for the ledger's fsm_violation warnings and the missing-evidence check),
 * plan.json drift and the run state's problems; at most PROBLEMS_PER_FILE per file (the rest
 * summarised). A part that fails (the ledger cannot be read) is one problem; the others still run.
 */
export async function autodevProblems(location: SourceLocation): Promise<SourceProblem[]> {
  const out = new ProblemCollector();
  let checked: Awaited<ReturnType<typeof readChecked>>;
  try {
    checked = await readChecked(location, false);
  } catch (e) {
    out.add(
      e instanceof UnsafeFileError
        ? { file: LEDGER_REL, line: null, severity: "error", code: "unreadable_file", message: e.message }
        : stoppedProblem(LEDGER_REL, "ledger check", e),
    );
    try {
      out.addAll(runStateProblems(await readRunState(location.workspace, null, { probe: false })));
    } catch (e2) {
      out.add(stoppedProblem(AUTODEV_DIR, "run-state check (config, inline, tournaments, knowledge)", e2));
    }
    return sortProblems(out.result());
  }
  const { ok, errors, warnings, plan, entries, run, contract } = checked;
  for (const e of errors) out.add(errorProblem(e));
  for (const w of warnings) if (w.kind !== "fsm_violation") out.add(warningProblem(w));
  if (ok) {
    if (contract) out.addAll(contract.problems);
    if (plan) {
      const history = await missingEvidenceWarnings(location.workspace, plan, entries);
      for (const w of history) if (w.kind !== "missing_evidence") out.add(warningProblem(w));
    }
    const drift = await planJsonWarning(location.workspace, plan);
    if (drift) out.add(warningProblem(drift));
  }
  if (plan) out.addAll(planDependencyProblems(plan));
  out.addAll(runStateProblems(run));
  return sortProblems(out.result());
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
    const { plan, run, contract } = await readChecked(location, true);
    const history = (id: string) => {
      const n = taskHistoryNode(id, run.history.steps);
      return n ? [n] : [];
    };
    return [
      ...runTopNodes(run),
      ...(contract ? [contractTreeNode("autodev/contract", contract.view)] : []),
      ...(plan ? autodevTree(plan, path.posix.join(location.relDir, PLAN_FILE), history) : [planPhaseNode(run)]),
      ...runBottomNodes(run),
    ];
  },

  async timeline(location) {
    return (await readAll(location)).entries.map(rowOf);
  },

  graph: autodevGraph,
  runStatus: autodevRunStatus,
  taskDetail: autodevTaskDetail,
  report: autodevReport,
};
