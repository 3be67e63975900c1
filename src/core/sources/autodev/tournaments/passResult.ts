/**
 * A tournament pass as Python's `tournament/core.py` `PassResult` writes it
 * (`history.json` entries and `pass_NN/result.json`): pass number, winner,
 * Borda scores, valid judges, elapsed seconds, each judge's details
 * (ranking, display order, raw response or error) and the incumbent hashes.
 * pydantic's default model: extra keys ignored, lax numbers.
 */
import * as z from "zod";
import { pyLaxFloat, pyLaxInt, pyStr } from "../pydanticLax";

/** The three candidates of a pass. */
const WINNER_LABELS = ["A", "B", "AB"] as const;
/** A pass winner. */
export type WinnerLabel = (typeof WINNER_LABELS)[number];

const JudgeDetailSchema = z.record(z.string(), z.unknown());

/** `PassResult`. */
const PassResultSchema = z.object({
  pass_num: pyLaxInt,
  winner: z.enum(WINNER_LABELS, { error: "Input should be 'A', 'B' or 'AB'" }),
  scores: z.record(z.string(), pyLaxInt),
  valid_judges: pyLaxInt,
  elapsed_s: pyLaxFloat,
  judge_details: z.array(JudgeDetailSchema).default(() => []),
  incumbent_hash_before: pyStr,
  incumbent_hash_after: pyStr,
  meta: z.record(z.string(), z.unknown()).default(() => ({})),
});

/** One judge's verdict, as far as it was recorded. */
interface JudgeVerdict {
  /** Canonical labels best first, or null when the judge gave no usable ranking. */
  readonly ranking: readonly string[] | null;
  /** Display position → label shown to this judge. */
  readonly order: Readonly<Record<string, string>> | null;
  readonly rawResponse: string | null;
  readonly error: string | null;
  /** Set for a judge plugin. */
  readonly plugin: string | null;
}

/** A pass, read. */
export interface PassRecord {
  readonly pass: number;
  readonly winner: WinnerLabel;
  readonly scores: Readonly<Record<string, number>>;
  readonly validJudges: number;
  readonly elapsedS: number;
  readonly judges: readonly JudgeVerdict[];
  readonly hashBefore: string;
  readonly hashAfter: string;
  /** `meta.timestamp` (seconds since the epoch) when recorded. */
  readonly timestamp: number | null;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** A judge detail dict as a verdict. */
function judgeVerdict(d: Record<string, unknown>): JudgeVerdict {
  const ranking =
    Array.isArray(d.ranking) && d.ranking.every((x) => typeof x === "string") ? (d.ranking as string[]) : null;
  const order =
    d.order && typeof d.order === "object" && !Array.isArray(d.order)
      ? Object.fromEntries(
          Object.entries(d.order as Record<string, unknown>).filter(
            (e): e is [string, string] => typeof e[1] === "string",
          ),
        )
      : null;
  return { ranking, order, rawResponse: str(d.raw_response), error: str(d.error), plugin: str(d.plugin) };
}

/** Validates one pass entry; an error string when it is not a `PassResult`. */
export function toPassRecord(raw: unknown): { ok: true; pass: PassRecord } | { ok: false; error: string } {
  const r = PassResultSchema.safeParse(raw);
  if (!r.success) {
    const first = r.error.issues[0];
    return { ok: false, error: `not a PassResult: ${first.path.map(String).join(".") || "(root)"}: ${first.message}` };
  }
  const d = r.data;
  const ts = d.meta.timestamp;
  // zod builds the record with assignments, so a key "__proto__" is lost there; keep every key of the file.
  const given = (raw as { scores: Record<string, unknown> }).scores;
  const scores: Record<string, number> = {};
  for (const key of Object.keys(given)) {
    const v = Object.prototype.hasOwnProperty.call(d.scores, key) ? d.scores[key] : pyLaxInt.safeParse(given[key]).data;
    // defineProperty: an own key even for "__proto__" (an assignment would set the prototype instead).
    if (typeof v === "number") {
      Object.defineProperty(scores, key, { value: v, enumerable: true, writable: true, configurable: true });
    }
  }
  return {
    ok: true,
    pass: {
      pass: d.pass_num,
      winner: d.winner,
      scores,
      validJudges: d.valid_judges,
      elapsedS: d.elapsed_s,
      judges: d.judge_details.map(judgeVerdict),
      hashBefore: d.incumbent_hash_before,
      hashAfter: d.incumbent_hash_after,
      timestamp: typeof ts === "number" && Number.isFinite(ts) ? ts : null,
    },
  };
}

/** Python's convergence rule: the last `k` passes all kept the incumbent (A won). */
export function convergedAfter(passes: readonly PassRecord[], k: number): boolean {
  if (passes.length === 0 || k <= 0) return passes.length > 0;
  let streak = 0;
  for (const p of passes) streak = p.winner === "A" ? streak + 1 : 0;
  return streak >= k;
}

/** "A 9 · B 6 · AB 3" */
export function scoreLine(scores: Readonly<Record<string, number>>): string {
  return Object.entries(scores)
    .map(([k, v]) => `${k} ${v}`)
    .join(" · ");
}
