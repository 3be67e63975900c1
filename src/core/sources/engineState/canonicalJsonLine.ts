/**
 * The ADR-0146 round-trip invariant for one JSONL line: the line must be exactly what the
 * writer's `json.dumps(obj, sort_keys=True, separators=(",", ":"))` gives for the value it
 * holds. The public writer uses `ensure_ascii=False` for recognizers and the default
 * `ensure_ascii=True` for candidates (the ADR asks for False), so either form is accepted.
 *
 * Parsing is CPython's `json.loads` (`parsePyJson`); floats print with Python's repr
 * (`pyJsonFloat`); keys sort by code point (`comparePyStrings`).
 */
import { pyJsonFloat } from "../../pyjson/pyFloatRepr";
import { comparePyStrings } from "../../pyjson/pyJsonDump";
import { parsePyJson, PyJsonError } from "../../pyjson/pyJsonParse";
import { PyFloat, type PyValue } from "../../pyjson/pyValue";

/** What a line holds, judged against the writer's canonical form. */
export type LineVerdict =
  | { readonly kind: "canonical"; readonly value: PyValue }
  | { readonly kind: "non_canonical"; readonly value: PyValue; readonly expected: string; readonly column: number }
  | { readonly kind: "invalid_json"; readonly message: string; readonly column: number };

/**
 * Characters Python's `str.splitlines()` breaks at besides `\n` and `\r`. The writer's
 * loader reads `read_text().splitlines()`, so one of these raw in a line splits it.
 * `ensure_ascii=False` writes U+0085, U+2028 and U+2029 raw inside strings.
 */
// eslint-disable-next-line no-control-regex
const SPLITLINES_BREAKS = /[\u000b\u000c\u001c\u001d\u001e\u0085\u2028\u2029]/;

/** The 1-based column of the first raw character at which the loader's `splitlines()` splits `line`, or 0. */
export function splitlinesBreakColumn(line: string): number {
  const match = SPLITLINES_BREAKS.exec(line);
  return match === null ? 0 : match.index + 1;
}

/** Judges one line (already decoded from UTF-8, without its terminator). */
export function judgeLine(line: string): LineVerdict {
  let value: PyValue;
  try {
    value = parsePyJson(line);
  } catch (e) {
    if (e instanceof PyJsonError) return { kind: "invalid_json", message: e.message, column: e.index + 1 };
    throw e;
  }
  const ascii = canonicalDump(value, true);
  if (ascii === line) return { kind: "canonical", value };
  const unicode = canonicalDump(value, false);
  if (unicode === line) return { kind: "canonical", value };
  // Report against the form the line is closer to: raw non-ASCII means ensure_ascii=False.
  const expected = /[\u0080-\uffff]/.test(line) ? unicode : ascii;
  return { kind: "non_canonical", value, expected, column: firstDifference(line, expected) + 1 };
}

/** `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=…)`. */
export function canonicalDump(value: PyValue, ensureAscii: boolean): string {
  const quote = ensureAscii ? quoteAscii : quoteUnicode;
  const write = (v: PyValue): string => {
    if (v === null) return "null";
    switch (typeof v) {
      case "boolean":
        return v ? "true" : "false";
      case "string":
        return quote(v);
      case "number":
      case "bigint":
        return String(v);
    }
    if (v instanceof PyFloat) return pyJsonFloat(v.value);
    if (Array.isArray(v)) {
      let out = "[";
      for (let i = 0; i < v.length; i++) out += (i > 0 ? "," : "") + write(v[i]);
      return out + "]";
    }
    const keys = Array.from(v.keys());
    if (needsSort(keys)) keys.sort(comparePyStrings);
    let out = "{";
    for (let i = 0; i < keys.length; i++) {
      out += (i > 0 ? "," : "") + quote(keys[i]) + ":" + write(v.get(keys[i]) as PyValue);
    }
    return out + "}";
  };
  return write(value);
}

/** False when `keys` already are in code point order (the common case: the writer sorted them). */
function needsSort(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (comparePyStrings(keys[i - 1], keys[i]) >= 0) return true;
  return false;
}

/** Strings that need no escaping in either mode. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** Short escapes `json` uses in both modes. */
const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\b": "\\b",
  "\f": "\\f",
};

function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** Python's `encode_basestring_ascii` (`ensure_ascii=True`): everything outside printable ASCII as `\uXXXX`, per UTF-16 unit. */
function quoteAscii(s: string): string {
  if (PLAIN.test(s)) return `"${s}"`;
  return `"${s.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, (c) => SHORT_ESCAPES[c] ?? unicodeEscape(c))}"`;
}

/** Python's `encode_basestring` (`ensure_ascii=False`): only `"`, `\` and C0 controls escaped. */
function quoteUnicode(s: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${s.replace(/["\\\u0000-\u001f]/g, (c) => SHORT_ESCAPES[c] ?? unicodeEscape(c))}"`;
}

/** Index of the first UTF-16 unit where `a` and `b` differ (the shorter length when one is a prefix). */
function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
