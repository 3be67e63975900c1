/**
 * The timeline's free-text find: it matches what a row shows, not only the
 * identifiers behind it — a status as its label reads ("in progress",
 * "auto-gated") as well as its name (`in_progress`), "retry 2", "escalated",
 * the note of an entry without a status ("plan created", "evidence recorded"),
 * a source row's summary — besides the row id, op, task id and title, session
 * and hash prefix. The words are the English ones webview/rowView.ts shows.
 */
import type { ChangeKind, TimelineIndexEntry } from "./timelineTypes";
import { taskStatusWord } from "../sources/taskStatusIcons";

/** A compiled free-text search: case-insensitive substring, `#12`/`12` also matches seq 12, a hex prefix the hash. */
export interface TextMatcher {
  readonly re: RegExp | null;
  readonly seq: number | null;
  readonly lower: string;
}

/** Compiles the free text of a filter (empty text matches everything). */
export function textMatcher(text: string): TextMatcher {
  const lower = text.trim().toLowerCase();
  if (!lower) return { re: null, seq: null, lower };
  const seq = /^#?\d+$/.test(lower) ? Number(lower.replace("#", "")) : null;
  return { re: new RegExp(lower.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i"), seq, lower };
}

/** What a row without a status says it did (webview/rowView.ts `changeNote`), or "". */
function changeNote(e: TimelineIndexEntry, change: ChangeKind): string {
  if (change === "plan") return e.op === "init_plan" ? "plan created" : "plan replaced";
  if (change === "snapshot") return "snapshot";
  if (change === "evidence") return "evidence recorded";
  return change === "audit" ? "tournament result" : "";
}

/**
 * Does one of the words a row shows besides its identifiers match — a status label, a retry or
 * escalation mark, the note of an entry without a status? `change` is the entry's {@link ChangeKind}.
 */
export function matchesDisplayedWords(e: TimelineIndexEntry, change: ChangeKind, re: RegExp): boolean {
  if (e.toStatus !== null && re.test(taskStatusWord(e.toStatus))) return true;
  if (e.fromStatus !== null && e.fromStatus !== e.toStatus && re.test(taskStatusWord(e.fromStatus))) return true;
  if (e.retryCount !== null && re.test(`retry ${e.retryCount}`)) return true;
  if (e.escalated && re.test("escalated")) return true;
  const note = e.toStatus === null ? changeNote(e, change) : "";
  return note !== "" && re.test(note);
}

/** Does the entry's text (as identifiers and as its row reads) contain the find text? */
export function matchesText(
  e: TimelineIndexEntry,
  change: ChangeKind,
  text: TextMatcher,
  titleOf: (taskId: string) => string | null,
): boolean {
  const re = text.re;
  if (re === null || e.seq === text.seq) return true;
  if (re.test(e.op) || re.test(e.sessionId) || (e.selfHash !== "" && e.selfHash.startsWith(text.lower))) return true;
  if (e.toStatus !== null && re.test(e.toStatus)) return true;
  if (e.fromStatus !== null && re.test(e.fromStatus)) return true;
  if (e.summary !== undefined && re.test(e.summary)) return true;
  if (matchesDisplayedWords(e, change, re)) return true;
  if (e.taskId === null) return false;
  if (re.test(e.taskId)) return true;
  const title = titleOf(e.taskId);
  return title !== null && re.test(title);
}
