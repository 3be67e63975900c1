/**
 * Where each value of an AutoDev JSON document sits, for placing a validation
 * error of `config.json` or a response file at its key's line: the line of a
 * member's key (for array items and the root, of the value itself), built on
 * first use from the offset index of src/core/text/jsonOffsets.ts. Only used
 * on text that already parsed; a path that does not exist falls back to its
 * nearest parent that does.
 */
import { deepestJsonNode, indexJsonOffsets, type JsonOffsetNode, type JsonPath } from "../../text/jsonOffsets";
import { LineIndex } from "../../text/lineIndex";

/** How deep values are indexed (far beyond any config or response file). */
const LOCATE_DEPTH = 200;

/** Python-style display of a path: `tournaments.plan.num_judges`, `agents.developer`, `last_issues.0`. */
export function formatJsonPath(p: JsonPath): string {
  return p.length === 0 ? "(root)" : p.map(String).join(".");
}

/** The lines of the values of one parsed document. */
export class JsonLines {
  private root: JsonOffsetNode | undefined;
  private index: LineIndex | undefined;

  constructor(private readonly text: string) {}

  /** The line of `p` (its key's line for an object member), or of its nearest parent that exists (1 at worst). */
  lineOf(p: JsonPath): number {
    return this.lineAt(deepestJsonNode(this.tree(), p).node);
  }

  /** The line of `p` when the document has it, else undefined. */
  exactLineOf(p: JsonPath): number | undefined {
    const { node, depth } = deepestJsonNode(this.tree(), p);
    return depth === p.length ? this.lineAt(node) : undefined;
  }

  private tree(): JsonOffsetNode {
    return (this.root ??= indexJsonOffsets(this.text, LOCATE_DEPTH));
  }

  private lineAt(node: JsonOffsetNode): number {
    return (this.index ??= new LineIndex(this.text)).lineOf(node.keyOffset ?? node.offset);
  }
}

/** No document: every path is on line 1. */
export const NO_JSON_LINES = new JsonLines("");
