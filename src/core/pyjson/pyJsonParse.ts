/**
 * `json.loads` of CPython 3.11, value for value and error for error.
 *
 * A hand-written scanner over `charCodeAt`: it accepts exactly what Python's
 * (C-accelerated) decoder accepts, builds the {@link PyValue} model, and on
 * failure throws a {@link PyJsonError} whose message is byte-identical to
 * `str(exception)` in Python, positions counted in code points as Python does.
 */
import { PyJsonError } from "./pyJsonError";
import { scanEscapedString } from "./pyJsonEscapes";
import { PyFloat, pyInt, type PyObject, type PyValue } from "./pyValue";

export { PyJsonError } from "./pyJsonError";

/**
 * Deepest container nesting accepted. CPython raises `RecursionError` past
 * about 1000 minus the caller's stack depth; 995 is what a top-level
 * `json.loads` call in a script accepts.
 */
export const PY_JSON_MAX_DEPTH = 995;

/** Python's default `sys.get_int_max_str_digits()`: longest int literal it converts. */
const PY_INT_MAX_STR_DIGITS = 4300;

/** True for JSON whitespace as Python knows it: space, tab, LF, CR. */
function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * Parses `text` as Python's `json.loads(text)` does.
 * Ints stay exact (`number` when safe, else `bigint`), floats become {@link PyFloat},
 * objects become insertion-ordered `Map`s (a repeated key keeps its first place and
 * its last value). Throws {@link PyJsonError} wherever Python raises.
 */
export function parsePyJson(text: string): PyValue {
  if (text.charCodeAt(0) === 0xfeff) {
    throw PyJsonError.at(text, 0, "Unexpected UTF-8 BOM (decode using utf-8-sig)");
  }
  const scanner = new PyJsonScanner(text);
  scanner.skipWhitespace();
  const value = scanner.value(0);
  scanner.skipWhitespace();
  if (scanner.i !== text.length) throw PyJsonError.at(text, scanner.i, "Extra data");
  return value;
}

/** Recursive-descent scanner; `i` is the cursor, always a UTF-16 index into `s`. */
class PyJsonScanner {
  i = 0;
  private readonly n: number;

  constructor(private readonly s: string) {
    this.n = s.length;
  }

  skipWhitespace(): void {
    const s = this.s;
    let i = this.i;
    while (i < this.n && isWhitespace(s.charCodeAt(i))) i++;
    this.i = i;
  }

  private fail(index: number, msg: string): PyJsonError {
    return PyJsonError.at(this.s, index, msg);
  }

  /** Reads the value at the cursor; `depth` is the number of enclosing containers. */
  value(depth: number): PyValue {
    const s = this.s;
    const i = this.i;
    switch (s.charCodeAt(i)) {
      case 0x22: // "
        return this.string(i);
      case 0x7b: // {
        return this.object(i, depth + 1);
      case 0x5b: // [
        return this.array(i, depth + 1);
      case 0x6e: // n
        if (s.startsWith("null", i)) return this.literal(4, null);
        break;
      case 0x74: // t
        if (s.startsWith("true", i)) return this.literal(4, true);
        break;
      case 0x66: // f
        if (s.startsWith("false", i)) return this.literal(5, false);
        break;
      case 0x4e: // N
        if (s.startsWith("NaN", i)) return this.literal(3, new PyFloat(NaN));
        break;
      case 0x49: // I
        if (s.startsWith("Infinity", i)) return this.literal(8, new PyFloat(Infinity));
        break;
      case 0x2d: // -
        if (s.startsWith("-Infinity", i)) return this.literal(9, new PyFloat(-Infinity));
        return this.number(i);
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
        return this.number(i);
    }
    throw this.fail(i, "Expecting value");
  }

  private literal(length: number, value: PyValue): PyValue {
    this.i += length;
    return value;
  }

  private object(start: number, depth: number): PyObject {
    if (depth > PY_JSON_MAX_DEPTH) throw recursionError(this.s, start, "object");
    const s = this.s;
    const n = this.n;
    const result: PyObject = new Map();
    this.i = start + 1;
    this.skipWhitespace();
    if (this.i < n && s.charCodeAt(this.i) === 0x7d) {
      this.i++;
      return result;
    }
    for (;;) {
      if (this.i >= n || s.charCodeAt(this.i) !== 0x22) {
        throw this.fail(this.i, "Expecting property name enclosed in double quotes");
      }
      const key = this.string(this.i);
      this.skipWhitespace();
      if (this.i >= n || s.charCodeAt(this.i) !== 0x3a) throw this.fail(this.i, "Expecting ':' delimiter");
      this.i++;
      this.skipWhitespace();
      result.set(key, this.value(depth));
      this.skipWhitespace();
      const c = s.charCodeAt(this.i);
      if (c === 0x7d) {
        this.i++;
        return result;
      }
      if (c !== 0x2c) throw this.fail(this.i, "Expecting ',' delimiter");
      this.i++;
      this.skipWhitespace();
    }
  }

  private array(start: number, depth: number): PyValue[] {
    if (depth > PY_JSON_MAX_DEPTH) throw recursionError(this.s, start, "array");
    const s = this.s;
    const result: PyValue[] = [];
    this.i = start + 1;
    this.skipWhitespace();
    if (s.charCodeAt(this.i) === 0x5d) {
      this.i++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth));
      this.skipWhitespace();
      const c = s.charCodeAt(this.i);
      if (c === 0x5d) {
        this.i++;
        return result;
      }
      if (c !== 0x2c) throw this.fail(this.i, "Expecting ',' delimiter");
      this.i++;
      this.skipWhitespace();
    }
  }

  /** Reads the string whose opening quote is at `quote`; fast path: no escapes. */
  private string(quote: number): string {
    const s = this.s;
    const n = this.n;
    let i = quote + 1;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c === 0x22) {
        this.i = i + 1;
        return s.slice(quote + 1, i);
      }
      if (c === 0x5c || c < 0x20) break;
    }
    const decoded = scanEscapedString(s, quote, i);
    this.i = decoded.end;
    return decoded.text;
  }

  /** Reads a number starting at `start` (a '-' or a digit), as Python's number regex does. */
  private number(start: number): number | bigint | PyFloat {
    const s = this.s;
    const n = this.n;
    let i = start;
    let c = s.charCodeAt(i);
    const negative = c === 0x2d;
    if (negative) c = s.charCodeAt(++i);
    let small = 0;
    if (c === 0x30) {
      i++;
    } else if (c >= 0x31 && c <= 0x39) {
      small = c - 0x30;
      for (i++; i < n; i++) {
        c = s.charCodeAt(i);
        if (c < 0x30 || c > 0x39) break;
        small = small * 10 + (c - 0x30);
      }
    } else {
      throw this.fail(start, "Expecting value");
    }
    const intEnd = i;
    let isFloat = false;
    c = s.charCodeAt(i);
    if (c === 0x2e && isDigit(s.charCodeAt(i + 1))) {
      isFloat = true;
      for (i += 2; i < n && isDigit(s.charCodeAt(i)); i++);
      c = s.charCodeAt(i);
    }
    if (c === 0x65 || c === 0x45) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (sign === 0x2b || sign === 0x2d) j++;
      const exponentStart = j;
      while (j < n && isDigit(s.charCodeAt(j))) j++;
      if (j > exponentStart) {
        isFloat = true;
        i = j;
      }
    }
    this.i = i;
    if (isFloat) return new PyFloat(Number(s.slice(start, i)));
    const digitCount = intEnd - start - (negative ? 1 : 0);
    if (digitCount <= 15) return negative ? 0 - small : small;
    if (digitCount > PY_INT_MAX_STR_DIGITS) {
      throw PyJsonError.at(
        s,
        start,
        `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion: ` +
          `value has ${digitCount} digits; use sys.set_int_max_str_digits() to increase the limit`,
        "ValueError",
      );
    }
    return pyInt(BigInt(s.slice(start, intEnd)));
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function recursionError(text: string, index: number, what: "array" | "object"): PyJsonError {
  const msg = `maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`;
  return PyJsonError.at(text, index, msg, "RecursionError");
}
