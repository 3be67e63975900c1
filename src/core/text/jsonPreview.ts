/**
 * JSON text of untrusted values, bounded: `JSON.stringify` recurses once per
 * level of nesting (and `String(array)` through `join`), so a value nested a
 * few thousand levels deep — a 10 KB line of `[` — throws RangeError from
 * inside a message or a preview. These never throw for a parsed JSON value.
 */

/**
 * The start of `value`'s JSON text, at most `max` characters (then "…"). Each
 * level of nesting writes at least one character before it goes deeper, so
 * the recursion is at most `max` deep whatever the value's depth; a long
 * string or a big array costs only the characters shown.
 */
export function jsonPreview(value: unknown, max: number): string {
  let out = "";
  let full = false;
  const write = (s: string): boolean => {
    if (out.length + s.length > max) {
      out += s.slice(0, Math.max(0, max - out.length));
      full = true;
      return false;
    }
    out += s;
    return true;
  };
  const walk = (v: unknown): boolean => {
    if (full) return false;
    if (typeof v === "string") return write(JSON.stringify(v.length > max ? v.slice(0, max + 1) : v));
    if (v === null || typeof v !== "object") return write(v === undefined ? "null" : (JSON.stringify(v) ?? String(v)));
    if (Array.isArray(v)) {
      if (!write("[")) return false;
      for (let i = 0; i < v.length; i++) if ((i > 0 && !write(",")) || !walk(v[i])) return false;
      return write("]");
    }
    if (!write("{")) return false;
    let first = true;
    for (const key in v) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
      if ((!first && !write(",")) || !write(`${JSON.stringify(key.length > max ? key.slice(0, max + 1) : key)}:`)) {
        return false;
      }
      first = false;
      if (!walk((v as Record<string, unknown>)[key])) return false;
    }
    return write("}");
  };
  walk(value);
  return full ? `${out}…` : out;
}

/** `JSON.stringify(value, null, indent)`, or null when the value is nested too deep for it (RangeError). */
export function stringifyOrNull(value: unknown, indent?: number): string | null {
  try {
    return JSON.stringify(value, null, indent) ?? null;
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}
