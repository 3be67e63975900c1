// One "is this path inside?" (issue 33, one of each helper): src/core/fs/pathInside.ts, and no
// inline `rel.startsWith("..")` left beside it.
import { strict as assert } from "node:assert";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isBelow, isInside, relativeInside } from "../../../src/core/fs/pathInside";

const ROOT = join(__dirname, "../../../..");

describe("pathInside: one confinement test", () => {
  it("inside, below, outside, and names that only start with two dots", () => {
    assert.equal(relativeInside("/w", "/w"), "");
    assert.equal(relativeInside("/w", "/w/a/b"), "a/b");
    assert.equal(relativeInside("/w", "/w/..notes"), "..notes", "a name starting with .. is inside");
    assert.equal(relativeInside("/w", "/w/a/../..x"), "..x");
    assert.equal(relativeInside("/w", "/"), null);
    assert.equal(relativeInside("/w", "/w2"), null);
    assert.equal(relativeInside("/w", "/w/../x"), null);
    assert.equal(isInside("/w", "/w"), true);
    assert.equal(isBelow("/w", "/w"), false);
    assert.equal(isBelow("/w", "/w/..notes"), true);
  });

  it("no source file tests confinement inline", () => {
    const files: string[] = [];
    const walk = (d: string): void => {
      for (const f of readdirSync(d)) {
        const p = join(d, f);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith(".ts")) files.push(p);
      }
    };
    walk(join(ROOT, "src"));
    const inline = files.filter((f) => /\.startsWith\("\.\."\)/.test(readFileSync(f, "utf8")));
    assert.deepEqual(
      inline.map((f) => f.slice(ROOT.length + 1)),
      [],
    );
  });
});
