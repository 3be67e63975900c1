/**
 * What AutoDev's ledger timeline is, in the neutral timeline's terms: its
 * features (a hash chain, status changes, retries, snapshots folded into the
 * entry they follow, plan diffs, rows grouped by session) and its words (each
 * op's codicon and words, the ten statuses). Plain data, for the manifest.
 */
import type { TimelineFeatures, TimelineWords } from "../../../timeline/timelineTypes";
import { TASK_STATUS_WORDS } from "../../taskStatusIcons";

/** Each ledger op Python AutoDev declares: its codicon and what an entry of it did. */
const LEDGER_WORDS: TimelineWords = {
  actions: {
    init_plan: { icon: "rocket", words: "plan created", change: true },
    update_plan: { icon: "edit", words: "plan replaced", change: true },
    update_task_status: { icon: "arrow-swap", words: "status change" },
    append_evidence: { icon: "file-add", words: "evidence recorded" },
    mark_blocked: { icon: "stop-circle", words: "marked blocked" },
    mark_complete: { icon: "pass-filled", words: "marked complete" },
    snapshot: { icon: "device-camera", words: "snapshot" },
    plan_tournament_complete: { icon: "law", words: "tournament result" },
    impl_tournament_complete: { icon: "law", words: "tournament result" },
  },
  // An op the ledger should not hold is a question; so is a status outside the ten.
  unknownActionIcon: "question",
  statuses: TASK_STATUS_WORDS,
  unknownStatus: { icon: "question", color: "problemsWarningIcon.foreground" },
  labels: {
    actor: "Session",
    actorTitle: "session {0}",
    allActors: "All sessions",
    filterActor: "Filter by session",
    allActions: "All ops",
    filterAction: "Filter by op",
    find: "Find: seq, task, title, op, session, hash…",
  },
};

/** The ledger: hash-chained entries that move tasks through the state machine, each write followed by a snapshot. */
export const LEDGER_TIMELINE_FEATURES: TimelineFeatures = {
  chain: { hashName: "self_hash", prevHashName: "prev_hash" },
  statusChanges: true,
  retries: true,
  snapshotAction: "snapshot",
  groupByActor: true,
  planDiffs: true,
  words: LEDGER_WORDS,
};
