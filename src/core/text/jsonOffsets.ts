/**
 * Where the values of a JSON document sit: one iterative scan of text that
 * already parsed (by `JSON.parse` or Python's rules, so `NaN` and `Infinity`
 * too) builds a tree of offsets — of each value, of each member's key — that
 * a Problem uses to point at the line of the value it is about. No recursion,
 * so hostile nesting cannot overflow the stack; values deeper than a chosen
 * depth are skipped and resolve to their nearest indexed ancestor.
 *
 * It lives in text/ (not pyjson/) because it is about positions in a text and
 * serves both JSON dialects: agloop's state (JSON.parse) and AutoDev's config
 * and responses (Python's json.loads).
 */

/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** Offsets of a value, of its key (for object members) and of its indexed children. */
export interface JsonOffsetNode {
  /** Offset of the value's first character (UTF-16 units). */
  readonly offset: number;
  /** Offset of the opening quote of its key, for an object member. */
  readonly keyOffset?: number;
  /** Indexed members (by key; a repeated key keeps its last value, as both parsers do) or items (by index). */
  children?: Map<string | number, JsonOffsetNode>;
}

/** Whether a char code is JSON whitespace. */
function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The end (one past) of the string whose opening quote is at `i`. */
function stringEnd(text: string, i: number): number {
  const n = text.length;
  for (i++; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c) i++;
    else if (c === 0x22) break;
  }
  return i + 1;
}

/** The end (one past) of the value at `i`: a string, a scalar, or a whole container. */
function valueEnd(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i);
  if (c !== 0x7b && c !== 0x5b) {
    for (; i < n; i++) {
      const d = text.charCodeAt(i);
      if (isWs(d) || d === 0x2c || d === 0x5d || d === 0x7d) break;
    }
    return i;
  }
  let depth = 0;
  while (i < n) {
    const d = text.charCodeAt(i);
    if (d === 0x22) i = stringEnd(text, i);
    else {
      i++;
      if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i;
    }
  }
  return i;
}

/** The name of the string from `i` (its opening quote) to `end`, decoded when it has escapes. */
function stringValue(text: string, i: number, end: number): string {
  const raw = text.slice(i + 1, end - 1);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(text.slice(i, end)) as string;
  } catch {
    return raw;
  }
}

/** A node of {@link lazyJsonOffsets}: its members are found when first asked for. */
class LazyOffsetNode implements JsonOffsetNode {
  private members: Map<string | number, JsonOffsetNode> | null | undefined;

  constructor(
    private readonly text: string,
    readonly offset: number,
    readonly keyOffset: number | undefined,
    private readonly levelsLeft: number,
  ) {}

  get children(): Map<string | number, JsonOffsetNode> | undefined {
    if (this.members === undefined) this.members = this.scan();
    return this.members ?? undefined;
  }

  /** One pass over this container's members (nested values skipped, not indexed). */
  private scan(): Map<string | number, JsonOffsetNode> | null {
    const text = this.text;
    const n = text.length;
    const open = text.charCodeAt(this.offset);
    if (this.levelsLeft <= 0 || (open !== 0x7b && open !== 0x5b)) return null;
    const out = new Map<string | number, JsonOffsetNode>();
    const array = open === 0x5b;
    let i = this.offset + 1;
    let count = 0;
    const ws = (): void => {
      while (i < n && isWs(text.charCodeAt(i))) i++;
    };
    for (;;) {
      ws();
      const c = text.charCodeAt(i);
      if (c === 0x2c) {
        i++;
        continue;
      }
      if (c === 0x7d || c === 0x5d || i >= n) return out;
      let key: string | number = count;
      let keyOffset: number | undefined;
      if (array) count++;
      else {
        keyOffset = i;
        const end = stringEnd(text, i);
        key = stringValue(text, i, end);
        i = end;
        ws();
        i++; // the colon
        ws();
      }
      out.set(key, new LazyOffsetNode(text, i, keyOffset, this.levelsLeft - 1));
      i = valueEnd(text, i);
    }
  }
}

/**
 * The offset tree of {@link indexJsonOffsets}, built lazily: a container's members are found
 * (one pass over it, nested values skipped) only when a lookup goes through it. For a big document
 * with few lookups (a state file with some problems); a lookup costs a pass over each container on
 * its path, so keep `maxDepth` small (a deep path in a deeply nested text costs its depth times the text).
 */
export function lazyJsonOffsets(text: string, maxDepth: number): JsonOffsetNode {
  let i = 0;
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return new LazyOffsetNode(text, i, undefined, maxDepth);
}

/**
 * Builds the offset tree of `text`, a JSON document that parsed, indexing
 * containers up to `maxDepth` levels below the root (the root is depth 0).
 * On text that did not parse the result is incomplete, never an exception.
 */
export function indexJsonOffsets(text: string, maxDepth: number): JsonOffsetNode {
  const n = text.length;
  let i = 0;
  const skipWs = (): void => {
    while (i < n && isWs(text.charCodeAt(i))) i++;
  };
  const readString = (): string => {
    const start = i;
    i = stringEnd(text, i);
    return stringValue(text, start, i);
  };
  /** Skips a scalar, or a whole container without indexing it. */
  const skipValue = (): void => {
    i = valueEnd(text, i);
  };
  skipWs();
  const root: JsonOffsetNode = { offset: i };
  type Frame = { node: JsonOffsetNode; array: boolean; count: number; depth: number };
  const stack: Frame[] = [];
  const open = (node: JsonOffsetNode, depth: number): void => {
    const c = text.charCodeAt(i);
    if ((c === 0x7b || c === 0x5b) && depth < maxDepth) {
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
    if (c === 0x7d || c === 0x5d || i >= n) {
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
    const child: JsonOffsetNode = keyOffset === undefined ? { offset: i } : { offset: i, keyOffset };
    frame.node.children?.set(key, child);
    open(child, frame.depth + 1);
  }
  return root;
}

/** The deepest indexed node along `path` and how many of its steps exist. */
export function deepestJsonNode(root: JsonOffsetNode, path: JsonPath): { node: JsonOffsetNode; depth: number } {
  let node = root;
  let depth = 0;
  for (const key of path) {
    const next = node.children?.get(key);
    if (!next) break;
    node = next;
    depth++;
  }
  return { node, depth };
}
