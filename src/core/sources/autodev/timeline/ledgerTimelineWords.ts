/**
 * What AutoDev's ledger timeline is, in the neutral timeline's terms: its
 * features (a hash chain, status changes, retries, snapshots folded into the
 * entry they follow, rows grouped by session) and its words (each op's codicon
 * and words, the ten statuses, the details' labels). Its details add each
 * entry's payload and plan diff (ledgerTimelineService.ts). Plain data, for
 * the manifest.
 */
import type { TimelineFeatures, TimelineWords } from "../../../timeline/timelineFeatureTypes";
import { TASK_STATUS_WORDS } from "../../taskStatusIcons";
import { msg } from "../../../text/coreL10n";

/** Each ledger op Python AutoDev declares: its codicon and what an entry of it did. */
export const LEDGER_WORDS: TimelineWords = {
  actions: {
    init_plan: { icon: "rocket", words: msg("plan created"), change: true },
    update_plan: { icon: "edit", words: msg("plan replaced"), change: true },
    update_task_status: { icon: "arrow-swap", words: msg("status change") },
    append_evidence: { icon: "file-add", words: msg("evidence recorded") },
    mark_blocked: { icon: "stop-circle", words: msg("marked blocked") },
    mark_complete: { icon: "pass-filled", words: msg("marked complete") },
    snapshot: { icon: "device-camera", words: msg("snapshot") },
    plan_tournament_complete: { icon: "law", words: msg("tournament result") },
    impl_tournament_complete: { icon: "law", words: msg("tournament result") },
  },
  // An op the ledger should not hold is a question; so is a status outside the ten.
  unknownActionIcon: "question",
  statuses: TASK_STATUS_WORDS,
  unknownStatus: { icon: "question", color: "problemsWarningIcon.foreground" },
  labels: {
    actor: msg("Session"),
    actorTitle: msg("session {0}"),
    allActors: msg("All sessions"),
    filterActor: msg("Filter by session"),
    allActions: msg("All ops"),
    filterAction: msg("Filter by op"),
    find: msg("Find: seq, task, title, op, session, hash…"),
    selectHint: msg("Select an entry to see its payload, hashes and what it changed."),
    record: msg("Payload"),
    fields: {
      time: msg("Time"),
      task: msg("Task"),
      status: msg("Status"),
      line: msg("Line"),
    },
  },
};

/** The ledger: hash-chained entries that move tasks through the state machine, each write followed by a snapshot. */
export const LEDGER_TIMELINE_FEATURES: TimelineFeatures = {
  chain: {
    hashName: "self_hash",
    prevHashName: "prev_hash",
    brokenAt: msg("The hash chain is broken at line {0}: {1}"),
    broken: msg("The hash chain is broken: {0}"),
  },
  statusChanges: true,
  retries: true,
  snapshot: {
    action: "snapshot",
    name: msg("Snapshot"),
    fold: msg("Fold snapshots into the entry they follow"),
    mark: msg("snapshot #{0} written right after this entry"),
    folded: msg("{0} shown as rows; {1} snapshots folded into the row of the entry each follows"),
  },
  groupByActor: true,
  words: LEDGER_WORDS,
  travel: {
    asOf: msg("Show plan as of #{0}"),
    shown: msg("The Plan view shows the plan as of entry #{0}."),
    row: msg("The Plan view shows the plan as of this entry"),
    onSelect: msg("Time-travel the Plan view to the selected entry"),
  },
};
