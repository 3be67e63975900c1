/**
 * JSON with positions: strict parsing (JSON.parse decides what is valid, as the hook scripts do)
 * plus a light offset index built by a single iterative scan, so a problem can point at the line
 * of the offending value. Only values up to `INDEX_DEPTH` deep are indexed (deeper ones resolve to
 * their nearest indexed ancestor); scanning a 9 MB state takes a fraction of a second.
 */

/** Maps offsets of a text (UTF-16 units, as JavaScript strings count) to 1-based lines and columns. */
export class LineIndex {
  private readonly starts: Int32Array;

  constructor(text: string) {
    let count = 1;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) count++;
    this.starts = new Int32Array(count);
    let k = 1;
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts[k++] = i + 1;
  }

  /** The 1-based line of `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** The 1-based column of `offset`. */
  columnOf(offset: number): number {
    return offset - this.starts[this.lineOf(offset) - 1] + 1;
  }
}

/** Offsets of a value, of its key (for object members) and of its indexed children. */
interface OffsetNode {
  readonly offset: number;
  keyOffset?: number;
  children?: Map<string | number, OffsetNode>;
}

/** How deep values are indexed (tasks[i].depends_on[j] is depth 4). */
const INDEX_DEPTH = 5;

/** A JSON document that parsed; its offset and line indexes are built on first use (a clean file needs none). */
export class PositionedJson {
  private rootNode: OffsetNode | undefined;
  private lineIndex: LineIndex | undefined;

  constructor(
    readonly value: unknown,
    private readonly text: string,
  ) {}

  /** The offset index. */
  get root(): OffsetNode {
    return (this.rootNode ??= indexOffsets(this.text));
  }

  /** The line index. */
  get lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }
}

/** A JSON document that did not parse, with where and why. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** Whether a char code is JSON whitespace. */
function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** Builds the offset index of valid JSON `text` (iterative: no recursion on hostile nesting). */
function indexOffsets(text: string): OffsetNode {
  const n = text.length;
  let i = 0;
  const skipWs = (): void => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  /** Moves past the string starting at i; returns whether it holds escapes. */
  const skipString = (): boolean => {
    let escaped = false;
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x5c) {
        i++;
        escaped = true;
      } else if (c === 0x22) break;
    }
    i++;
    return escaped;
  };
  const readString = (): string => {
    const start = i;
    const escaped = skipString();
    return escaped ? (JSON.parse(text.slice(start, i)) as string) : text.slice(start + 1, i - 1);
  };
  /** Skips a scalar, or a whole container without indexing it. */
  const skipValue = (): void => {
    const c = text.charCodeAt(i);
    if (c === 0x22) return void skipString();
    if (c !== 0x7b && c !== 0x5b) {
      for (; i < n; i++) {
        const d = text.charCodeAt(i);
        if (isWs(d) || d === 0x2c || d === 0x5d || d === 0x7d) break;
      }
      return;
    }
    let depth = 0;
    while (i < n) {
      const d = text.charCodeAt(i);
      if (d === 0x22) skipString();
      else {
        i++;
        if (d === 0x7b || d === 0x5b) depth++;
        else if ((d === 0x7d || d === 0x5d) && --depth === 0) return;
      }
    }
  };
  skipWs();
  const root: OffsetNode = { offset: i };
  type Frame = { node: OffsetNode; array: boolean; count: number; depth: number };
  const stack: Frame[] = [];
  const open = (node: OffsetNode, depth: number): void => {
    const c = text.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && depth < INDEX_DEPTH) {
      node.children = new Map();
      stack.push({ node, array: c === 0x5b, count: 0, depth });
      i++;
    } else skipValue();
  };
  open(root, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    skipWs();
    const c = text.charCodeAt(i);
    if (c === 0x2c) {
      i++;
      continue;
    }
    if (c === 0x7d || c === 0x5d || i >= text.length) {
      i++;
      stack.pop();
      continue;
    }
    let key: string | number;
    let keyOffset: number | undefined;
    if (frame.array) key = frame.count++;
    else {
      keyOffset = i;
      key = readString();
      skipWs();
      i++; // the colon
      skipWs();
    }
    const child: OffsetNode = { offset: i, keyOffset };
    if (!frame.node.children?.has(key)) frame.node.children?.set(key, child);
    open(child, frame.depth + 1);
  }
  return root;
}

/**
 * The offset of the first syntax error of `text` and what was expected there (a strict JSON
 * validator, iterative, used only after JSON.parse has failed: V8's messages do not always say where).
 */
export function firstSyntaxError(text: string): { offset: number; expected: string } {
  const n = text.length;
  let i = 0;
  const ws = (): void => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const fail = (expected: string): { offset: number; expected: string } => ({ offset: Math.min(i, n), expected });
  /** Reads one scalar at i; returns an error or undefined. Containers are handled by the loop. */
  const scalar = (): { offset: number; expected: string } | undefined => {
    const c = text[i];
    if (c === '"') {
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x22) return void i++;
        if (d < 0x20) return fail("a closing quote (control characters must be escaped)");
        if (d === 0x5c) {
          const e = text[i + 1];
          if (e === "u") {
            if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return (i++, fail("four hex digits after \\u"));
            i += 5;
          } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
          else return (i++, fail("a valid escape"));
        }
      }
      return fail("a closing quote");
    }
    for (const word of ["true", "false", "null"]) {
      if (text.startsWith(word, i)) return void (i += word.length);
    }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m && m[0].length > 0 && m[0] !== "-") return void (i += m[0].length);
    return fail("a value");
  };
  const stack: ("{" | "[")[] = [];
  ws();
  if (i >= n) return fail("a value");
  for (;;) {
    // at the start of a value
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      stack.push(c);
      i++;
      ws();
      if (text[i] === (c === "{" ? "}" : "]")) {
        i++;
        stack.pop();
      } else if (c === "{") {
        if (text[i] !== '"') return fail("a property name in double quotes");
        const err = scalar();
        if (err) return err;
        ws();
        if (text[i] !== ":") return fail("':' after a property name");
        i++;
        continue;
      } else continue;
    } else {
      const err = scalar();
      if (err) return err;
    }
    // after a value: close containers or expect a separator
    for (;;) {
      ws();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < n ? fail("the end of the file") : fail("nothing (the file parsed)");
      const close = top === "{" ? "}" : "]";
      if (text[i] === close) {
        i++;
        stack.pop();
        continue;
      }
      if (text[i] !== ",") return fail(i >= n ? `more (the file ends early: a write cut short?)` : `',' or '${close}'`);
      i++;
      ws();
      if (top === "{") {
        if (text[i] !== '"') return fail("a property name in double quotes");
        const err = scalar();
        if (err) return err;
        ws();
        if (text[i] !== ":") return fail("':' after a property name");
        i++;
      }
      break;
    }
  }
}

/** Parses `text` as strict JSON; on failure says at which line and column, and what was found. */
export function parsePositionedJson(
  text: string,
): { ok: true; json: PositionedJson } | { ok: false; error: JsonSyntaxError } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const lines = new LineIndex(text);
    if (text.trim().length === 0) return { ok: false, error: { line: 1, column: 1, message: "the file is empty" } };
    const { offset, expected } = firstSyntaxError(text);
    const found = offset >= text.length ? "the end of the file" : JSON.stringify(text.slice(offset, offset + 20));
    const message = `expected ${expected}, found ${found} (${String((e as Error).message).slice(0, 80)})`;
    return { ok: false, error: { line: lines.lineOf(offset), column: lines.columnOf(offset), message } };
  }
  return { ok: true, json: new PositionedJson(value, text) };
}

/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** The deepest indexed node along `path` and how many steps it covers. */
function deepest(json: PositionedJson, path: JsonPath): { node: OffsetNode; depth: number } {
  let node = json.root;
  let depth = 0;
  for (const key of path) {
    const next = node.children?.get(key);
    if (!next) break;
    node = next;
    depth++;
  }
  return { node, depth };
}

/**
 * The 1-based line of the value at `path`; when it does not exist, the line of the deepest
 * ancestor that does (a missing field points at its object).
 */
export function lineAtPath(json: PositionedJson, path: JsonPath): number | null {
  return json.lines.lineOf(deepest(json, path).node.offset);
}

/** The 1-based line of the key `key` of the object at `path` (for unknown fields), or of the object. */
export function lineOfKey(json: PositionedJson, path: JsonPath, key: string): number | null {
  const { node, depth } = deepest(json, [...path, key]);
  if (depth === path.length + 1 && node.keyOffset !== undefined) return json.lines.lineOf(node.keyOffset);
  return json.lines.lineOf(node.offset);
}
