/**
 * The fast path of ledger verification: one pass over a line's bytes that
 * proves the line is already in Python's canonical form — exactly what
 * `json.dumps(LedgerEntry.model_dump(mode="json"), sort_keys=True)` writes —
 * so its hash input is the raw line minus its `"self_hash": "…", ` member,
 * hashed without building any object.
 *
 * "Canonical" is checked conservatively; anything unusual returns null and the
 * scanner takes the full path (decode, strip, parse, validate, dump, hash),
 * which is always right. A line is accepted only when all of this holds:
 *
 * - printable ASCII only (`ensure_ascii` output), no surrounding whitespace;
 * - the top level is exactly `{"op": …, "payload": {…}, "prev_hash": "…",
 *   "self_hash": "…", "seq": <int>, "session_id": "…", "timestamp": "…"}` —
 *   every field present, in sorted order, with its exact type (no value
 *   pydantic would coerce, no missing `payload` that would default to `{}`);
 * - separators exactly `", "` and `": "`; keys strictly increasing by code
 *   point at every level (sorted, no duplicates);
 * - strings escaped as `encode_basestring_ascii` does: `\"`, `\\`, `\n`, `\r`,
 *   `\t`, `\b`, `\f`, and lowercase `\u00XX` only for what has no other form;
 *   no lone surrogate (pydantic's JSON-mode dump treats those specially);
 * - ints without leading zeros or `-0`, at most 4300 digits; floats whose text
 *   is Python's `repr` of their value; no NaN/Infinity (the JSON-mode dump
 *   turns those into `null`, so such a line re-serializes differently).
 *
 * For plan-carrying ops it can also prove, in the same pass, that
 * `payload.plan` is a valid Plan in its exact dumped form (every field present
 * with its exact type, as pydantic's `model_dump` writes it), and return just
 * the task ids and statuses — what strict replay needs — instead of the plan.
 */
import { Plan } from "../plan/schemas";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { latin1 } from "./canonicalScanner";
import { FAST_PATHS_MATCH_SCHEMAS, exactPlanFromCanonical, exactPlanModel } from "./canonicalPlanModel";
import { FastLine, provenCanonicalLine } from "./canonicalLedgerLine";

export type { PlanSkeleton } from "./canonicalPlanLayout";
export type { FastLine } from "./canonicalLedgerLine";
export { fastLineOf } from "./canonicalLedgerLine";
export { FAST_PATHS_MATCH_SCHEMAS, exactPlanFromCanonical, exactPlanModel } from "./canonicalPlanModel";
export { pinProvenPlan } from "./canonicalPlanProof";

/**
 * Returns the line's facts when it is provably canonical, else null.
 * `wantPlan`: also prove `payload.plan` of plan ops a valid Plan and return its skeleton.
 */
export function fastCanonicalLine(bytes: Buffer, wantPlan = false): FastLine | null {
  return FAST_PATHS_MATCH_SCHEMAS ? provenCanonicalLine(bytes, wantPlan) : null;
}

/**
 * The plan carried by one ledger line, as `validatePlan(payload.plan)` would
 * return it, when the line is canonical and its plan exact; null otherwise
 * (then parse and validate as usual). For a first paint from the tail
 * snapshot without the general parser and validator.
 */
export function planOfCanonicalLine(bytes: Buffer): Plan | null {
  const f = fastCanonicalLine(bytes, true);
  return f === null ? null : planOfFastLine(bytes, f);
}

/** The plan of a line already scanned with `fastCanonicalLine(bytes, true)`, or null when it carries no proven plan. */
export function planOfFastLine(bytes: Buffer, f: FastLine): Plan | null {
  if (f.skeleton === null) return null;
  const text = latin1(bytes, f.planStart, f.planEnd);
  return exactPlanFromCanonical(text, f.skeleton) ?? exactPlanModel(parsePyJson(text), true);
}
