/**
 * Reviewed marks, source-neutral: a person ticks a piece of a source's evidence (AutoDev: a task's
 * diff) as reviewed in the editor, and the mark records the sha256 of the content as it was then,
 * so content that changed since is unreviewed again. The editor keeps the marks in its workspace
 * state, keyed as the source likes; the run report shows them when the editor passes them in.
 */
import { createHash } from "node:crypto";

/** The sha256 (hex) of a text: what a reviewed mark records. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** One mark: the content hash of what was reviewed, and when (ms since the epoch). */
export interface ReviewMark {
  readonly hash: string;
  readonly at: number;
}

/** The marks of one state folder, by the source's key. */
export type FolderReviewMarks = Readonly<Record<string, ReviewMark>>;

/**
 * One mark as read back from storage, checked as strictly as it is written: exactly `hash` (a
 * sha256 in hex) and `at` (a whole number of ms, not negative); a copy, or null for anything else.
 * A plain check, no schema library: the extension host reads marks while it starts.
 */
export function parseReviewMark(value: unknown): ReviewMark | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { hash, at, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return null;
  if (typeof hash !== "string" || !/^[0-9a-f]{64}$/.test(hash)) return null;
  if (typeof at !== "number" || !Number.isSafeInteger(at) || at < 0) return null;
  return { hash, at };
}
