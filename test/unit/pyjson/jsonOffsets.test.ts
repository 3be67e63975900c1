// The position-aware JSON walker shared by agloop (JSON.parse documents) and AutoDev's config and
// responses (Python's json.loads, so NaN and Infinity too): lines of keys, items and missing paths,
// a repeated key at its last value (the one both parsers keep), and hostile nesting without recursion.
import { strict as assert } from "node:assert";
import { JsonLines } from "../../../src/core/sources/autodev/jsonLocate";
import * as fs from "node:fs";
import * as path from "node:path";
import { deepestJsonNode, indexJsonOffsets, lazyJsonOffsets, type JsonPath } from "../../../src/core/text/jsonOffsets";

describe("JSON offsets (text/jsonOffsets.ts)", () => {
  const text = [
    "{",
    '  "a": {',
    '    "b": [',
    "      1,",
    "      NaN",
    "    ],",
    '    "k\\u00e9y": -Infinity',
    "  },",
    '  "a2": 2,',
    '  "a2": 3',
    "}",
  ].join("\n");

  it("puts members at their key's line, items and the root at their value's line", () => {
    const lines = new JsonLines(text);
    assert.equal(lines.lineOf([]), 1);
    assert.equal(lines.lineOf(["a"]), 2);
    assert.equal(lines.lineOf(["a", "b"]), 3);
    assert.equal(lines.lineOf(["a", "b", 1]), 5);
    assert.equal(lines.lineOf(["a", "kéy"]), 7, "an escaped key is found by its decoded name");
    assert.equal(lines.lineOf(["a", "missing", 3]), 2, "a missing path falls back to its nearest parent");
    assert.equal(lines.exactLineOf(["a", "missing"]), undefined);
    assert.equal(lines.lineOf(["a2"]), 10, "a repeated key is at its last occurrence");
  });

  it("indexes only to the depth asked, and survives nesting far deeper than the stack", () => {
    const shallow = indexJsonOffsets(text, 1);
    assert.equal(deepestJsonNode(shallow, ["a", "b"]).depth, 1);
    const deep = "[".repeat(200_000) + "]".repeat(200_000);
    const root = indexJsonOffsets(deep, 1_000_000);
    assert.equal(deepestJsonNode(root, Array(1000).fill(0)).depth, 1000);
  });

  it("the lazy index finds what the full index finds, on every path of a real state.json and of the text above", () => {
    const state = fs.readFileSync(
      path.join(__dirname, "../../../../test/fixtures/agloop-clean/.agloop/state.json"),
      "utf8",
    );
    for (const doc of [text, state, '  {"a\\"b": [1, {"c": "}"}], "a\\"b": {"d": "]"}}  ', "[]", "7"]) {
      for (const depth of [0, 1, 2, 5]) {
        const full = indexJsonOffsets(doc, depth);
        const lazy = lazyJsonOffsets(doc, depth);
        // Every path the full index holds, plus one missing step below each.
        const paths: JsonPath[] = [];
        const walk = (node: ReturnType<typeof indexJsonOffsets>, at: JsonPath): void => {
          paths.push(at, [...at, "missing"], [...at, 99]);
          for (const [k, child] of node.children ?? []) walk(child, [...at, k]);
        };
        walk(full, []);
        assert.ok(doc !== state || depth < 2 || paths.length > 30, "the walk saw the state's members");
        for (const p of paths) {
          const a = deepestJsonNode(full, p);
          const b = deepestJsonNode(lazy, p);
          assert.deepEqual(
            [b.depth, b.node.offset, b.node.keyOffset],
            [a.depth, a.node.offset, a.node.keyOffset],
            `${JSON.stringify(p)} at depth ${depth}`,
          );
        }
      }
    }
  });
});
