/**
 * What the timeline rows of a source that declares no features are: a log of
 * agents' actions (no chain, no status changes, no retries, no snapshots,
 * grouped by day) with no words of its own. Plain data, for manifests.
 */
import type { TimelineFeatures } from "./timelineFeatureTypes";
import { msg } from "../text/coreL10n";

/** What the rows of a source without declared features are: a log of agents' actions, with no words of its own. */
export const LOG_TIMELINE_FEATURES: TimelineFeatures = {
  chain: null,
  statusChanges: false,
  retries: false,
  snapshot: null,
  groupByActor: false,
  travel: null,
  words: {
    actions: {},
    unknownActionIcon: "symbol-event",
    statuses: {},
    unknownStatus: { icon: "blank", color: "" },
    labels: {
      actor: msg("Agent"),
      actorTitle: msg("agent {0}"),
      allActors: msg("All agents"),
      filterActor: msg("Filter by agent"),
      allActions: msg("All actions"),
      filterAction: msg("Filter by action"),
      find: msg("Find: task, action, agent, summary…"),
      selectHint: msg("Select a row to see its details."),
      record: msg("Record"),
      fields: {
        time: msg("Time"),
        agent: msg("Agent"),
        session: msg("Session"),
        action: msg("Action"),
        phase: msg("Phase"),
        task: msg("Task"),
        status: msg("Status"),
        input: msg("Input"),
        output: msg("Output"),
        summary: msg("Summary"),
        metadata: msg("Metadata"),
        line: msg("Line"),
      },
    },
  },
};
