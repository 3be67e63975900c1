/**
 * Converts plain JS data (as written in code) to the PyValue model: objects
 * become ordered Maps (undefined properties dropped), non-integral numbers
 * become PyFloat.
 */
import { PyFloat, PyObject, PyValue } from "./pyValue";

/** Plain JS value → PyValue (objects keep their property order). */
export function toPyDeep(v: unknown): PyValue {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "boolean" || typeof v === "bigint") return v;
  if (typeof v === "number") return Number.isInteger(v) ? v : new PyFloat(v);
  if (v instanceof PyFloat || v instanceof Map) return v as PyValue;
  if (Array.isArray(v)) return v.map(toPyDeep);
  const out: PyObject = new Map();
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) if (val !== undefined) out.set(k, toPyDeep(val));
  return out;
}
