/**
 * The error `parsePyJson` throws: Python's exception class, its exact message
 * and its position (code points, line and column, as `JSONDecodeError` has).
 * Re-exported from `pyJsonParse.ts`, where most callers import it.
 */

/** The Python exception class a rejected document raises. */
export type PyJsonErrorKind = "JSONDecodeError" | "ValueError" | "RecursionError";

/** A document Python's `json.loads` rejects, with Python's exception type, message and position. */
export class PyJsonError extends Error {
  override readonly name = "PyJsonError";

  constructor(
    /** The Python exception class `json.loads` raises for this document. */
    readonly kind: PyJsonErrorKind,
    /** The bare message without position, like `JSONDecodeError.msg`. */
    readonly msg: string,
    /** Position in code points (Python's `pos`; a lone surrogate counts as one). */
    readonly pos: number,
    /** The same position as a UTF-16 index into the JavaScript string. */
    readonly index: number,
    /** 1-based line of `pos`. */
    readonly lineno: number,
    /** 1-based column of `pos`, in code points. */
    readonly colno: number,
  ) {
    super(kind === "JSONDecodeError" ? `${msg}: line ${lineno} column ${colno} (char ${pos})` : msg);
  }

  /** Builds the error for `msg` at UTF-16 index `index` of `text`, computing Python's line/column. */
  static at(text: string, index: number, msg: string, kind: PyJsonErrorKind = "JSONDecodeError"): PyJsonError {
    const lastNewline = index > 0 ? text.lastIndexOf("\n", index - 1) : -1;
    let lineno = 1;
    for (let i = text.indexOf("\n"); i >= 0 && i < index; i = text.indexOf("\n", i + 1)) lineno++;
    const pos = codePointCount(text, 0, index);
    const colno = codePointCount(text, lastNewline + 1, index) + 1;
    return new PyJsonError(kind, msg, pos, index, lineno, colno);
  }
}

/** Number of Python code points in `text[from, to)`: a surrogate pair counts once. */
function codePointCount(text: string, from: number, to: number): number {
  let count = to - from;
  for (let i = from; i + 1 < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}
