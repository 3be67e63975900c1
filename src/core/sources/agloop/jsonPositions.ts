/**
 * JSON with positions: strict parsing (JSON.parse decides what is valid, as the hook scripts do)
 * plus `jsonc-parser`'s syntax tree, so a problem can point at the line of the offending value.
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from "jsonc-parser";

/** Maps byte offsets of a text (UTF-16 offsets, as JavaScript strings count) to 1-based lines. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) this.starts.push(i + 1);
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

/** A JSON document that parsed, with its tree for positions. */
export interface PositionedJson {
  readonly value: unknown;
  readonly root: Node | undefined;
  readonly lines: LineIndex;
}

/** A JSON document that did not parse, with where and why. */
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

/** The first syntax error jsonc-parser sees in strict mode (no comments, no trailing commas). */
function firstStrictError(text: string): ParseError | undefined {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  return errors[0];
}

/** Parses `text` as strict JSON; on failure says at which line and column, and what was found. */
export function parsePositionedJson(text: string): { ok: true; json: PositionedJson } | { ok: false; error: JsonSyntaxError } {
  const lines = new LineIndex(text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const strict = firstStrictError(text);
    if (text.trim().length === 0) return { ok: false, error: { line: 1, column: 1, message: "the file is empty" } };
    if (strict) {
      const found = text.slice(strict.offset, strict.offset + 20);
      const what = printParseErrorCode(strict.error);
      const at = strict.offset >= text.length ? "the file ends early (a write cut short?)" : `found ${JSON.stringify(found)}`;
      return { ok: false, error: { line: lines.lineOf(strict.offset), column: lines.columnOf(strict.offset), message: `${what}: ${at}` } };
    }
    const m = /position (\d+)/.exec(String((e as Error).message));
    const offset = m ? Number(m[1]) : 0;
    return { ok: false, error: { line: lines.lineOf(offset), column: lines.columnOf(offset), message: String((e as Error).message) } };
  }
  const root = parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
  return { ok: true, json: { value, root, lines } };
}

/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/**
 * The 1-based line of the value at `path`; when it does not exist, the line of the deepest
 * ancestor that does (a missing field points at its object).
 */
export function lineAtPath(json: PositionedJson, path: JsonPath): number | null {
  if (!json.root) return null;
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(json.root, [...path.slice(0, depth)]);
    if (node) return json.lines.lineOf(node.offset);
  }
  return json.lines.lineOf(json.root.offset);
}

/** The 1-based line of the key `key` of the object at `path` (for unknown fields), or of the object. */
export function lineOfKey(json: PositionedJson, path: JsonPath, key: string): number | null {
  const node = json.root ? findNodeAtLocation(json.root, [...path, key]) : undefined;
  const property = node?.parent;
  if (property && property.type === "property") return json.lines.lineOf(property.offset);
  return lineAtPath(json, path);
}
