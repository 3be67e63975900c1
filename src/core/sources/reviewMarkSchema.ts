/**
 * Reviewed marks, source-neutral: a person ticks a piece of a source's evidence (AutoDev: a task's
 * diff) as reviewed in the editor, and the mark records the sha256 of the content as it was then,
 * so content that changed since is unreviewed again. The editor keeps the marks in its workspace
 * state, keyed as the source likes; the run report shows them when the editor passes them in.
 */
import { createHash } from "node:crypto";
import * as z from "zod";

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

/** Schema of one mark. */
export const ReviewMarkSchema = z.strictObject({
  hash: z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in hex"),
  at: z.number().int().min(0),
});

/** Schema of a folder's marks (at most 10,000; keys up to 400 characters). */
export const FolderReviewMarksSchema = z
  .record(z.string().min(1).max(400), ReviewMarkSchema)
  .refine((m) => Object.keys(m).length <= 10_000, "at most 10,000 marks");
