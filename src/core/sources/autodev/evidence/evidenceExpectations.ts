/**
 * The evidence a workspace's tasks should have, from its config.json and how
 * each task ran: a task ran in inline mode when config.json's platform is
 * `inline` or AutoDev wrote a delegation for it (`delegations/{task}-*.md`),
 * and then no impl tournament evidence is expected (requiredEvidence.ts).
 * A run started with `--platform` overriding config.json leaves no trace, so
 * a task without delegations follows config.json. Never throws.
 */
import { readConfig } from "../config/configReader";
import { DELEGATIONS_REL } from "../inline/inlinePaths";
import { splitStepName } from "../inline/inlineHistory";
import { listWorkspaceDir } from "../stateFile";
import { EvidenceExpectations, expectationsFrom, inlineExpectations } from "./requiredEvidence";

/** A workspace's expectations: the config's, and per task whether it ran inline. */
export interface WorkspaceExpectations {
  readonly base: EvidenceExpectations;
  /** True when config.json's platform is `inline`. */
  readonly inlinePlatform: boolean;
  /** Tasks with a delegation file. */
  readonly delegatedTasks: ReadonlySet<string>;
  /** The expectations of one task. */
  forTask(taskId: string): EvidenceExpectations;
}

/** Reads config.json and the delegation names of `cwd`. */
export async function workspaceExpectations(cwd: string): Promise<WorkspaceExpectations> {
  const [config, dels] = await Promise.all([readConfig(cwd), listWorkspaceDir(cwd, DELEGATIONS_REL)]);
  const base = expectationsFrom(config.config);
  const inlinePlatform = config.config?.platform === "inline";
  const delegatedTasks = new Set<string>();
  for (const name of dels.ok ? dels.names : []) {
    const step = name.endsWith(".md") ? splitStepName(name.slice(0, -3)) : null;
    if (step) delegatedTasks.add(step.taskId);
  }
  return {
    base,
    inlinePlatform,
    delegatedTasks,
    forTask: (taskId) => (inlinePlatform || delegatedTasks.has(taskId) ? inlineExpectations(base) : base),
  };
}
