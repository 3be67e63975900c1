/**
 * `json.dumps` of CPython 3.11 with `ensure_ascii=True` (the default), byte for byte.
 *
 * Default separators are `", "` and `": "`; with an indent Python switches the
 * item separator to `","` plus a newline. Keys sort by Unicode code point as
 * Python's `sorted()` does, which differs from JavaScript's UTF-16 order for
 * astral characters against U+E000..U+FFFF.
 */
import { pyJsonFloat } from "./pyFloatRepr";
import { PyFloat, type PyObject, type PyValue } from "./pyValue";

/** Options of {@link pyJsonDumps}, named after `json.dumps` keyword arguments. */
export interface PyJsonDumpOptions {
  /** `sort_keys=True`: write object keys in code point order, at every level. */
  readonly sortKeys?: boolean;
  /** `indent=N`: one item per line, indented N spaces per level (0 or less: newlines only). */
  readonly indent?: number;
}

/** `json.dumps(v, sort_keys=True)`: the canonical compact form used for hashing. */
export function dumpsSorted(v: PyValue): string {
  return pyJsonDumps(v, { sortKeys: true });
}

/** `json.dumps(v, indent=2)`: keys in insertion order, two-space indentation. */
export function dumpsIndent2(v: PyValue): string {
  return pyJsonDumps(v, { indent: 2 });
}

/**
 * `json.dumps(v, sort_keys=..., indent=...)` with Python's defaults otherwise.
 * Throws `RangeError` where Python raises `ValueError` (circular reference, an int
 * of more than 4300 digits) and `TypeError` for values outside the {@link PyValue} model.
 */
export function pyJsonDumps(v: PyValue, options: PyJsonDumpOptions = {}): string {
  const writer = new PyJsonWriter(options.sortKeys === true, options.indent);
  writer.write(v, 0);
  return writer.out;
}

/** Python's order on strings: by code point; a lone surrogate counts as its own code unit value. */
export function comparePyStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  let i = 0;
  while (i < length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  const ca = i < a.length ? a.charCodeAt(i) : -1;
  const cb = i < b.length ? b.charCodeAt(i) : -1;
  if (ca < 0xd800 && cb < 0xd800) return ca - cb;
  // If both strings share a high surrogate just before `i` and either continues it
  // with a low surrogate, the strings first differ at the code point starting at i-1.
  const at = i > 0 && isHighSurrogate(a.charCodeAt(i - 1)) && (isLowSurrogate(ca) || isLowSurrogate(cb)) ? i - 1 : i;
  return codePointAtOrMinusOne(a, at) - codePointAtOrMinusOne(b, at);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function codePointAtOrMinusOne(s: string, i: number): number {
  return i < s.length ? (s.codePointAt(i) as number) : -1;
}

/** Matches any character `ensure_ascii` writes as an escape (or `"`, `\`). */
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;
/** Matches a UTF-16 unit at which code point order may differ from UTF-16 order. */
const MAY_SORT_DIFFERENTLY = /[\ud800-\uffff]/;

const HEX_DIGITS = "0123456789abcdef";

/** The escape `ensure_ascii` writes for each char code below 0x80 (undefined: written as-is). */
const ASCII_ESCAPES: readonly (string | undefined)[] = (() => {
  const table: (string | undefined)[] = new Array(128).fill(undefined);
  for (let c = 0; c < 0x20; c++) table[c] = unicodeEscape(c);
  table[0x7f] = unicodeEscape(0x7f);
  const short: [number, string][] = [
    [0x22, '\\"'], [0x5c, "\\\\"], [0x0a, "\\n"], [0x0d, "\\r"], [0x09, "\\t"], [0x08, "\\b"], [0x0c, "\\f"],
  ];
  for (const [c, escape] of short) table[c] = escape;
  return table;
})();

function unicodeEscape(c: number): string {
  return "\\u" + HEX_DIGITS[(c >> 12) & 15] + HEX_DIGITS[(c >> 8) & 15] + HEX_DIGITS[(c >> 4) & 15] + HEX_DIGITS[c & 15];
}

/** `s` as a JSON string literal the way Python's `encode_basestring_ascii` writes it. */
export function pyJsonQuote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    if (i > run) out += s.slice(run, i);
    out += c < 0x80 ? (ASCII_ESCAPES[c] as string) : unicodeEscape(c);
    run = i + 1;
  }
  if (s.length > run) out += s.slice(run);
  return out + '"';
}

/** Python's text for an int: exact decimal, refusing more than 4300 digits like `str(int)`. */
function intText(v: number | bigint): string {
  const text = typeof v === "bigint" || !Number.isSafeInteger(v) ? BigInt(v).toString() : String(v);
  if (text.length > 4300 && text.length - (text.charCodeAt(0) === 0x2d ? 1 : 0) > 4300) {
    throw new RangeError(
      "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit",
    );
  }
  return text;
}

/** Appends the JSON text of a value to `out`, recursively. */
class PyJsonWriter {
  out = "";
  /** Containers being written (Python's `markers`), to refuse cycles. */
  private readonly open = new Set<object>();
  /** Newline plus indentation per level, or null for the compact form. */
  private readonly newlines: string[] | null;
  /** One level of indentation. */
  private readonly indentUnit: string;

  constructor(
    private readonly sortKeys: boolean,
    indent: number | undefined,
  ) {
    this.newlines = indent === undefined ? null : ["\n"];
    this.indentUnit = indent === undefined ? "" : " ".repeat(Math.max(0, Math.floor(indent)));
  }

  write(v: PyValue, level: number): void {
    switch (typeof v) {
      case "string":
        this.out += pyJsonQuote(v);
        return;
      case "number":
        if (!Number.isInteger(v)) throw new TypeError(`not a PyValue: ${v} (floats must be PyFloat)`);
        this.out += intText(v);
        return;
      case "bigint":
        this.out += intText(v);
        return;
      case "boolean":
        this.out += v ? "true" : "false";
        return;
      case "object":
        if (v === null) this.out += "null";
        else if (v instanceof PyFloat) this.out += pyJsonFloat(v.value);
        else if (Array.isArray(v)) this.writeList(v, level);
        else if (v instanceof Map) this.writeDict(v, level);
        else throw new TypeError(`not a PyValue: ${Object.prototype.toString.call(v)}`);
        return;
      default:
        throw new TypeError(`not a PyValue: ${typeof v}`);
    }
  }

  private newline(level: number): string {
    const newlines = this.newlines as string[];
    while (newlines.length <= level) newlines.push("\n" + this.indentUnit.repeat(newlines.length));
    return newlines[level];
  }

  private enter(container: object): void {
    if (this.open.has(container)) throw new RangeError("Circular reference detected");
    this.open.add(container);
  }

  private writeList(list: readonly PyValue[], level: number): void {
    if (list.length === 0) {
      this.out += "[]";
      return;
    }
    this.enter(list);
    const inner = level + 1;
    const first = this.newlines === null ? "[" : "[" + this.newline(inner);
    const separator = this.newlines === null ? ", " : "," + this.newline(inner);
    this.out += first;
    for (let i = 0; i < list.length; i++) {
      if (i > 0) this.out += separator;
      this.write(list[i], inner);
    }
    this.out += this.newlines === null ? "]" : this.newline(level) + "]";
    this.open.delete(list);
  }

  private writeDict(dict: PyObject, level: number): void {
    if (dict.size === 0) {
      this.out += "{}";
      return;
    }
    this.enter(dict);
    const inner = level + 1;
    const separator = this.newlines === null ? ", " : "," + this.newline(inner);
    this.out += this.newlines === null ? "{" : "{" + this.newline(inner);
    if (this.sortKeys) {
      const keys = sortedKeys(dict);
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) this.out += separator;
        this.out += pyJsonQuote(keys[i]) + ": ";
        this.write(dict.get(keys[i]) as PyValue, inner);
      }
    } else {
      let i = 0;
      for (const [key, value] of dict) {
        if (i++ > 0) this.out += separator;
        this.out += pyJsonQuote(key) + ": ";
        this.write(value, inner);
      }
    }
    this.out += this.newlines === null ? "}" : this.newline(level) + "}";
    this.open.delete(dict);
  }
}

/** The keys of `dict` in Python's `sorted()` order. */
function sortedKeys(dict: PyObject): string[] {
  const keys = Array.from(dict.keys());
  let needsCodePointOrder = false;
  for (const key of keys) {
    if (MAY_SORT_DIFFERENTLY.test(key)) {
      needsCodePointOrder = true;
      break;
    }
  }
  return needsCodePointOrder ? keys.sort(comparePyStrings) : keys.sort();
}
