/**
 * The zod/mini schema of one reviewed mark as read back from storage (reviewMarkSchema.ts loads
 * this module on the first mark it checks: the extension host does not load zod while it starts).
 */
import * as z from "zod/mini";

/**
 * One mark, as strict as it is written: exactly `hash` (a sha256 in hex) and `at` (a whole number
 * of ms, not negative).
 */
export const ReviewMarkSchema = z.strictObject({
  hash: z.string().check(z.regex(/^[0-9a-f]{64}$/, "a sha256 in hex")),
  at: z.int().check(z.minimum(0)),
});
