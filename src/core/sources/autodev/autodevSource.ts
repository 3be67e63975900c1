/**
 * AutoDev's `.autodev/` as a {@link StateSource}: detected by its ledger,
 * checked by the ledger verification (hash chain, replay) plus the history
 * warnings (task state machine, missing evidence, plan.json drift), summarised
 * for the CLI, listed for the timeline. The extension keeps a richer adapter
 * (time travel, evidence) under src/extension/sources/autodev/.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { verifyLedger } from "./ledger/ledgerReader";
import { missingEvidenceWarnings, planJsonWarning } from "./historyChecks";
import { humanMessage } from "./ledger/verifyMessages";
import { EntrySummary, VerifyFinding, VerifyWarning } from "./ledger/verifyTypes";
import { Plan } from "./plan/schemas";
import { sortProblems } from "../sourceProblems";
import { SourceLocation, SourceProblem, SourceTimelineRow, SourceTreeNode, StateSource } from "../stateSource";
import { AUTODEV_DIR, LEDGER_FILE, PLAN_FILE, autodevRoot, ledgerPath } from "./autodevPaths";
import { autodevTree } from "./autodevTree";
import { autodevGraph } from "./autodevGraph";
import { readRunState, runPlanOf } from "./run/runState";
import { runStateProblems } from "./run/runProblems";
import { runBottomNodes, runTopNodes } from "./tree/runTree";

const LEDGER_REL = `${AUTODEV_DIR}/${LEDGER_FILE}`;
const PLAN_REL = `${AUTODEV_DIR}/${PLAN_FILE}`;

async function isKind(p: string, want: "file" | "dir"): Promise<boolean> {
  try {
    const st = await fs.promises.stat(p);
    return want === "file" ? st.isFile() : st.isDirectory();
  } catch {
    return false;
  }
}

function errorProblem(e: VerifyFinding): SourceProblem {
  return {
    file: LEDGER_REL,
    line: e.atLine > 0 ? e.atLine : null,
    severity: e.kind === "more_errors" ? "info" : "error",
    code: e.kind,
    message: humanMessage(e),
  };
}

function warningProblem(w: VerifyWarning): SourceProblem {
  const onPlan = w.kind === "plan_json_mismatch" || w.kind === "plan_json_missing";
  return {
    file: onPlan ? PLAN_REL : LEDGER_REL,
    line: w.atLine > 0 ? w.atLine : null,
    severity: "warning",
    code: w.kind,
    message: w.message,
  };
}

/** Reads the ledger once: report, replayed plan and entry summaries. */
async function readAll(location: SourceLocation): Promise<{
  ok: boolean;
  errors: readonly VerifyFinding[];
  warnings: readonly VerifyWarning[];
  plan: Plan | null;
  entries: EntrySummary[];
}> {
  const entries: EntrySummary[] = [];
  const { report, plan } = await verifyLedger(location.workspace, { onEntry: (s) => void entries.push(s) });
  return { ok: report.ok, errors: report.errors, warnings: report.warnings, plan, entries };
}

/** Every problem of `.autodev/`: integrity errors, then (on an intact ledger) the history warnings. */
export async function autodevProblems(location: SourceLocation): Promise<SourceProblem[]> {
  const { ok, errors, warnings, plan, entries } = await readAll(location);
  const out = [...errors.map(errorProblem), ...warnings.map(warningProblem)];
  if (ok) {
    if (plan) out.push(...(await missingEvidenceWarnings(location.workspace, plan, entries)).map(warningProblem));
    const drift = await planJsonWarning(location.workspace, plan);
    if (drift) out.push(warningProblem(drift));
  }
  out.push(...runStateProblems(await readRunState(location.workspace, runPlanOf(plan), { probe: false })));
  return sortProblems(out);
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
export const AUTODEV_SOURCE: StateSource = {
  kind: "autodev",
  displayName: "AutoDev",
  detectGlobs: [`${AUTODEV_DIR}/${LEDGER_FILE}`],

  async detect(workspace) {
    if (!(await isKind(autodevRoot(workspace), "dir")) || !(await isKind(ledgerPath(workspace), "file"))) return null;
    return { kind: "autodev", workspace, dir: autodevRoot(workspace), relDir: AUTODEV_DIR };
  },

  watchGlobs() {
    return [`${AUTODEV_DIR}/**`];
  },

  check: autodevProblems,

  async summarize(location) {
    const { ok, plan, entries } = await readAll(location);
    const tasks = (plan?.phases ?? []).flatMap((p) =>
      p.tasks.map((t) => ({ id: t.id, title: t.title, status: String(t.status), depends_on: [...t.depends_on] })),
    );
    const title = plan?.metadata.get("title");
    return {
      kind: "autodev",
      path: location.relDir,
      plan_id: plan?.plan_id ?? null,
      title: typeof title === "string" && title.trim() ? title : (plan?.plan_id ?? null),
      ok,
      tasks,
      entries: entries.length,
    };
  },

  async tree(location): Promise<readonly SourceTreeNode[]> {
    const { plan } = await readAll(location);
    const run = await readRunState(location.workspace, runPlanOf(plan));
    return [
      ...runTopNodes(run),
      ...autodevTree(plan, path.posix.join(location.relDir, PLAN_FILE)),
      ...runBottomNodes(run),
    ];
  },

  async timeline(location) {
    return (await readAll(location)).entries.map(rowOf);
  },

  graph: autodevGraph,
};
