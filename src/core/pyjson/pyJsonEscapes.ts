/**
 * The slow path of `json.loads` strings (pyJsonParse.ts): a string holding
 * backslash escapes or a control character, decoded as CPython's scanner
 * does, with its error messages and positions.
 */
import { PyJsonError } from "./pyJsonError";

/** What each single-character escape (`\n`, `\"`, …) stands for, by the escape's char code. */
const SHORT_ESCAPES: readonly (string | undefined)[] = (() => {
  const table: (string | undefined)[] = new Array(128).fill(undefined);
  const pairs: [string, string][] = [
    ['"', '"'],
    ["\\", "\\"],
    ["/", "/"],
    ["b", "\b"],
    ["f", "\f"],
    ["n", "\n"],
    ["r", "\r"],
    ["t", "\t"],
  ];
  for (const [escape, value] of pairs) table[escape.charCodeAt(0)] = value;
  return table;
})();

/** Hex digit values by char code (-1: not a hex digit). */
const HEX_VALUE: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 10; i++) table[0x30 + i] = i;
  for (let i = 0; i < 6; i++) table[0x41 + i] = table[0x61 + i] = 10 + i;
  return table;
})();

/** Value of the four hex digits at `s[at..at+4)`, or -1 if any is not a hex digit. */
function hex4(s: string, at: number): number {
  let code = 0;
  for (let k = at; k < at + 4; k++) {
    const c = s.charCodeAt(k);
    const digit = c < 128 ? HEX_VALUE[c] : -1;
    if (digit < 0) return -1;
    code = (code << 4) | digit;
  }
  return code;
}

/**
 * Decodes the string whose opening quote is at `quote`, continuing at `from`
 * (the first backslash, control character or the end): its value and the
 * index after its closing quote. Throws {@link PyJsonError} where Python raises.
 */
export function scanEscapedString(
  s: string,
  quote: number,
  from: number,
): { readonly text: string; readonly end: number } {
  const n = s.length;
  let out = s.slice(quote + 1, from);
  let i = from;
  for (;;) {
    if (i >= n) throw PyJsonError.at(s, quote, "Unterminated string starting at");
    const c = s.charCodeAt(i);
    if (c === 0x22) return { text: out, end: i + 1 };
    if (c < 0x20) throw PyJsonError.at(s, i, "Invalid control character at");
    // c is a backslash
    if (i + 1 >= n) throw PyJsonError.at(s, quote, "Unterminated string starting at");
    const escape = s.charCodeAt(i + 1);
    if (escape === 0x75) {
      // \uXXXX: Python wants the four digits and at least one more character.
      const u = i + 1;
      const code = u + 5 < n ? hex4(s, u + 1) : -1;
      if (code < 0) throw PyJsonError.at(s, u, "Invalid \\uXXXX escape");
      out += String.fromCharCode(code);
      i = u + 5;
    } else {
      const decoded = escape < 128 ? SHORT_ESCAPES[escape] : undefined;
      if (decoded === undefined) throw PyJsonError.at(s, i, "Invalid \\escape");
      out += decoded;
      i += 2;
    }
    const run = i;
    while (i < n) {
      const d = s.charCodeAt(i);
      if (d === 0x22 || d === 0x5c || d < 0x20) break;
      i++;
    }
    if (i > run) out += s.slice(run, i);
  }
}
