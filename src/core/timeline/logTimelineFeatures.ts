/**
 * What the timeline rows of a source that declares no features are: a log of
 * agents' actions (no chain, no status changes, no retries, no snapshots,
 * grouped by day) with no words of its own. Plain data, for manifests.
 */
import type { TimelineFeatures } from "./timelineTypes";

/** What the rows of a source without declared features are: a log of agents' actions, with no words of its own. */
export const LOG_TIMELINE_FEATURES: TimelineFeatures = {
  chain: null,
  statusChanges: false,
  retries: false,
  snapshotAction: null,
  groupByActor: false,
  planDiffs: false,
  words: {
    actions: {},
    unknownActionIcon: "symbol-event",
    statuses: {},
    unknownStatus: { icon: "blank", color: "" },
    labels: {
      actor: "Agent",
      actorTitle: "agent {0}",
      allActors: "All agents",
      filterActor: "Filter by agent",
      allActions: "All actions",
      filterAction: "Filter by action",
      find: "Find: task, action, agent, summary…",
    },
  },
};
