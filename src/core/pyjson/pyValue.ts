/**
 * The value model for JSON as Python's `json` module holds it.
 *
 * JavaScript's own JSON loses what Python keeps: integers beyond 2^53, the
 * difference between `2` and `2.0`, NaN/Infinity, the written order of integer-like
 * object keys, lone surrogates. Everything in `src/core` that must hash or
 * re-serialize bytes exactly works on this model instead.
 *
 * - `null`, `boolean`, `string` (UTF-16, lone surrogates allowed)
 * - Python `int`: a JS `number` when it is a safe integer, else a `bigint`
 *   (never a `number` outside the safe range). `-0` as an int is `0`.
 * - Python `float`: a {@link PyFloat} wrapper, so `2.0` stays a float.
 * - `list`: a JS array of PyValue
 * - `dict`: a {@link PyObject}, a `Map` in insertion order (string keys only)
 */
export type PyValue = null | boolean | string | number | bigint | PyFloat | PyValue[] | PyObject;

/** A Python dict: string keys in insertion order. */
export type PyObject = Map<string, PyValue>;

/** A Python float (IEEE double), kept distinct from ints. */
export class PyFloat {
  constructor(public readonly value: number) {}
}

/** True when `v` is a Python dict. */
export function isPyObject(v: unknown): v is PyObject {
  return v instanceof Map;
}

/** Builds a PyObject from ordered [key, value] pairs. */
export function pyObject(entries: Iterable<readonly [string, PyValue]> = []): PyObject {
  return new Map(entries as Iterable<[string, PyValue]>);
}

/** Normalizes a bigint to the canonical int representation (number when safe). */
export function pyInt(v: bigint | number): number | bigint {
  if (typeof v === "number") {
    if (!Number.isSafeInteger(v)) throw new RangeError(`not a safe integer: ${v}`);
    return v === 0 ? 0 : v;
  }
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}
