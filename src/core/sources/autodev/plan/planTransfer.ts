/**
 * Plans cross from the worker thread to the extension host as objects (by
 * structured clone), not as Python-JSON text the host would parse and
 * validate again. Structured clone keeps Maps, bigints and arrays but drops
 * class prototypes, so the one class in a plan, {@link PyFloat}, arrives as
 * `{ value: number }`; {@link revivePlanClone} restores it.
 */
import { PyFloat } from "../../../pyjson/pyValue";
import type { Plan } from "./schemas";

function revive(v: unknown): unknown {
  if (v === null || typeof v !== "object" || v instanceof PyFloat) return v;
  if (v instanceof Map) {
    for (const [k, x] of v) v.set(k, revive(x));
    return v;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = revive(v[i]);
    return v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === "value" && typeof o.value === "number") return new PyFloat(o.value);
  for (const k of keys) o[k] = revive(o[k]);
  return o;
}

/** Any structured clone of values holding PyFloats (a plan, a task's evidence), restored in place. */
export function reviveClone<T>(cloned: T): T {
  return revive(cloned) as T;
}

/** The plan a structured clone of a {@link Plan} carried (PyFloats restored in place), or null. */
export function revivePlanClone(cloned: Plan | null): Plan | null {
  return cloned === null ? null : (revive(cloned) as Plan);
}
