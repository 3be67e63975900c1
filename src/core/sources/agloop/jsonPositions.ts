/**
 * JSON with positions: strict parsing (JSON.parse decides what is valid, as the hook scripts do)
 * plus the offset index of src/core/text/jsonOffsets.ts, built on first use, so a problem can
 * point at the line of the offending value. Only values up to `INDEX_DEPTH` deep are indexed
 * (deeper ones resolve to their nearest indexed ancestor); scanning a 9 MB state takes a
 * fraction of a second.
 */
import { deepestJsonNode, lazyJsonOffsets, type JsonOffsetNode, type JsonPath } from "../../text/jsonOffsets";
import { firstSyntaxError } from "../../text/jsonSyntaxError";
import { LineIndex } from "../../text/lineIndex";

/** How deep values are indexed (tasks[i].depends_on[j] is depth 4). */
const INDEX_DEPTH = 5;

/** A JSON document that parsed; its offset and line indexes are built on first use (a clean file needs none). */
export class PositionedJson {
  private rootNode: JsonOffsetNode | undefined;
  private lineIndex: LineIndex | undefined;

  constructor(
    readonly value: unknown,
    private readonly text: string,
  ) {}

  /** The offset index. */
  get root(): JsonOffsetNode {
    return (this.rootNode ??= lazyJsonOffsets(this.text, INDEX_DEPTH));
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

/**
 * The 1-based line of the value at `path`; when it does not exist, the line of the deepest
 * ancestor that does (a missing field points at its object).
 */
export function lineAtPath(json: PositionedJson, path: JsonPath): number | null {
  return json.lines.lineOf(deepestJsonNode(json.root, path).node.offset);
}

/** The 1-based line of the key `key` of the object at `path` (for unknown fields), or of the object. */
export function lineOfKey(json: PositionedJson, path: JsonPath, key: string): number | null {
  const { node, depth } = deepestJsonNode(json.root, [...path, key]);
  if (depth === path.length + 1 && node.keyOffset !== undefined) return json.lines.lineOf(node.keyOffset);
  return json.lines.lineOf(node.offset);
}
