/**
 * Reviewed marks, source-neutral: a person ticks a piece of a source's evidence (AutoDev: a task's
 * diff) as reviewed in the editor, and the mark records the sha256 of the content as it was then,
 * so content that changed since is unreviewed again. The editor keeps the marks in its workspace
 * state, keyed as the source likes; the run report shows them when the editor passes them in.
 */
import { createHash } from "node:crypto";
import type * as ReviewMarkZod from "./reviewMarkZodSchema";

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

let schema: typeof ReviewMarkZod.ReviewMarkSchema | undefined;
/** The marks' schema (reviewMarkZodSchema.ts), loaded on the first mark checked. */
function reviewMarkSchema(): typeof ReviewMarkZod.ReviewMarkSchema {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (schema ??= (require("./reviewMarkZodSchema") as typeof ReviewMarkZod).ReviewMarkSchema);
}

/** One mark as read back from storage (checked by its zod/mini schema): a copy, or null. */
export function parseReviewMark(value: unknown): ReviewMark | null {
  const mark = reviewMarkSchema().safeParse(value);
  return mark.success ? mark.data : null;
}
