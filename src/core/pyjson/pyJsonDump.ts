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
import { AsciiSink, keysIfNotInPythonOrder } from "./pyJsonStrings";
import { PyFloat, type PyObject, type PyValue } from "./pyValue";

export { comparePyStrings, pyJsonQuote } from "./pyJsonStrings";

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

/** Nesting beyond which the writer checks its path for a cycle. */
const CYCLE_CHECK_DEPTH = 1000;

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
