/**
 * What a timeline row did, in neutral terms, from its source's words: a
 * status change, a retry or escalation that kept the status, a snapshot, an
 * action the source counts as a change, or an action with words of its own —
 * and what a row without a status says it did.
 */
import type { ChangeKind, TimelineIndexEntry } from "./timelineTypes";
import type { TimelineActionWords, TimelineFeatures } from "./timelineFeatureTypes";

/** What a row did: a status change, a retry, an escalation, a snapshot, an action its source counts as a change… */
export function deriveChange(e: TimelineIndexEntry, features: TimelineFeatures): ChangeKind {
  if (e.action === features.snapshot?.action) return "snapshot";
  const words = ownWords(features, e.action);
  if (words?.change) return "changed";
  if (e.toStatus !== null && e.fromStatus !== e.toStatus) return "status";
  if (e.toStatus !== null && e.retryCount !== undefined && e.retryCount !== null) return "retry";
  if (e.toStatus !== null && e.escalated === true) return "escalated";
  if (e.toStatus !== null) return "same-status";
  return words ? "noted" : "other";
}

/** The source's words for an action, or undefined when its table does not know it. */
function ownWords(features: TimelineFeatures, action: string): TimelineActionWords | undefined {
  const table = features.words.actions;
  return Object.prototype.hasOwnProperty.call(table, action) ? table[action] : undefined;
}

/** What a row without a status says it did: its action's words for a change, a snapshot or a noted action; else "". */
export function changeNote(e: TimelineIndexEntry, change: ChangeKind, features: TimelineFeatures): string {
  if (e.toStatus !== null || (change !== "changed" && change !== "snapshot" && change !== "noted")) return "";
  return ownWords(features, e.action)?.words ?? "";
}

/** True for the kinds "changes only" keeps. */
export function isChange(kind: ChangeKind): boolean {
  return kind === "status" || kind === "retry" || kind === "escalated" || kind === "changed";
}
