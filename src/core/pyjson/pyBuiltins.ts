/**
 * Python's `bool(x)` and `int(x)` on PyValues, as Python AutoDev's replay applies
 * them to ledger payloads (`escalated`, `retry_count`). `bool("false")` is true.
 */
import { PyFloat, PyValue, isPyObject, pyInt } from "./pyValue";

/** Python truthiness. */
export function pyTruthy(v: PyValue): boolean {
  if (v === null) return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "string") return v.length > 0;
  if (v instanceof PyFloat) return v.value !== 0; // NaN is truthy, as in Python
  if (Array.isArray(v)) return v.length > 0;
  if (isPyObject(v)) return v.size > 0;
  return true;
}

/** The error Python's `int(x)` raises, as text. */
export class PyIntError extends Error {}

const MAX_DIGITS = 4300;

/** Python `type(x).__name__` for PyValues. */
export function pyTypeName(v: PyValue): string {
  if (v === null) return "NoneType";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" || typeof v === "bigint") return "int";
  if (typeof v === "string") return "str";
  if (v instanceof PyFloat) return "float";
  if (Array.isArray(v)) return "list";
  return "dict";
}

/** Python's `int(x)`; throws {@link PyIntError} with Python's message where Python raises. */
export function pyIntCall(v: PyValue): number | bigint {
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "number" || typeof v === "bigint") return v;
  if (v instanceof PyFloat) {
    const x = v.value;
    if (Number.isNaN(x)) throw new PyIntError("ValueError: cannot convert float NaN to integer");
    if (!Number.isFinite(x)) throw new PyIntError("OverflowError: cannot convert float infinity to integer");
    const t = Math.trunc(x);
    return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : pyInt(BigInt(t));
  }
  if (typeof v === "string") return parseIntLiteral(v);
  throw new PyIntError(
    `TypeError: int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  );
}

const ND = /\p{Nd}/u;

/** Value of a Unicode decimal digit (any script), or -1. */
function digitValue(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const cp = s.codePointAt(i)!;
  const ch = String.fromCodePoint(cp);
  if (!ND.test(ch)) return -1;
  // Nd characters come in contiguous runs of ten starting at digit zero.
  let start = cp;
  while (ND.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

function parseIntLiteral(raw: string): number | bigint {
  const fail = () => new PyIntError(`ValueError: invalid literal for int() with base 10: ${pyStrRepr(raw)}`);
  const s = pyStrip(raw);
  let i = 0;
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    neg = s[0] === "-";
    i = 1;
  }
  let digits = "";
  let lastUnderscore = true; // no leading underscore
  while (i < s.length) {
    if (s[i] === "_") {
      if (lastUnderscore) throw fail();
      lastUnderscore = true;
      i++;
      continue;
    }
    const d = digitValue(s, i);
    if (d < 0) throw fail();
    digits += String(d);
    lastUnderscore = false;
    i += s.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  if (digits.length === 0 || lastUnderscore) throw fail();
  if (digits.replace(/^0+/, "").length > MAX_DIGITS) {
    throw new PyIntError(
      `ValueError: Exceeds the limit (${MAX_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  const big = BigInt(digits);
  return pyInt(neg ? -big : big);
}

/** A readable Python-like repr of a string (for messages only). */
function pyStrRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(/[\\\n\r\t]/g, (c) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c]!);
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/** Characters Python's `str.strip()` removes (str.isspace()); differs from JS `trim`. */
const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** Python's `str.strip()` with no argument. */
export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && PY_SPACE.has(s.charCodeAt(a))) a++;
  while (b > a && PY_SPACE.has(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}
