/**
 * The strict zod schema of an evidence URI's query (evidenceUris.ts makes and parses the URIs).
 * Loaded on the first parse, never while the extension host starts: zod and its schemas cost the
 * host's activation several milliseconds to build.
 */
import * as z from "zod";
import {
  EVIDENCE_KINDS,
  PATCH_SOURCES,
  type PatchSource,
} from "../../../../core/sources/autodev/evidence/evidenceNames";
import { isSafeSegment } from "../../../../core/sources/autodev/autodevPaths";

const SafeId = z.string().refine(isSafeSegment, { message: "not a safe file name" }); // l10n-ignore: a code, shown through issueText()
const Base = { f: z.string().min(1, "names no workspace folder"), t: SafeId };
/** The query of an evidence URI, validated strictly (unknown keys are refused). */
export const QuerySchema = z.discriminatedUnion("v", [
  z.strictObject({
    v: z.literal("side"),
    ...Base,
    s: z.enum(PATCH_SOURCES as [PatchSource, ...PatchSource[]]),
    i: z.coerce.number().int().min(0).max(100_000),
    side: z.enum(["before", "after"]),
  }),
  z.strictObject({ v: z.literal("bundle"), ...Base, k: z.enum([...EVIDENCE_KINDS, "patch"]) }),
  z.strictObject({ v: z.literal("output"), ...Base, k: z.enum(EVIDENCE_KINDS) }),
  z.strictObject({ v: z.literal("raw"), ...Base, n: SafeId }),
]);
