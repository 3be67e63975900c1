/**
 * `json.dumps` of CPython 3.11 with `ensure_ascii=True` (the default), byte for byte.
 *
 * Default separators are `", "` and `": "`; with an indent Python switches the
 * item separator to `","` plus a newline. Keys sort by Unicode code point as
 * Python's `sorted()` does, which differs from JavaScript's UTF-16 order for
 * astral characters against U+E000..U+FFFF.
 *
 * The output is pure ASCII, so it is written straight into a byte buffer (one
 * byte per character, no intermediate strings) and decoded once at the end.
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
  const writer = new PyJsonWriter(options);
  writer.write(v, 0);
  return writer.sink.takeString();
}

/** The UTF-8 bytes of {@link pyJsonDumps} (ASCII, so one byte per character), e.g. to hash without a string. */
export function pyJsonDumpsBytes(v: PyValue, options: PyJsonDumpOptions = {}): Uint8Array {
  const writer = new PyJsonWriter(options);
  writer.write(v, 0);
  return writer.sink.takeBytes();
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

/** `s` as a JSON string literal the way Python's `encode_basestring_ascii` writes it. */
export function pyJsonQuote(s: string): string {
  const sink = new AsciiSink();
  sink.quoted(s);
  return sink.takeString();
}

/** Byte after the backslash of each short escape, by char code (0: use `\u00XX`). */
const SHORT_ESCAPE = new Uint8Array(0x80);
SHORT_ESCAPE[0x22] = 0x22;
SHORT_ESCAPE[0x5c] = 0x5c;
SHORT_ESCAPE[0x0a] = 0x6e; // n
SHORT_ESCAPE[0x0d] = 0x72; // r
SHORT_ESCAPE[0x09] = 0x74; // t
SHORT_ESCAPE[0x08] = 0x62; // b
SHORT_ESCAPE[0x0c] = 0x66; // f

/** ASCII codes of the lowercase hex digits. */
const HEX_BYTES = new Uint8Array([...Array(16).keys()].map((d) => "0123456789abcdef".charCodeAt(d)));
/** Matches a UTF-16 unit at which code point order may differ from UTF-16 order. */
const MAY_SORT_DIFFERENTLY = /[\ud800-\uffff]/;
/** Characters quoted per buffer reservation (each may take 6 bytes). */
const QUOTE_SLICE = 1 << 16;
/** Nesting beyond which the writer checks its path for a cycle. */
const CYCLE_CHECK_DEPTH = 1000;

const asciiDecoder = new TextDecoder();
/** Largest buffer kept for reuse by the next dump. */
const SPARE_BUFFER_MAX = 1 << 24;
/** A buffer left by the last dump, so most dumps allocate nothing but their result. */
let spareBuffer: Uint8Array | null = null;

/** A growable byte buffer that only ever receives ASCII; take its content once. */
class AsciiSink {
  private buf: Uint8Array;
  private len = 0;

  constructor() {
    this.buf = spareBuffer ?? new Uint8Array(1 << 16);
    spareBuffer = null;
  }

  private reserve(extra: number): void {
    if (this.len + extra <= this.buf.length) return;
    let size = Math.max(64, this.buf.length * 2);
    while (size < this.len + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
  }

  /** Appends a string known to be ASCII (numbers, literals, punctuation, indentation). */
  ascii(s: string): void {
    const n = s.length;
    this.reserve(n);
    const buf = this.buf;
    let len = this.len;
    for (let i = 0; i < n; i++) buf[len++] = s.charCodeAt(i);
    this.len = len;
  }

  /** Appends `s` quoted and escaped as `ensure_ascii` does. */
  quoted(s: string): void {
    const n = s.length;
    this.reserve(2);
    this.buf[this.len++] = 0x22;
    for (let from = 0; from < n; from += QUOTE_SLICE) {
      const to = Math.min(n, from + QUOTE_SLICE);
      this.reserve(6 * (to - from) + 1);
      const buf = this.buf;
      let len = this.len;
      for (let i = from; i < to; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) {
          buf[len++] = c;
        } else if (c < 0x80 && SHORT_ESCAPE[c] !== 0) {
          buf[len++] = 0x5c;
          buf[len++] = SHORT_ESCAPE[c];
        } else {
          buf[len++] = 0x5c;
          buf[len++] = 0x75;
          buf[len++] = HEX_BYTES[c >> 12];
          buf[len++] = HEX_BYTES[(c >> 8) & 15];
          buf[len++] = HEX_BYTES[(c >> 4) & 15];
          buf[len++] = HEX_BYTES[c & 15];
        }
      }
      this.len = len;
    }
    this.buf[this.len++] = 0x22;
  }

  takeString(): string {
    const text = asciiDecoder.decode(this.buf.subarray(0, this.len));
    this.release();
    return text;
  }

  takeBytes(): Uint8Array {
    const bytes = this.buf.slice(0, this.len);
    this.release();
    return bytes;
  }

  private release(): void {
    if (this.buf.length <= SPARE_BUFFER_MAX) spareBuffer = this.buf;
    this.buf = new Uint8Array(0);
    this.len = 0;
  }
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

/** Writes a value recursively into an {@link AsciiSink}. */
class PyJsonWriter {
  readonly sink = new AsciiSink();
  private readonly sortKeys: boolean;
  /** Newline plus indentation per level, or null for the compact form. */
  private readonly newlines: string[] | null;
  private readonly indentUnit: string;
  /** The containers being written, by level (Python's `markers`, checked only when deep). */
  private readonly path: object[] = [];

  constructor(options: PyJsonDumpOptions) {
    this.sortKeys = options.sortKeys === true;
    const indent = options.indent;
    this.newlines = indent === undefined ? null : ["\n"];
    this.indentUnit = indent === undefined ? "" : " ".repeat(Math.max(0, Math.floor(indent)));
  }

  write(v: PyValue, level: number): void {
    switch (typeof v) {
      case "string":
        this.sink.quoted(v);
        return;
      case "number":
        if (!Number.isInteger(v)) throw new TypeError(`not a PyValue: ${v} (floats must be PyFloat)`);
        this.sink.ascii(intText(v));
        return;
      case "bigint":
        this.sink.ascii(intText(v));
        return;
      case "boolean":
        this.sink.ascii(v ? "true" : "false");
        return;
      case "object":
        if (v === null) this.sink.ascii("null");
        else if (v instanceof PyFloat) this.sink.ascii(pyJsonFloat(v.value));
        else if (Array.isArray(v)) this.writeList(v, level);
        else if (v instanceof Map) this.writeDict(v, level);
        else throw new TypeError(`not a PyValue: ${Object.prototype.toString.call(v)}`);
        return;
      default:
        throw new TypeError(`not a PyValue: ${typeof v}`);
    }
  }

  /** "\n" plus the indentation of `level` (indent mode only). */
  private newline(level: number): string {
    const newlines = this.newlines as string[];
    while (newlines.length <= level) newlines.push("\n" + this.indentUnit.repeat(newlines.length));
    return newlines[level];
  }

  /** Records `container` at `level`; a cycle can only show as unbounded depth, so check only when deep. */
  private enter(container: object, level: number): void {
    this.path[level] = container;
    if (level >= CYCLE_CHECK_DEPTH && this.path.lastIndexOf(container, level - 1) >= 0) {
      throw new RangeError("Circular reference detected");
    }
  }

  private writeList(list: readonly PyValue[], level: number): void {
    if (list.length === 0) {
      this.sink.ascii("[]");
      return;
    }
    this.enter(list, level);
    const inner = level + 1;
    const sink = this.sink;
    const separator = this.newlines === null ? ", " : ",";
    const newline = this.newlines === null ? "" : this.newline(inner);
    sink.ascii("[");
    sink.ascii(newline);
    for (let i = 0; i < list.length; i++) {
      if (i > 0) {
        sink.ascii(separator);
        sink.ascii(newline);
      }
      this.write(list[i], inner);
    }
    if (this.newlines !== null) sink.ascii(this.newline(level));
    sink.ascii("]");
  }

  private writeDict(dict: PyObject, level: number): void {
    if (dict.size === 0) {
      this.sink.ascii("{}");
      return;
    }
    this.enter(dict, level);
    const inner = level + 1;
    const sink = this.sink;
    const separator = this.newlines === null ? ", " : ",";
    const newline = this.newlines === null ? "" : this.newline(inner);
    sink.ascii("{");
    sink.ascii(newline);
    const keys = this.sortKeys ? keysIfNotInPythonOrder(dict) : null;
    if (keys !== null) {
      for (let i = 0; i < keys.length; i++) {
        if (i > 0) {
          sink.ascii(separator);
          sink.ascii(newline);
        }
        sink.quoted(keys[i]);
        sink.ascii(": ");
        this.write(dict.get(keys[i]) as PyValue, inner);
      }
    } else {
      let first = true;
      for (const [key, value] of dict) {
        if (!first) {
          sink.ascii(separator);
          sink.ascii(newline);
        }
        first = false;
        sink.quoted(key);
        sink.ascii(": ");
        this.write(value, inner);
      }
    }
    if (this.newlines !== null) sink.ascii(this.newline(level));
    sink.ascii("}");
  }
}

/**
 * The keys of `dict` in Python's `sorted()` order, or null when insertion order
 * already is that order (common: ledgers are written by `json.dumps(sort_keys=True)`).
 */
function keysIfNotInPythonOrder(dict: PyObject): string[] | null {
  let previous: string | null = null;
  let inOrder = true;
  let needsCodePointOrder = false;
  for (const key of dict.keys()) {
    if (MAY_SORT_DIFFERENTLY.test(key)) needsCodePointOrder = true;
    if (previous !== null && previous >= key) inOrder = false;
    previous = key;
  }
  if (inOrder && !needsCodePointOrder) return null;
  const keys = Array.from(dict.keys());
  if (needsCodePointOrder) return keys.sort(comparePyStrings);
  if (keys.length > 24) return keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Insertion sort: for the few keys of a typical object, cheaper than a comparator callback.
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
  return keys;
}
