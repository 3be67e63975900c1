/**
 * How CPython's `json.dumps` writes and orders strings: `ensure_ascii` quoting
 * into a reusable ASCII byte buffer, and `sorted()`'s code point order on keys.
 * Used by the dumper in `pyJsonDump.ts`, which re-exports the public helpers.
 */
import type { PyObject } from "./pyValue";

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

const asciiDecoder = new TextDecoder();
/** Largest buffer kept for reuse by the next dump. */
const SPARE_BUFFER_MAX = 1 << 24;
/** A buffer left by the last dump, so most dumps allocate nothing but their result. */
let spareBuffer: Uint8Array | null = null;

/** A growable byte buffer that only ever receives ASCII; take its content once. */
export class AsciiSink {
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

/**
 * The keys of `dict` in Python's `sorted()` order, or null when insertion order
 * already is that order (common: ledgers are written by `json.dumps(sort_keys=True)`).
 */
export function keysIfNotInPythonOrder(dict: PyObject): string[] | null {
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
