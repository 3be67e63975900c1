/**
 * Everything about an AutoDev run beyond the plan, read in one call for the
 * tree, the problems and the CLI: whether it is running (the lock probe),
 * the inline suspension, config.json, spec drift, tournaments, knowledge and
 * what `autodev resume` / `execute` would do next. Never throws.
 */
import { EvidenceItem, listEvidence } from "../evidence/evidenceStore";
import { ConfigReport, readConfig } from "../config/configReader";
import { InlineReport, readInlineState } from "../inline/inlineState";
import { KnowledgeReport, readKnowledge } from "../knowledge/knowledgeReader";
import { NextSteps, decideNextSteps } from "./nextStep";
import { RunningProbe, probeAutodevRunning } from "./runningProbe";
import { SpecDrift, checkSpecDrift } from "./specDrift";
import { TournamentSummary, readTournaments } from "../tournaments/tournamentIndex";
import { InlineHistory, inlineHistory } from "../inline/inlineHistory";
import { DelegationFile, readDelegation } from "../inline/delegationFile";
import { listWorkspaceDir } from "../stateFile";
import { AUTODEV_DIR, EVIDENCE_DIR } from "../autodevPaths";
import { autodevTemps } from "./leftoverTemps";
import { runningActivity } from "./runningActivity";

import { type RunPlan, runPlanOf } from "./runPlan";

/** The plan as far as the run state needs it (runPlan.ts; null when there is no plan), and its reduction. */
export { type RunPlan, runPlanOf };

/** The run state of one workspace. */
export interface RunState {
  readonly running: RunningProbe;
  readonly inline: InlineReport;
  readonly config: ConfigReport;
  readonly spec: SpecDrift | null;
  readonly tournaments: readonly TournamentSummary[];
  readonly tournamentErrors: readonly string[];
  readonly knowledge: KnowledgeReport;
  readonly next: NextSteps;
  /** The plan phase's bundles (`plan-explore-explore.json`, `plan-domain_expert-domain_expert.json`). */
  readonly planEvidence: readonly EvidenceItem[];
  /** True when the ledger holds a plan (false in the plan phase, before `init_plan`). */
  readonly planStored: boolean;
  /** The plan's tasks in plan order (null before a plan is stored). */
  readonly tasks: ReadonlyArray<{ readonly id: string; readonly status: string }> | null;
  /** Every delegation and response, per task, with what AutoDev does with it; stale state and hazards. */
  readonly history: InlineHistory;
  /** File names in `.autodev/evidence/` (empty when it cannot be listed). */
  readonly evidenceNames: readonly string[];
  /** The pending delegation's content (frontmatter, prompt, injected lessons), when one is pending and readable. */
  readonly delegation: DelegationFile | null;
  /** Why the pending delegation could not be read, or null. */
  readonly delegationError: string | null;
  /** AutoDev's temp files under `.autodev/` (leftoverTemps.ts): writes in flight, or left by a kill. */
  readonly temps: readonly string[];
  /** What AutoDev is doing while it runs ("task 1.2 · impl tournament pass 2"), null when it does not run. */
  readonly activity: string | null;
}

/**
 * Options: skip the lock probe (it starts a short process; the look-up of an AutoDev process in the
 * folder still runs), the home folder and the ranking time (tests).
 */
export interface RunStateOptions {
  readonly probe?: boolean;
  readonly home?: string;
  readonly nowS?: number;
  /** The hive file the user named (CLI `--hive`); else AutoDev's default is read. */
  readonly hive?: string;
  /** The running probe, already started by the caller (a refresh starts it beside the ledger's read). */
  readonly running?: Promise<RunningProbe>;
}

/** Reads the run state of `cwd` given its plan. */
export async function readRunState(cwd: string, plan: RunPlan, options: RunStateOptions = {}): Promise<RunState> {
  const [running, inline, config] = await Promise.all([
    options.running ?? probeAutodevRunning(cwd, undefined, options.probe !== false),
    readInlineState(cwd),
    readConfig(cwd),
  ]);
  const w = inline.waiting;
  const [spec, tours, knowledge, planEvidence, deleg, evidenceList, rootList] = await Promise.all([
    checkSpecDrift(cwd, plan?.spec_hash ?? null),
    readTournaments(cwd, config.config),
    readKnowledge(cwd, config, { home: options.home, nowS: options.nowS, hive: options.hive }),
    listEvidence(cwd, "plan"),
    w?.delegationExists ? readDelegation(cwd, w.delegationPath) : Promise.resolve(null),
    listWorkspaceDir(cwd, `${AUTODEV_DIR}/${EVIDENCE_DIR}`),
    listWorkspaceDir(cwd, AUTODEV_DIR),
  ]);
  const tasks = plan === null ? null : plan.phases.flatMap((p) => p.tasks.map((t) => ({ id: t.id, status: t.status })));
  const retries = new Map(plan?.phases.flatMap((p) => p.tasks.map((t) => [t.id, t.retry_count ?? 0] as const)) ?? []);
  const history = inlineHistory(inline, tasks, config.qaRetryLimit);
  return {
    running,
    inline,
    config,
    spec,
    tournaments: tours.tournaments,
    tournamentErrors: tours.errors,
    knowledge,
    next: decideNextSteps(plan, inline.waiting, history.staleWaiting !== null),
    planEvidence,
    planStored: plan !== null,
    tasks,
    evidenceNames: evidenceList.ok ? evidenceList.names : [],
    history,
    delegation: deleg?.ok ? deleg.delegation : null,
    delegationError: deleg && !deleg.ok && "error" in deleg ? deleg.error : null,
    activity:
      running.running === true
        ? runningActivity(
            tasks && tasks.map((t) => ({ ...t, retries: retries.get(t.id) ?? 0 })),
            tours.tournaments,
            config.qaRetryLimit,
          )
        : null,
    temps: autodevTemps(
      rootList.ok ? rootList.names : [],
      evidenceList.ok ? evidenceList.names : [],
      tours.tournaments,
    ),
  };
}
