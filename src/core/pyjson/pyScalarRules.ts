/**
 * The scalar coercion rules of pydantic v2's lax (python) mode, for values from
 * `json.loads`: which inputs `str`, `int`, `float` and `bool` accept, what they
 * become, and pydantic's error type and message for the rest. They follow
 * pydantic-core 2.46 / jiter; `pyCoerce.ts` turns them into zod schemas.
 */
import { PyFloat, PyValue, pyInt as normInt } from "./pyValue";

/** A rule's result: the coerced value, or pydantic's error type and message. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; type: string; msg: string };

/** A successful outcome. */
export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
/** A failed outcome with pydantic's error `type` and `msg`. */
export const fail = (type: string, msg: string): Outcome<never> => ({ ok: false, type, msg });

/** An unpaired UTF-16 surrogate: a Python str pydantic-core cannot turn into a Rust str. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** pydantic's message for a str that is not valid unicode (a lone surrogate). */
export const UNICODE_MSG = "Input should be a valid string, unable to parse raw data as a unicode string";
const STRING_UNICODE = fail("string_unicode", UNICODE_MSG);

/** Rules that read a str's text first fail on lone surrogates before anything else. */
export function textRule<T>(rule: (v: PyValue) => Outcome<T>): (v: PyValue) => Outcome<T> {
  return (v) => (typeof v === "string" && LONE_SURROGATE.test(v) ? STRING_UNICODE : rule(v));
}

/** Rust's `str::trim` (Unicode White_Space; unlike JS, U+0085 yes and U+FEFF no). */
const RUST_WS = "\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const RUST_TRIM = new RegExp(`^[${RUST_WS}]+|[${RUST_WS}]+$`, "g");
const JITER_INT = /^-?(?:0|[1-9][0-9]*)$/;
const JITER_RUN = /^-?[1-9][0-9]*/;
const MAX_INT_CHARS = 4300;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const TWO_63 = 2 ** 63;

/** jiter's `NumberInt::try_from`: a strict JSON integer of at most 4300 characters. */
function jiterInt(s: string): number | bigint | "invalid" | "range" {
  const run = JITER_RUN.exec(s);
  if (run !== null && run[0].length > MAX_INT_CHARS) return "range";
  if (!JITER_INT.test(s)) return "invalid";
  return s.length < 16 ? normInt(Number(s)) : normInt(BigInt(s));
}

function stripLeadingZeros(s: string): string | null {
  const c0 = s.charAt(0);
  if (c0 !== "0") return (c0 >= "1" && c0 <= "9") || c0 === "-" ? s : null;
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === "0" || c === "_") continue;
    if ((c >= "1" && c <= "9") || c === "-") return s.slice(i);
    if (c === ".") return s.slice(i - 1);
    return null;
  }
  return s.slice(-1);
}

function stripUnderscores(s: string): string | null {
  if (s.startsWith("_") || s.endsWith("_") || !s.includes("_") || s.includes("__")) return null;
  return s.replaceAll("_", "");
}

/** pydantic-core's `clean_int_str`: trim, one sign, leading zeros, `.000`, digit underscores. */
function cleanIntStr(orig: string): string | null {
  let s = orig.replace(RUST_TRIM, "");
  if (s.startsWith("+")) {
    s = s.slice(1);
    if (s.startsWith("-")) return null;
  }
  let sign = "";
  if (s.startsWith("-")) {
    s = s.slice(1);
    if (s.startsWith("-") || s.startsWith("+")) return null;
    sign = "-";
  }
  const z0 = stripLeadingZeros(s);
  if (z0 === null) return null;
  s = z0;
  const dot = s.indexOf(".");
  if (dot >= 0 && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot);
  const u = stripUnderscores(s);
  if (u !== null) return sign + u;
  return s === orig ? null : sign + s;
}

const INT_MSG = "Input should be a valid integer";
const INT_PARSING = fail("int_parsing", `${INT_MSG}, unable to parse string as an integer`);
const INT_SIZE = fail("int_parsing_size", "Unable to parse input string as an integer, exceeded maximum size");

/** pydantic's `str_as_int`. */
function strAsInt(s: string): Outcome<number | bigint> {
  const direct = jiterInt(s);
  if (direct === "range") return INT_SIZE;
  if (direct !== "invalid") return ok(direct);
  const cleaned = cleanIntStr(s);
  if (cleaned === null) return INT_PARSING;
  const again = jiterInt(cleaned);
  return typeof again === "string" ? INT_PARSING : ok(again);
}

/** pydantic's `float_as_int`: finite, integral, strictly inside the i64 range. */
function floatAsInt(f: number): Outcome<number | bigint> {
  if (!Number.isFinite(f)) return fail("finite_number", "Input should be a finite number");
  if (f % 1 !== 0) return fail("int_from_float", `${INT_MSG}, got a number with a fractional part`);
  if (!(f > -TWO_63 && f < TWO_63)) return INT_SIZE;
  return Number.isSafeInteger(f) ? ok(normInt(f)) : ok(normInt(BigInt(f)));
}

/** `int` in lax mode: ints, bools, integral finite floats in (-2^63, 2^63), int-like strings. */
export function intRule(v: PyValue): Outcome<number | bigint> {
  if (typeof v === "number" || typeof v === "bigint") return ok(v);
  if (typeof v === "boolean") return ok(v ? 1 : 0);
  if (typeof v === "string") return strAsInt(v);
  if (v instanceof PyFloat) return floatAsInt(v.value);
  return fail("int_type", INT_MSG);
}

const RUST_FLOAT = /^[+-]?(?:inf|infinity|nan|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)$/i;

/** Rust's `f64::from_str` (no trimming, no underscores; inf/infinity/nan any case). */
function rustF64(s: string): number | null {
  if (!RUST_FLOAT.test(s)) return null;
  const body = s.replace(/^[+-]/, "").toLowerCase();
  if (body === "nan") return NaN;
  if (body.startsWith("inf")) return s.startsWith("-") ? -Infinity : Infinity;
  return Number(s);
}

const FLOAT_MSG = "Input should be a valid number";

/** `float` in lax mode: floats, bools, ints that fit a double, Rust-syntax float strings. */
export function floatRule(v: PyValue): Outcome<number> {
  if (v instanceof PyFloat) return ok(v.value);
  if (typeof v === "string") {
    let f = rustF64(v.replace(RUST_TRIM, ""));
    if (f === null) {
      const u = stripUnderscores(v);
      f = u === null ? null : rustF64(u);
    }
    return f === null ? fail("float_parsing", `${FLOAT_MSG}, unable to parse string as a number`) : ok(f);
  }
  if (typeof v === "boolean") return ok(v ? 1 : 0);
  if (typeof v === "number") return ok(v);
  if (typeof v === "bigint") {
    const f = Number(v); // correctly rounded, as Python's int.__float__; overflow is an error there
    return Number.isFinite(f) ? ok(f) : fail("float_type", FLOAT_MSG);
  }
  return fail("float_type", FLOAT_MSG);
}

const FALSE_STRS = new Set(["0", "f", "n", "no", "off", "false"]);
const TRUE_STRS = new Set(["1", "t", "y", "on", "yes", "true"]);
const BOOL_TYPE = fail("bool_type", "Input should be a valid boolean");
const BOOL_PARSING = fail("bool_parsing", "Input should be a valid boolean, unable to interpret input");

/** `bool` in lax mode: bools, 0/1 (also as integral floats), and the bool-like strings. */
export function boolRule(v: PyValue): Outcome<boolean> {
  if (typeof v === "boolean") return ok(v);
  if (typeof v === "string") {
    const lower = v.replace(/[A-Z]/g, (c) => c.toLowerCase()); // ASCII-only case folding
    if (FALSE_STRS.has(lower)) return ok(false);
    if (TRUE_STRS.has(lower)) return ok(true);
    return BOOL_PARSING;
  }
  if (typeof v === "number" || typeof v === "bigint") {
    if (typeof v === "bigint" && (v < I64_MIN || v > I64_MAX)) return BOOL_TYPE;
    const n = Number(v);
    return n === 0 ? ok(false) : n === 1 ? ok(true) : BOOL_PARSING;
  }
  if (v instanceof PyFloat) {
    const asInt = floatAsInt(v.value);
    if (!asInt.ok) return BOOL_TYPE;
    return asInt.value === 0 ? ok(false) : asInt.value === 1 ? ok(true) : BOOL_PARSING;
  }
  return BOOL_TYPE;
}
