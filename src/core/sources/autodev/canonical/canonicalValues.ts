/**
 * Canonical JSON values on the line canonicalScanner.ts holds: numbers as
 * Python's `json.dumps` writes them (`repr` floats, no `-0`, no NaN), `true`,
 * `false`, `null`, objects with their keys sorted by code point and `": "` /
 * `", "` separators, arrays, and the text of a string literal read back. Each
 * returns the index after the value at `i`, or -1.
 */
import { pyFloatRepr } from "../../../pyjson/pyFloatRepr";
import { comparePyStrings } from "../../../pyjson/pyJsonDump";
import { lastEscaped, latin1, lineBytes, lineLength, str, strValue } from "./canonicalScanner";

/** Nesting deeper than this is left to the full path (Python's limit is about 995). */
const MAX_DEPTH = 500;
/** Python's default `sys.get_int_max_str_digits()`. */
const MAX_INT_DIGITS = 4300;

/** Whether the last number scanned was a float. */
let lastFloat = false;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** A canonical number at `i`; sets `lastFloat`; returns the index after it or -1. */
function num(i: number): number {
  const b = lineBytes;
  const n = lineLength;
  const start = i;
  let negative = false;
  if (b[i] === 0x2d) {
    negative = true;
    i++;
  }
  if (i >= n) return -1;
  const c = b[i];
  if (c === 0x30) {
    i++;
  } else if (c >= 0x31 && c <= 0x39) {
    i++;
    while (i < n && isDigit(b[i])) i++;
  } else {
    return -1;
  }
  const intDigits = i - start - (negative ? 1 : 0);
  let isFloat = false;
  if (i < n && b[i] === 0x2e) {
    i++;
    if (!(i < n && isDigit(b[i]))) return -1;
    while (i < n && isDigit(b[i])) i++;
    isFloat = true;
  }
  if (i < n && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < n && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    if (!(i < n && isDigit(b[i]))) return -1;
    while (i < n && isDigit(b[i])) i++;
    isFloat = true;
  }
  lastFloat = isFloat;
  if (!isFloat) {
    if (negative && intDigits === 1 && b[start + 1] === 0x30) return -1; // -0
    if (intDigits > MAX_INT_DIGITS) return -1;
    return i;
  }
  const text = latin1(lineBytes, start, i);
  const x = Number(text);
  if (!Number.isFinite(x) || pyFloatRepr(x) !== text) return -1;
  return i;
}

/** An int value at `i`. */
export function intValue(i: number): number {
  if (i < 0) return -1;
  const c = lineBytes[i];
  if (c !== 0x2d && !isDigit(c)) return -1;
  const end = num(i);
  return end >= 0 && !lastFloat ? end : -1;
}

/** A bool value (`true` / `false`) at `i`. */
export function boolValue(i: number): number {
  if (i < 0) return -1;
  const b = lineBytes;
  if (b[i] === 0x74) {
    return b[i + 1] === 0x72 && b[i + 2] === 0x75 && b[i + 3] === 0x65 && i + 4 <= lineLength ? i + 4 : -1;
  }
  if (b[i] === 0x66) {
    return b[i + 1] === 0x61 && b[i + 2] === 0x6c && b[i + 3] === 0x73 && b[i + 4] === 0x65 && i + 5 <= lineLength
      ? i + 5
      : -1;
  }
  return -1;
}

/** True when `null` is at `i`. */
export function nullAt(i: number): boolean {
  const b = lineBytes;
  return b[i] === 0x6e && b[i + 1] === 0x75 && b[i + 2] === 0x6c && b[i + 3] === 0x6c && i + 4 <= lineLength;
}

/** A string or `null` value at `i`. */
export function strOrNull(i: number): number {
  if (i < 0) return -1;
  if (lineBytes[i] === 0x22) return str(i);
  return nullAt(i) ? i + 4 : -1;
}

/** Any canonical value at `i`; `depth` is the number of enclosing containers. */
export function value(i: number, depth: number): number {
  switch (lineBytes[i]) {
    case 0x22:
      return str(i);
    case 0x7b:
      return obj(i, depth + 1);
    case 0x5b:
      return arr(i, depth + 1);
    case 0x74:
    case 0x66:
      return boolValue(i);
    case 0x6e:
      return nullAt(i) ? i + 4 : -1;
    case 0x2d:
    case 0x30:
    case 0x31:
    case 0x32:
    case 0x33:
    case 0x34:
    case 0x35:
    case 0x36:
    case 0x37:
    case 0x38:
    case 0x39:
      return num(i);
    default:
      return -1; // NaN, Infinity, -Infinity are not canonical in a payload
  }
}

/** The text of the canonical string literal [s, e) (quotes included). */
export function decode(s: number, e: number, escaped: boolean): string {
  return escaped ? (JSON.parse(latin1(lineBytes, s, e)) as string) : latin1(lineBytes, s + 1, e - 1);
}

/**
 * {@link decode}, but `known` itself when the literal [s, e) spells it (no
 * new string: a line's prev_hash is the line before's self_hash, its session
 * and task mostly the line before's).
 */
export function decodeKnown(known: string | null, s: number, e: number, escaped: boolean): string {
  if (known !== null && !escaped && e - s - 2 === known.length) {
    const b = lineBytes;
    let j = 0;
    while (j < known.length && b[s + 1 + j] === known.charCodeAt(j)) j++;
    if (j === known.length) return known;
  }
  return decode(s, e, escaped);
}

/** True when key [a, ae) sorts strictly before key [c, ce) by code point. */
export function keyBefore(a: number, ae: number, aEsc: boolean, c: number, ce: number, cEsc: boolean): boolean {
  if (!aEsc && !cEsc) {
    const b = lineBytes;
    const la = ae - a - 2;
    const lc = ce - c - 2;
    const m = la < lc ? la : lc;
    for (let j = 1; j <= m; j++) {
      const x = b[a + j];
      const y = b[c + j];
      if (x !== y) return x < y;
    }
    return la < lc;
  }
  return comparePyStrings(decode(a, ae, aEsc), decode(c, ce, cEsc)) < 0;
}

/** A canonical object at `i` (its `{`); `depth` counts it. */
function obj(i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const b = lineBytes;
  i++;
  if (b[i] === 0x7d) return i + 1;
  let pk = -1;
  let pkEnd = -1;
  let pkEsc = false;
  for (;;) {
    if (b[i] !== 0x22) return -1;
    const ke = str(i);
    if (ke < 0) return -1;
    const kEsc = lastEscaped;
    if (pk >= 0 && !keyBefore(pk, pkEnd, pkEsc, i, ke, kEsc)) return -1;
    pk = i;
    pkEnd = ke;
    pkEsc = kEsc;
    if (b[ke] !== 0x3a || b[ke + 1] !== 0x20) return -1;
    i = value(ke + 2, depth);
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x7d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

/** A canonical array at `i` (its `[`). */
function arr(i: number, depth: number): number {
  if (depth > MAX_DEPTH) return -1;
  const b = lineBytes;
  i++;
  if (b[i] === 0x5d) return i + 1;
  for (;;) {
    i = value(i, depth);
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x5d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}

/** An object value (`{…}`) at `i`. */
export function objValue(i: number, depth: number): number {
  return i >= 0 && lineBytes[i] === 0x7b ? obj(i, depth + 1) : -1;
}

/** A list of strings at `i`. */
export function strList(i: number): number {
  if (i < 0 || lineBytes[i] !== 0x5b) return -1;
  const b = lineBytes;
  i++;
  if (b[i] === 0x5d) return i + 1;
  for (;;) {
    i = strValue(i);
    if (i < 0) return -1;
    const c = b[i];
    if (c === 0x5d) return i + 1;
    if (c !== 0x2c || b[i + 1] !== 0x20) return -1;
    i += 2;
  }
}
