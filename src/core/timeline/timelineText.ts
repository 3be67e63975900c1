/**
 * The timeline's free-text find: it matches what a row shows, not only the
 * identifiers behind it — a status as its source's label reads it ("in
 * progress") as well as its name (`in_progress`), "retry 2", "escalated", the
 * words of a row without a status ("plan created"), a row's summary — besides
 * the row id, action, task id and title, actor and hash prefix. The words come
 * from the source's {@link TimelineWords} in the user's language, the same the
 * webview shows.
 */
import type { ChangeKind, TimelineIndexEntry } from "./timelineTypes";
import type { TimelineFeatures } from "./timelineFeatureTypes";
import { changeNote } from "./timelineChange";
import { retryMarks } from "./timelineWords";

/** A compiled free-text search: case-insensitive substring, `#12`/`12` also matches row 12, a hex prefix the hash. */
export interface TextMatcher {
  readonly re: RegExp | null;
  readonly id: number | null;
  readonly lower: string;
}

/** Compiles the free text of a filter (empty text matches everything). */
export function textMatcher(text: string): TextMatcher {
  const lower = text.trim().toLowerCase();
  if (!lower) return { re: null, id: null, lower };
  const id = /^#?\d+$/.test(lower) ? Number(lower.replace("#", "")) : null;
  return { re: new RegExp(lower.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"), id, lower };
}

/** The label a row shows for a status: the source's label, else the status as written. */
function statusWord(features: TimelineFeatures, status: string): string {
  const table = features.words.statuses;
  return Object.prototype.hasOwnProperty.call(table, status) ? table[status].label : status;
}

/**
 * Does one of the words a row shows besides its identifiers match — a status label, a retry or
 * escalation mark, the words of a row without a status? `change` is the row's {@link ChangeKind}.
 */
export function matchesDisplayedWords(
  e: TimelineIndexEntry,
  change: ChangeKind,
  re: RegExp,
  features: TimelineFeatures,
): boolean {
  if (e.toStatus !== null && re.test(statusWord(features, e.toStatus))) return true;
  if (e.fromStatus !== null && e.fromStatus !== e.toStatus && re.test(statusWord(features, e.fromStatus))) return true;
  if (retryMarks(e.retryCount, e.escalated).some((m) => re.test(m))) return true;
  const note = changeNote(e, change, features);
  return note !== "" && re.test(note);
}

/** Does the row's text (as identifiers and as its row reads) contain the find text? */
export function matchesText(
  e: TimelineIndexEntry,
  change: ChangeKind,
  text: TextMatcher,
  titleOf: (taskId: string) => string | null,
  features: TimelineFeatures,
): boolean {
  const re = text.re;
  if (re === null || e.id === text.id) return true;
  if (
    re.test(e.action) ||
    re.test(e.actor) ||
    (e.hash !== undefined && e.hash !== "" && e.hash.startsWith(text.lower))
  ) {
    return true;
  }
  if (e.toStatus !== null && re.test(e.toStatus)) return true;
  if (e.fromStatus !== null && re.test(e.fromStatus)) return true;
  if (e.summary !== undefined && re.test(e.summary)) return true;
  if (matchesDisplayedWords(e, change, re, features)) return true;
  if (e.taskId === null) return false;
  if (re.test(e.taskId)) return true;
  const title = titleOf(e.taskId);
  return title !== null && re.test(title);
}
