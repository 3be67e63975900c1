/**
 * Reviewed marks on evidence diffs, as plain data: the editor lets a person tick a task's patch,
 * developer diff or tournament final diff as reviewed (as the GitHub Pull Requests extension's
 * "viewed" boxes). A mark records the sha256 of the diff's text as it was when ticked, so a diff
 * that changed since is unreviewed again — and reviewed again if it comes back byte for byte.
 * The editor keeps the marks in its workspace state; the run report shows them when the editor
 * hands them over (the CLI has no workspace state). Checked strictly wherever they are read.
 */
import { PATCH_SOURCES, type PatchSource } from "./evidenceNames";
import { contentHash, parseReviewMark, type FolderReviewMarks, type ReviewMark } from "../../reviewMarkSchema";

/** The sha256 (hex) of a diff's text: what a reviewed mark records. */
export function diffContentHash(text: string): string {
  return contentHash(text);
}

/** Most marks kept per folder (the oldest go first). */
export const MAX_REVIEW_MARKS = 5000;

/** The key of a task's diff of one source: `task id`, a NUL, the source. */
export function reviewKey(taskId: string, source: PatchSource): string {
  return `${taskId}\u0000${source}`;
}

/** The task id and source a key names, or null for a key that is not one. */
export function parseReviewKey(key: string): { taskId: string; source: PatchSource } | null {
  const cut = key.lastIndexOf("\u0000");
  if (cut <= 0) return null;
  const source = key.slice(cut + 1) as PatchSource;
  return PATCH_SOURCES.includes(source) ? { taskId: key.slice(0, cut), source } : null;
}

/**
 * The marks read back from storage: the valid ones (a mark with a bad key or shape is dropped,
 * never trusted); `dropped` counts the rest.
 */
export function parseFolderMarks(raw: unknown): { marks: FolderReviewMarks; dropped: number } {
  if (raw === undefined || raw === null) return { marks: {}, dropped: 0 };
  if (typeof raw !== "object" || Array.isArray(raw)) return { marks: {}, dropped: 1 };
  const marks: Record<string, ReviewMark> = Object.create(null) as Record<string, ReviewMark>;
  let dropped = 0;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const mark = parseReviewMark(value);
    if (mark !== null && key.length <= 400 && parseReviewKey(key) !== null) marks[key] = mark;
    else dropped++;
  }
  return { marks, dropped };
}

/** True when the diff of `source` of `taskId` whose text hashes to `hash` is marked reviewed. */
export function isReviewed(marks: FolderReviewMarks, taskId: string, source: PatchSource, hash: string): boolean {
  return marks[reviewKey(taskId, source)]?.hash === hash;
}

/**
 * Where the diff of `source` of `taskId` whose text hashes to `hash` stands: "reviewed" (marked as
 * it is now), "changed" (marked, but its text changed since: the mark no longer holds and the
 * editor says so) or "unreviewed" (never marked, or the mark was cleared).
 */
export function markState(
  marks: FolderReviewMarks,
  taskId: string,
  source: PatchSource,
  hash: string,
): "reviewed" | "changed" | "unreviewed" {
  const mark = marks[reviewKey(taskId, source)];
  return mark === undefined ? "unreviewed" : mark.hash === hash ? "reviewed" : "changed";
}

/**
 * The marks with one mark set (`hash`) or cleared (null); at most {@link MAX_REVIEW_MARKS} kept,
 * the oldest dropped first. Never changes `marks` itself.
 */
export function withMark(
  marks: FolderReviewMarks,
  taskId: string,
  source: PatchSource,
  hash: string | null,
  now: number,
): FolderReviewMarks {
  const key = reviewKey(taskId, source);
  const next: Record<string, ReviewMark> = Object.assign(Object.create(null) as object, marks);
  delete next[key];
  if (hash === null) return next;
  const keys = Object.keys(next);
  if (keys.length >= MAX_REVIEW_MARKS) {
    keys.sort((a, b) => next[a].at - next[b].at);
    for (const k of keys.slice(0, keys.length - MAX_REVIEW_MARKS + 1)) delete next[k];
  }
  next[key] = { hash, at: now };
  return next;
}

/** A task's diffs as the count needs them. */
export interface ReviewableDiff {
  readonly source: PatchSource;
  readonly hash: string;
}

/** How many of a task's diffs are marked reviewed, how many changed since their mark, of how many. */
export function reviewCount(
  marks: FolderReviewMarks,
  taskId: string,
  diffs: readonly ReviewableDiff[],
): { reviewed: number; changed: number; total: number } {
  let reviewed = 0;
  let changed = 0;
  for (const d of diffs) {
    const state = markState(marks, taskId, d.source, d.hash);
    if (state === "reviewed") reviewed++;
    else if (state === "changed") changed++;
  }
  return { reviewed, changed, total: diffs.length };
}
