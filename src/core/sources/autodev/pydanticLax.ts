/**
 * zod types that accept exactly what pydantic 2's default (lax) mode accepts
 * from JSON for `int`, `float` and `bool` (a config with `"qa_retry_limit":
 * "3"` or `"enabled": "yes"` is valid for Python, so it must be valid here),
 * and the bridge from a zod error to pydantic-style `{path, message}` rows
 * (an unknown key is reported at its own path, as `extra="forbid"` does).
 * Checked differentially against pydantic in test/unit/autodev/autodevConfig.test.ts.
 */
import * as z from "zod";
import type { JsonPath } from "../../text/jsonOffsets";
import { formatJsonPath } from "./jsonLocate";

const BOOL_STRINGS: Readonly<Record<string, boolean>> = {
  "0": false,
  off: false,
  f: false,
  false: false,
  n: false,
  no: false,
  "1": true,
  on: true,
  t: true,
  true: true,
  y: true,
  yes: true,
};

function intFromString(s: string): number | null {
  const t = s.trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) return null;
  return Number(t.replace(/_/g, ""));
}

function floatFromString(s: string): number | null {
  const t = s.trim().toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/.test(t)) return NaN;
  if (!/^[+-]?(\d+(_\d+)*(\.(\d+(_\d+)*)?)?|\.\d+(_\d+)*)([e][+-]?\d+)?$/.test(t)) return null;
  return Number(t.replace(/_/g, ""));
}

/** pydantic `int`: an integer, a float without fraction, a bool, or a string of digits. */
export const pyLaxInt = z.unknown().transform((v, ctx): number => {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") {
    if (Number.isInteger(v)) return v;
    ctx.addIssue({
      code: "custom",
      message: Number.isFinite(v)
        ? "Input should be a valid integer, got a number with a fractional part"
        : "Input should be a finite number",
    });
    return z.NEVER;
  }
  if (typeof v === "string") {
    const n = intFromString(v);
    if (n !== null) return n;
    ctx.addIssue({ code: "custom", message: "Input should be a valid integer, unable to parse string as an integer" });
    return z.NEVER;
  }
  ctx.addIssue({ code: "custom", message: "Input should be a valid integer" });
  return z.NEVER;
});

/** pydantic `float`: a number, a bool, or a numeric string (inf and nan included). */
export const pyLaxFloat = z.unknown().transform((v, ctx): number => {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number") return v;
  if (typeof v === "string") {
    const n = floatFromString(v);
    if (n !== null) return n;
    ctx.addIssue({ code: "custom", message: "Input should be a valid number, unable to parse string as a number" });
    return z.NEVER;
  }
  ctx.addIssue({ code: "custom", message: "Input should be a valid number" });
  return z.NEVER;
});

/** pydantic `bool`: true/false, 0/1, or one of the strings pydantic knows ("yes", "off", …). */
export const pyLaxBool = z.unknown().transform((v, ctx): boolean => {
  if (typeof v === "boolean") return v;
  if (v === 0 || v === 1) return v === 1;
  if (typeof v === "string") {
    const b = BOOL_STRINGS[v.toLowerCase()];
    if (b !== undefined) return b;
  }
  ctx.addIssue({ code: "custom", message: "Input should be a valid boolean, unable to interpret input" });
  return z.NEVER;
});

/** pydantic `str` (no coercion from numbers). */
export const pyStr = z.string({ error: "Input should be a valid string" });

/** pydantic `X | None`. */
export function pyOptional<T extends z.ZodType>(t: T) {
  return z.union([z.null(), t]);
}

/** A validation error the pydantic way: where (a path) and what. */
export interface PathError {
  readonly path: JsonPath;
  readonly message: string;
}

/** True when `raw` has a value at `p` (an own key or an index in range). */
function hasPath(raw: unknown, p: readonly (string | number)[]): boolean {
  let v: unknown = raw;
  for (const k of p) {
    if (Array.isArray(v) && typeof k === "number" && k >= 0 && k < v.length) v = v[k];
    else if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.prototype.hasOwnProperty.call(v, k)) {
      v = (v as Record<string, unknown>)[String(k)];
    } else return false;
  }
  return true;
}

/**
 * Flattens a zod error into rows: one per unknown key (at the key), one per other issue. With the
 * validated `raw` value, a wrong type is told apart from a missing key ("Field required") as
 * pydantic does (zod's issues do not carry the input).
 */
export function zodToPathErrors(err: z.ZodError, raw?: unknown): PathError[] {
  const out: PathError[] = [];
  for (const issue of err.issues) {
    const base = issue.path.map((k) => (typeof k === "symbol" ? String(k) : k));
    const missing = raw === undefined ? issue.input === undefined : !hasPath(raw, base);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...base, key], message: "Extra inputs are not permitted" });
    } else if (issue.code === "invalid_union") {
      out.push({ path: base, message: missing ? "Field required" : firstUnionMessage(issue) });
    } else if (issue.code === "invalid_type" && missing) {
      out.push({ path: base, message: "Field required" });
    } else out.push({ path: base, message: issue.message });
  }
  return out;
}

function firstUnionMessage(issue: z.core.$ZodIssueInvalidUnion): string {
  const msgs = issue.errors
    .flat()
    .map((i) => i.message)
    .filter((m) => !/expected null/i.test(m));
  return msgs[0] ?? issue.message;
}

/** "tournaments.plan.num_judges: Field required" */
export function formatPathError(e: PathError): string {
  return `${formatJsonPath(e.path)}: ${e.message}`;
}
