/**
 * zod building blocks that validate {@link PyValue} inputs exactly as pydantic v2
 * does in lax (python) mode on values from `json.loads`, with `extra="forbid"` models.
 *
 * Every schema takes `PyValue | undefined` (undefined = the key is absent) and
 * reports pydantic's error type in `issue.params.type` (and the offending input in
 * `issue.params.input`). The scalar rules follow pydantic-core 2.46 / jiter, and are
 * checked against real pydantic 2.13 by `test/unit/pyjson/schemasDifferential.test.ts`.
 */
import * as z from "zod";
import { PyFloat, PyObject, PyValue, isPyObject } from "./pyValue";
import { pyFloatRepr } from "./pyFloatRepr";
import {
  LONE_SURROGATE,
  Outcome,
  UNICODE_MSG,
  boolRule,
  fail,
  floatRule,
  intRule,
  ok,
  textRule,
} from "./pyScalarRules";

/** What a building block accepts: a PyValue, or `undefined` for a missing key. */
export type PyInput = PyValue | undefined;
/** A zod schema over PyValue inputs with output `T`. */
export type PySchema<T> = z.ZodType<T, PyInput>;
/** A path into the input, as pydantic's `loc`. */
type PyLoc = (string | number)[];

/** One validation error in pydantic's terms. */
interface PyIssue {
  readonly loc: PyLoc;
  /** pydantic's error type, e.g. `int_parsing`, `extra_forbidden`. */
  readonly type: string;
  readonly msg: string;
  /** The offending input (absent for `missing`). */
  readonly input: PyInput;
}

type IssueSink = { addIssue(issue: z.core.$ZodRawIssue): void };

function report(ctx: IssueSink, path: PyLoc, type: string, msg: string, input: PyInput): void {
  ctx.addIssue({ code: "custom", message: msg, path, params: { type, input }, input });
}

/** A block: `undefined` (absent key) is `missing`; any other input goes to `run`. */
function block<T>(run: (v: PyValue, ctx: IssueSink) => T): PySchema<T> {
  return z.custom<PyInput>().transform((v, ctx): T => {
    if (v !== undefined) return run(v, ctx);
    report(ctx, [], "missing", "Field required", undefined);
    return z.NEVER;
  });
}

/** A scalar block: the input goes through `rule`, whose failure is reported at this loc. */
function scalar<T>(rule: (v: PyValue) => Outcome<T>): PySchema<T> {
  return block((v, ctx): T => {
    const r = rule(v);
    if (r.ok) return r.value;
    report(ctx, [], r.type, r.msg, v);
    return z.NEVER;
  });
}

/** Runs `schema` on `value`, re-reporting its issues below `key`. */
function child<T>(ctx: IssueSink, schema: PySchema<T>, value: PyInput, key: string | number): Outcome<T> {
  const r = schema.safeParse(value);
  if (r.success) return ok(r.data);
  for (const iss of r.error.issues) {
    const params = (iss as { params?: { type?: string; input?: PyInput } }).params ?? {};
    ctx.addIssue({ ...iss, code: "custom", path: [key, ...(iss.path as PyLoc)], params, input: params.input });
  }
  return fail("", "");
}

// ---------------------------------------------------------------- building blocks

/** `str`: only strings (pydantic does not coerce numbers, bools or None to str). */
export const pyStr: PySchema<string> = scalar((v) =>
  typeof v === "string" ? ok(v) : fail("string_type", "Input should be a valid string"),
);
/** `int`: ints, bools, integral finite floats in (-2^63, 2^63), and int-like strings. */
export const pyInt: PySchema<number | bigint> = scalar(textRule(intRule));
/** `float`: floats (NaN/inf kept), bools, ints that fit a double, Rust-syntax float strings. */
export const pyFloat: PySchema<number> = scalar(textRule(floatRule));
/** `bool`: bools, 0/1 (also as integral floats), and the strings 0/1/t/f/y/n/on/off/yes/no/true/false. */
export const pyBool: PySchema<boolean> = scalar(textRule(boolRule));
/** `dict[str, Any]`: any dict; the result is a fresh Map with the same entries in the same order. */
export const pyDict: PySchema<PyObject> = scalar((v) =>
  isPyObject(v) ? ok(new Map(v)) : fail("dict_type", "Input should be a valid dictionary"),
);

/** Python's repr of a string, for messages. */
function strRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const named: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  const body = s.replace(
    // eslint-disable-next-line no-control-regex -- escaping control characters is the point
    /[\\\x00-\x1f\x7f]/g,
    (c) => named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/** `Literal[...]` of strings: exact, case-sensitive string match only. */
export function pyLiteral<const T extends readonly string[]>(values: T): PySchema<T[number]> {
  const set = new Set<string>(values);
  const shown = values.map(strRepr);
  const expected = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} or ${shown[shown.length - 1]}` : shown.join("");
  const error = fail("literal_error", `Input should be ${expected}`);
  return scalar(textRule((v) => (typeof v === "string" && set.has(v) ? ok(v as T[number]) : error)));
}

/** `X | None`: None passes through, anything else is validated by `inner` (same loc). */
export function pyNullable<T>(inner: PySchema<T>): PySchema<T | null> {
  return block((v, ctx): T | null => {
    if (v === null) return null;
    const r = inner.safeParse(v);
    if (r.success) return r.data;
    for (const iss of r.error.issues) ctx.addIssue({ ...iss, code: "custom", input: v });
    return z.NEVER;
  });
}

/** `list[X]`: lists only (not str, not dict); item errors are reported at their index. */
export function pyList<T>(item: PySchema<T>): PySchema<T[]> {
  return block((v, ctx): T[] => {
    if (!Array.isArray(v)) {
      report(ctx, [], "list_type", "Input should be a valid list", v);
      return z.NEVER;
    }
    const out: T[] = [];
    v.forEach((el, i) => {
      const r = child(ctx, item, el, i);
      if (r.ok) out.push(r.value);
    });
    return out;
  });
}

/** The output object of a model with field schemas `S`. */
export type PyModelOutput<S extends Record<string, PySchema<unknown>>> = { [K in keyof S]: z.output<S[K]> };
/** A model schema that also knows its field names in declaration order. */
export type PyModelSchema<T> = PySchema<T> & { readonly fieldNames: readonly string[] };

/**
 * A pydantic model with `extra="forbid"`: a dict input, fields validated in
 * declaration order (missing keys get the field's zod `.default(() => …)` or a
 * `missing` error), then each unknown key reported as `extra_forbidden`. An
 * unknown key with a lone surrogate replaces all of the model's errors with one
 * `string_unicode` (pydantic-core aborts there). The output has keys in field order.
 */
export function pyModel<S extends Record<string, PySchema<unknown>>>(
  name: string,
  shape: S,
): PyModelSchema<PyModelOutput<S>> {
  const fields = Object.keys(shape);
  const known = new Set(fields);
  const schema = block((v, ctx): PyModelOutput<S> => {
    if (!isPyObject(v)) {
      report(ctx, [], "model_type", `Input should be a valid dictionary or instance of ${name}`, v);
      return z.NEVER;
    }
    const out: Record<string, unknown> = {};
    const pending: z.core.$ZodRawIssue[] = [];
    const sink: IssueSink = { addIssue: (issue) => void pending.push(issue) };
    for (const key of fields) {
      const r = child(sink, shape[key]!, v.get(key), key);
      if (r.ok) out[key] = r.value;
    }
    for (const [key, value] of v) {
      if (known.has(key)) continue;
      if (LONE_SURROGATE.test(key)) {
        report(ctx, [], "string_unicode", UNICODE_MSG, key);
        return z.NEVER;
      }
      report(sink, [key], "extra_forbidden", "Extra inputs are not permitted", value);
    }
    for (const issue of pending) ctx.addIssue(issue);
    return out as PyModelOutput<S>;
  });
  return Object.assign(schema, { fieldNames: Object.freeze(fields) });
}

/**
 * A discriminated union (`Field(discriminator=…)`): the tag must be an exact
 * string key of `variants`; errors inside a variant are reported under the tag.
 */
export function pyTaggedUnion<V extends Record<string, PySchema<unknown>>>(
  discriminator: string,
  variants: V,
): PySchema<z.output<V[keyof V]>> {
  const tags = Object.keys(variants);
  const expected = tags.map((t) => `'${t}'`).join(", ");
  return block((v, ctx): z.output<V[keyof V]> => {
    if (!isPyObject(v)) {
      report(
        ctx,
        [],
        "model_attributes_type",
        "Input should be a valid dictionary or object to extract fields from",
        v,
      );
      return z.NEVER;
    }
    const tag = v.get(discriminator);
    if (tag === undefined) {
      report(ctx, [], "union_tag_not_found", `Unable to extract tag using discriminator '${discriminator}'`, v);
      return z.NEVER;
    }
    if (typeof tag !== "string" || !Object.prototype.hasOwnProperty.call(variants, tag)) {
      const shown = typeof tag === "string" ? tag : pyRepr(tag);
      const msg = `Input tag '${shown}' found using '${discriminator}' does not match any of the expected tags: ${expected}`;
      report(ctx, [], "union_tag_invalid", msg, v);
      return z.NEVER;
    }
    const r = child(ctx, variants[tag]!, v, tag);
    return r.ok ? (r.value as z.output<V[keyof V]>) : z.NEVER;
  });
}

// ---------------------------------------------------------------- errors

/** A short Python-style repr of a value, for messages (`'done'`, `None`, `1.5`, `{'a': 1}`). */
function pyRepr(v: PyInput, max = 60): string {
  const s = reprUpTo(v, max + 1);
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** The repr of `v`, stopping once it is longer than `budget` (so huge inputs stay cheap). */
function reprUpTo(v: PyInput, budget: number): string {
  if (v === undefined) return "<missing>";
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  if (typeof v === "string") return strRepr(v.length > budget ? v.slice(0, budget) : v);
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  const items = Array.isArray(v) ? v.map((x) => [null, x] as const) : [...v];
  let out = Array.isArray(v) ? "[" : "{";
  for (const [k, x] of items) {
    if (out.length > budget) break;
    out += `${out.length > 1 ? ", " : ""}${k === null ? "" : `${strRepr(k)}: `}${reprUpTo(x, budget - out.length)}`;
  }
  return out + (Array.isArray(v) ? "]" : "}");
}

/** The pydantic-style issues of a failed parse. */
function pyIssues(error: z.ZodError): PyIssue[] {
  return error.issues.map((iss) => {
    const params = (iss as { params?: { type?: string; input?: PyInput } }).params ?? {};
    return { loc: iss.path as PyLoc, type: params.type ?? iss.code, msg: iss.message, input: params.input };
  });
}

/** `loc: message (got <repr>)`, one line per issue, at most `limit` lines. */
function formatPyIssues(issues: readonly PyIssue[], limit = 10): string {
  const lines = issues.slice(0, limit).map((i) => {
    const where = i.loc.length ? i.loc.join(".") : "(root)";
    return i.type === "missing" ? `${where}: ${i.msg}` : `${where}: ${i.msg} (got ${pyRepr(i.input)})`;
  });
  if (issues.length > limit) lines.push(`… and ${issues.length - limit} more`);
  return lines.join("\n");
}

// ---------------------------------------------------------------- results

/** Outcome of validating a boundary value: the model, or every error as text and as data. */
export type PyValidated<T> = { ok: true; value: T } | { ok: false; error: string; issues: PyIssue[] };

/** Validates `v` with `schema` without throwing. */
export function pyValidate<T>(schema: PySchema<T>, v: PyInput): PyValidated<T> {
  const r = schema.safeParse(v);
  if (r.success) return { ok: true, value: r.data };
  const issues = pyIssues(r.error);
  return { ok: false, error: formatPyIssues(issues), issues };
}
