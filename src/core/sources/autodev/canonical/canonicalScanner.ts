/**
 * The byte-level scanner of canonical JSON behind the ledger fast path: the
 * line being scanned and its strings. Each function checks that the bytes at
 * an index are canonical (as Python's `json.dumps(..., sort_keys=True)` with
 * `ensure_ascii` writes them) and returns the index after them, or -1. The
 * line is module state, set by {@link startScan} and cleared by
 * {@link endScan} (the scan is synchronous); numbers, literals, objects and
 * arrays are canonicalValues.ts.
 */
import { isAscii } from "node:buffer";

/** Byte classes inside a string: 0 plain, 1 quote, 2 backslash, 3 not allowed raw. */
const STR_CLASS: Uint8Array = (() => {
  const t = new Uint8Array(256).fill(3);
  for (let c = 0x20; c < 0x7f; c++) t[c] = 0;
  t[0x22] = 1;
  t[0x5c] = 2;
  return t;
})();

/** Lowercase hex digit values (-1 otherwise: uppercase hex is not canonical). */
const HEX: Int8Array = (() => {
  const t = new Int8Array(256).fill(-1);
  for (let i = 0; i < 10; i++) t[0x30 + i] = i;
  for (let i = 0; i < 6; i++) t[0x61 + i] = 10 + i;
  return t;
})();

/** The bytes of an ASCII string. */
export const bytesOf = (s: string): Uint8Array => Uint8Array.from(s, (ch) => ch.charCodeAt(0));

const EMPTY = Buffer.alloc(0);
type Latin1 = { latin1Slice(start: number, end: number): string };
/** Bytes [s, e) as a one-byte string (Buffer#latin1Slice, which Node's typings do not declare). */
export const latin1 = (b: Buffer, s: number, e: number): string => (b as unknown as Latin1).latin1Slice(s, e);

// The line being scanned and per-call results, as module state (the scan is synchronous).
/** The bytes of the line being scanned. */
export let lineBytes: Buffer = EMPTY;
/** The length of the line being scanned. */
export let lineLength = 0;
/** Whether the last string scanned had a backslash escape. */
export let lastEscaped = false;
/** The line's 4-byte-aligned interior as 32-bit words (made on the first long string of a line), or null. */
let words: Int32Array | null = null;
/** The index in the line of `words[0]`. */
let wordsBase = 0;
const NO_WORDS = new Int32Array(0);
/**
 * The first `"` at or after `quoteFrom` and the first `\\` at or after
 * `backslashFrom` (the line's length: none; -1: not searched), as the native
 * scan last found them; each holds for an index from its `…From` up to it
 * (scans may go back: a plan that failed its proof is scanned again as a value).
 */
let nextQuote = -1;
let nextBackslash = -1;
let quoteFrom = 0;
let backslashFrom = 0;

/** Makes `bytes` the line being scanned. */
export function startScan(bytes: Buffer): void {
  lineBytes = bytes;
  lineLength = bytes.length;
  words = null;
  nextQuote = nextBackslash = -1;
}

/** Forgets the line scanned (so its buffer can be freed). */
export function endScan(): void {
  lineBytes = EMPTY;
  lineLength = 0;
  words = null;
  nextQuote = nextBackslash = -1;
}

/**
 * Strings are read byte by byte for this long before the word-at-a-time scan
 * takes over (most strings of a ledger line — hashes, ids, times, statuses —
 * are shorter: they never pay for the line's word view).
 */
export const SHORT_RUN = 48;

/**
 * The first index at or after `i` whose byte is not plain string content
 * (printable ASCII other than `"` and `\`), or the line's length. Reads 8
 * bytes per step as two 32-bit words, testing all four bytes of a word at
 * once: any byte ≥ 0x80 (its high bit), < 0x20 or 0x7f (low 7 bits minus
 * 0x20 borrows, plus 1 carries into the high bit), `"` or `\` (a zero byte
 * after XOR). Each test is exact for "some byte of the word is such a byte",
 * so a word passes only when all its bytes are plain; the byte loop then
 * finds the exact index in the first word that did not pass.
 */
function wordRun(i: number): number {
  const b = lineBytes;
  const n = lineLength;
  const w = wordsOfLine();
  while (i < n && (i - wordsBase) % 4 !== 0) {
    if (STR_CLASS[b[i]] !== 0) return i;
    i++;
  }
  if (i >= n) return n;
  let k = (i - wordsBase) / 4;
  const last = w.length - 1;
  for (; k < last; k += 2) {
    const x = w[k];
    const y = w[k + 1];
    const lx = x & 0x7f7f7f7f;
    const ly = y & 0x7f7f7f7f;
    const qx = lx ^ 0x22222222;
    const qy = ly ^ 0x22222222;
    const sx = lx ^ 0x5c5c5c5c;
    const sy = ly ^ 0x5c5c5c5c;
    const bad =
      x |
      y |
      (lx - 0x20202020) |
      (ly - 0x20202020) |
      (lx + 0x01010101) |
      (ly + 0x01010101) |
      ((qx - 0x01010101) & ~qx) |
      ((qy - 0x01010101) & ~qy) |
      ((sx - 0x01010101) & ~sx) |
      ((sy - 0x01010101) & ~sy);
    if ((bad & 0x80808080) !== 0) break;
  }
  i = wordsBase + 4 * k;
  while (i < n && STR_CLASS[b[i]] === 0) i++;
  return i;
}

/** The line's 4-byte-aligned interior as 32-bit words, made on first use for a line. */
function wordsOfLine(): Int32Array {
  if (words === null) {
    const b = lineBytes;
    const off = b.byteOffset;
    wordsBase = (4 - (off % 4)) % 4;
    const count = Math.floor((lineLength - wordsBase) / 4);
    words = count > 0 ? new Int32Array(b.buffer, off + wordsBase, count) : NO_WORDS;
  }
  return words;
}

/**
 * Plain runs at least this long (from where the native scan starts) are
 * proven by native scans; shorter ones by {@link wordRun}.
 */
export const NATIVE_RUN = 256;

/**
 * {@link wordRun}'s answer, found with native scans where it can be: the next
 * `"` and `\\` by `indexOf` (memchr; each remembered until the scan passes
 * it, so a line is searched about once), then the bytes before the nearer of
 * the two checked all printable ASCII — `isAscii` (SIMD) for the high bit,
 * and {@link controlFree} for controls and DEL. When that holds, the nearer
 * one is the answer; otherwise (a byte that is not plain lies before it: the
 * line is not canonical), or for a short run, {@link wordRun} finds the exact index.
 */
function plainRun(i: number): number {
  const b = lineBytes;
  const n = lineLength;
  if (nextQuote < i || i < quoteFrom) {
    nextQuote = b.indexOf(0x22, i);
    if (nextQuote < 0) nextQuote = n;
    quoteFrom = i;
  }
  if (nextBackslash < i || i < backslashFrom) {
    nextBackslash = b.indexOf(0x5c, i);
    if (nextBackslash < 0) nextBackslash = n;
    backslashFrom = i;
  }
  const stop = nextQuote < nextBackslash ? nextQuote : nextBackslash;
  if (stop - i >= NATIVE_RUN && isAscii(b.subarray(i, stop)) && controlFree(i, stop)) return stop;
  return wordRun(i);
}

/**
 * True when no byte of [s, e) is below 0x20 or is 0x7f, for bytes already
 * known to be ASCII (high bit clear). Per 32-bit word: `x - 0x20202020`
 * borrows into a byte's high bit exactly when some byte is below 0x20 (the
 * lowest such byte's lane wraps; without one nothing borrows), and
 * `x + 0x01010101` carries into a high bit exactly at a 0x7f byte (nothing
 * else reaches 0x80). One OR over all words, one test at the end.
 */
function controlFree(s: number, e: number): boolean {
  const b = lineBytes;
  const w = wordsOfLine();
  let i = s;
  while (i < e && (i - wordsBase) % 4 !== 0) {
    const c = b[i++];
    if (c < 0x20 || c === 0x7f) return false;
  }
  let k = (i - wordsBase) >> 2;
  const k1 = k + ((e - i) >> 2);
  let acc = 0;
  for (; k + 4 <= k1; k += 4) {
    const x = w[k];
    const y = w[k + 1];
    const z = w[k + 2];
    const v = w[k + 3];
    acc |=
      (x - 0x20202020) |
      (x + 0x01010101) |
      (y - 0x20202020) |
      (y + 0x01010101) |
      (z - 0x20202020) |
      (z + 0x01010101) |
      (v - 0x20202020) |
      (v + 0x01010101);
  }
  for (; k < k1; k++) acc |= (w[k] - 0x20202020) | (w[k] + 0x01010101);
  if ((acc & 0x80808080) !== 0) return false;
  for (i = wordsBase + 4 * k1; i < e; i++) {
    const c = b[i];
    if (c < 0x20 || c === 0x7f) return false;
  }
  return true;
}

/** Matches literal bytes `lit` at `i`; returns the index after them or -1. */
export function lit(i: number, L: Uint8Array): number {
  const n = L.length;
  if (i < 0 || i + n > lineLength) return -1;
  const b = lineBytes;
  for (let j = 0; j < n; j++) if (b[i + j] !== L[j]) return -1;
  return i + n;
}

/** Index of the literal among `list` found at `i` (each includes its quotes), or -1. */
export function oneOf(i: number, list: readonly Uint8Array[]): number {
  for (let k = 0; k < list.length; k++) if (lit(i, list[k]) >= 0) return k;
  return -1;
}

function hex4(i: number): number {
  const b = lineBytes;
  const a = HEX[b[i]];
  const c = HEX[b[i + 1]];
  const d = HEX[b[i + 2]];
  const e = HEX[b[i + 3]];
  if ((a | c | d | e) < 0) return -1;
  return (a << 12) | (c << 8) | (d << 4) | e;
}

/** A canonical string starting at the quote at `i`; returns the index after its closing quote, or -1. */
export function str(i: number): number {
  const b = lineBytes;
  const n = lineLength;
  let escaped = false;
  i++;
  for (;;) {
    const short = i + SHORT_RUN < n ? i + SHORT_RUN : n;
    while (i < short && STR_CLASS[b[i]] === 0) i++;
    if (i === short && i < n && STR_CLASS[b[i]] === 0) i = plainRun(i);
    if (i >= n) return -1;
    const k = STR_CLASS[b[i]];
    if (k === 1) {
      lastEscaped = escaped;
      return i + 1;
    }
    if (k === 3) return -1;
    escaped = true;
    if (i + 1 >= n) return -1;
    const e = b[i + 1];
    if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      i += 2;
      continue;
    }
    if (e !== 0x75 || i + 6 > n) return -1;
    const code = hex4(i + 2);
    if (code < 0) return -1;
    if (code < 0x20) {
      // \b \t \n \f \r have short forms.
      if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return -1;
    } else if (code < 0x7f) {
      return -1; // printable ASCII is written raw
    } else if (code >= 0xd800 && code <= 0xdfff) {
      // Only a high surrogate immediately followed by a low one (a non-BMP character).
      if (code >= 0xdc00 || i + 12 > n || b[i + 6] !== 0x5c || b[i + 7] !== 0x75) return -1;
      const low = hex4(i + 8);
      if (low < 0xdc00 || low > 0xdfff) return -1;
      i += 12;
      continue;
    }
    i += 6;
  }
}

/** A string value at `i` (quote check included). */
export function strValue(i: number): number {
  return i >= 0 && lineBytes[i] === 0x22 ? str(i) : -1;
}
