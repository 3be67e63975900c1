/**
 * The loose zod schemas of a tournament's pass entries (tournamentPasses.ts describes them): every
 * field optional, a field of the wrong type is dropped, unknown keys kept. Loaded on first use:
 * the extension host loads tournamentPasses.ts for the tree's words, and zod costs its start.
 */
import * as z from "zod";

/** The entries of an object whose values are finite numbers (none for anything else). */
export const numericEntries = (o: unknown): Array<[string, number]> =>
  o && typeof o === "object" && !Array.isArray(o)
    ? Object.entries(o).filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]))
    : [];

const ScoresSchema = z.record(z.string(), z.unknown()).transform(numericEntries);
/** One judge of a pass. */
export const JudgeSchema = z.looseObject({
  judge: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  id: z.string().optional().catch(undefined),
  scores: ScoresSchema.optional().catch(undefined),
});
/** One pass entry. */
export const PassSchema = z.looseObject({
  pass_num: z.number().int().optional().catch(undefined),
  pass: z.number().int().optional().catch(undefined),
  round: z.number().int().optional().catch(undefined),
  pass_number: z.number().int().optional().catch(undefined),
  winner: z.string().optional().catch(undefined),
  converged: z.boolean().optional().catch(undefined),
  scores: ScoresSchema.optional().catch(undefined),
  judges: z
    .union([z.array(z.unknown()), z.record(z.string(), z.unknown())])
    .optional()
    .catch(undefined),
  notes: z
    .union([z.array(z.unknown()), z.string()])
    .optional()
    .catch(undefined),
});
