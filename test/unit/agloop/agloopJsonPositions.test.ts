/**
 * The strict JSON validator that places syntax errors (V8's messages do not always carry a
 * position) is checked differentially against JSON.parse on seeded mutations of a hook-written
 * state.json; the offset index gives the line of values, keys and array elements.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { lineAtPath, lineOfKey, parsePositionedJson } from "../../../src/core/sources/agloop/jsonPositions";
import { firstSyntaxError } from "../../../src/core/text/jsonSyntaxError";
import { fixtureLocation } from "../helpers/agloopFixtures";
import { SeededRandom } from "../../../src/core/seededRandom";

/** Numbers in [0, 1) from the repository's one seeded generator. */
function prng(seed: number): () => number {
  const r = new SeededRandom(seed);
  return () => r.float();
}

describe("agloop JSON positions", () => {
  const text = fs.readFileSync(path.join(fixtureLocation("agloop-clean").dir, "state.json"), "utf8");

  it("agrees with JSON.parse on 600 seeded mutations (valid ⇔ no error found)", () => {
    const rnd = prng(13);
    const pieces = ['"', ",", "}", "]", "{", "[", ":", "\\", "x", "1", " ", "\n", "tru", "-", "\u0001"];
    let invalid = 0;
    for (let k = 0; k < 600; k++) {
      const at = Math.floor(rnd() * text.length);
      const op = k % 3;
      const mutated =
        op === 0
          ? text.slice(0, at) + text.slice(at + 1)
          : op === 1
            ? text.slice(0, at) + pieces[Math.floor(rnd() * pieces.length)] + text.slice(at)
            : text.slice(0, at);
      let parses = true;
      try {
        JSON.parse(mutated);
      } catch {
        parses = false;
      }
      const found = firstSyntaxError(mutated);
      assert.equal(
        found.expected === "nothing (the file parsed)",
        parses,
        `mutation ${k} (op ${op} at ${at}): ${found.expected}`,
      );
      if (!parses) {
        invalid++;
        assert.ok(found.offset <= mutated.length);
        const r = parsePositionedJson(mutated);
        assert.equal(r.ok, false);
      }
    }
    assert.ok(invalid > 300, `most mutations break the JSON (${invalid})`);
  });

  it("lines of values, keys and array elements", () => {
    const r = parsePositionedJson(text);
    assert.ok(r.ok);
    if (!r.ok) return;
    const lines = text.split("\n");
    const lineOf = (needle: string): number => lines.findIndex((l) => l.includes(needle)) + 1;
    assert.equal(lineAtPath(r.json, ["current_phase"]), lineOf('"current_phase"'));
    assert.equal(
      lineAtPath(r.json, ["tasks", 2, "depends_on", 1]),
      lineOf('"task-002"') > 0
        ? lines.findIndex((l, i) => i > lineOf('"id": "task-003"') && l.trim() === '"task-002"') + 1
        : -1,
    );
    assert.equal(
      lineAtPath(r.json, ["tasks", 0, "no_such_field"]),
      lineOf('"tasks": [') + 1,
      "a missing field → its object",
    );
    assert.equal(lineOfKey(r.json, [], "stop_hook_active"), lineOf('"stop_hook_active"'));
    assert.equal(lineAtPath(r.json, ["tasks", 0, "failure_modes", 0, "mode"]), lineOf('"mode": "Search endpoint'));
  });
});
