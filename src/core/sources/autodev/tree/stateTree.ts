/**
 * AutoDev's whole tree from one read of `.autodev/` (the snapshot `check` reads too): the run
 * state above (running, the inline suspension), the phase contract of the current step, the plan
 * (planTree.ts: phases, tasks, each task's delegations) or, before there is one, the plan phase,
 * then the run state below (what comes next, plan-phase evidence, tournaments, knowledge, config,
 * spec). `autodevSource.tree` and the worker's answer to the editor's refresh both return it, so
 * the editor shows exactly these nodes and adds only what it alone knows (review marks, evidence,
 * a rewritten history, time travel).
 */
import type { SourceTreeNode } from "../../stateSource";
import { contractTreeNode } from "../../phaseContract";
import type { AutodevSnapshot } from "../autodevSnapshot";
import { DEFAULT_QA_RETRY_LIMIT } from "../config/configSchema";
import type { Plan } from "../plan/schemas";
import type { RunState } from "../run/runState";
import { lastChanges } from "../timeline/taskLastChange";
import type { EntrySummary } from "../ledger/verifyTypes";
import { l10n } from "../../../text/coreL10n";
import { planPhaseNode, taskHistoryNode } from "./inlineTree";
import { TaskNodeMemo, planTree } from "./planTree";
import type { RetryLimitView } from "./retryWords";
import { runBottomNodes, runTopNodes } from "./runTree";
import { labelText } from "../../../text/untrustedText";

/** `qa_retry_limit` as AutoDev reads it: config.json's, AutoDev's default without one. */
export function retryLimitOf(run: RunState): NonNullable<RetryLimitView> {
  return {
    retryLimit: run.config.present ? run.config.qaRetryLimit : DEFAULT_QA_RETRY_LIMIT,
    retryLimitIsDefault: !run.config.present,
  };
}

/** The tree of a snapshot of `.autodev/` in `workspace` (`memo`: the folder's task nodes of its last tree). */
export function autodevStateTree(s: AutodevSnapshot, workspace: string, memo?: TaskNodeMemo): SourceTreeNode[] {
  const run = s.run;
  const plan = s.plan;
  const history = (id: string) => {
    const n = taskHistoryNode(id, run.history.steps);
    return n ? [n] : [];
  };
  return [
    ...runTopNodes(run),
    ...(s.contract ? [contractTreeNode("autodev/contract", s.contract.view)] : []),
    ...(plan
      ? planTree(plan, {
          workspace,
          retry: retryLimitOf(run),
          lastChanges: new Map(lastChanges(s.entries, plan)),
          extras: history,
          memo,
        })
      : [planPhaseNode(run)]),
    ...runBottomNodes(run),
  ];
}

/** The tree when the ledger cannot be read (`why`): that, between the run state's nodes. */
export function unreadableTree(run: RunState, why: string): SourceTreeNode[] {
  return [
    ...runTopNodes(run),
    {
      id: "autodev|unreadable",
      label: labelText(l10n.t("Cannot read the ledger: {0}", why), 400),
      icon: { id: "error", color: "errorForeground" },
    },
    ...runBottomNodes(run),
  ];
}

/**
 * The plan alone, as of an entry (time travel) or from the tail snapshot before the first full
 * read: no run state (it is of now, not of then); `entries` are those up to that point.
 */
export function planOnlyTree(
  plan: Plan | null,
  workspace: string,
  retry: RetryLimitView,
  entries: readonly EntrySummary[],
  empty: string,
): SourceTreeNode[] {
  if (!plan) return [{ id: "autodev|empty", label: empty, icon: { id: "info" } }];
  return planTree(plan, { workspace, retry, lastChanges: new Map(lastChanges(entries, plan)) });
}
