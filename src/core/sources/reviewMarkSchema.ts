/**
 * Reviewed marks, source-neutral: a person ticks a piece of a source's evidence (AutoDev: a task's
 * diff) as reviewed in the editor, and the mark records the sha256 of the content as it was then,
 * so content that changed since is unreviewed again. The editor keeps the marks in its workspace
 * state, keyed as the source likes; the run report shows them when the editor passes them in.
 */
import { createHash } from "node:crypto";
import * as z from "zod/mini";

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
 * Schema of one mark as read back from storage, as strict as it is written: exactly `hash` (a
 * sha256 in hex) and `at` (a whole number of ms, not negative). zod's small build (`zod/mini`):
 * the extension host reads marks while it starts, before it needs zod's full API.
 */
export const ReviewMarkSchema = z.strictObject({
  hash: z.string().check(z.regex(/^[0-9a-f]{64}$/, "a sha256 in hex")),
  at: z.int().check(z.minimum(0)),
});

/** One mark as read back from storage (checked by {@link ReviewMarkSchema}): a copy, or null. */
export function parseReviewMark(value: unknown): ReviewMark | null {
  const mark = ReviewMarkSchema.safeParse(value);
  return mark.success ? mark.data : null;
}
