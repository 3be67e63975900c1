/**
 * duplicate_candidate_id over many ids: the compact index (src/core/sources/engineState/firstLineIndex.ts)
 * against the plain `Map<string, number>` it replaced, as the reference, on seeded ids of every
 * kind (the writer's 64-hex sha256, uppercase or odd-length hex, any text, lone surrogates,
 * ids that differ only in their last digit), both visitor-level and through a whole check of a
 * generated 30 000-line candidates file.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { SeededRandom } from "../../../src/core/seededRandom";
import { engineStateSource } from "../../../src/core/sources/engineState/engineStateSource";
import { FirstLineIndex } from "../../../src/core/sources/engineState/firstLineIndex";
import { duplicateCandidateIds } from "../../../src/core/sources/engineState/recordViews";
import { PROBLEMS_PER_FILE } from "../../../src/core/sources/sourceProblems";
import { makeWorkspace } from "../../helpers/engineStateWorkspace";

const CANDIDATES = "engine_state/discovery_candidates.jsonl";

/** `count` uint32s as 8 lowercase hex digits each. */
function hex(rng: SeededRandom, count: number): string {
  let out = "";
  for (let i = 0; i < count; i++) out += rng.next().toString(16).padStart(8, "0");
  return out;
}

/** One seeded id of some kind; about a third are repeats of one in `ids`. */
function oneId(rng: SeededRandom, ids: readonly string[]): string {
  const r = rng.float();
  if (ids.length > 0 && r < 0.3) return ids[Math.floor(rng.float() * ids.length)];
  if (r < 0.75) return hex(rng, 8);
  if (r < 0.8) return hex(rng, 8).toUpperCase();
  if (r < 0.85) return hex(rng, 8).slice(0, 63 + Math.floor(rng.float() * 3));
  if (r < 0.9) return `${"0".repeat(63)}${"0123456789abcdef"[rng.next() % 16]}`;
  if (r < 0.95) return String.fromCharCode(...Array.from({ length: rng.next() % 6 }, () => rng.next() % 0x10000));
  return `cand-${rng.next() % 5000}`;
}

/** `count` seeded ids of every kind. */
function seededIds(seed: number, count: number): string[] {
  const rng = new SeededRandom(seed);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(oneId(rng, ids));
  return ids;
}

/** The reference: the first line of each id in a plain Map (the code before the index). */
function mapFirstLines(ids: readonly string[]): (number | undefined)[] {
  const first = new Map<string, number>();
  return ids.map((id, i) => {
    const seen = first.get(id);
    if (seen === undefined) first.set(id, i + 1);
    return seen;
  });
}

describe("engine_state duplicate candidate ids @slow", () => {
  it("FirstLineIndex gives the Map's answer for 100 000 ids of every kind", () => {
    const ids = seededIds(24, 100_000);
    const index = new FirstLineIndex();
    const ours = ids.map((id, i) => index.firstOrAdd(id, i + 1));
    const expected = mapFirstLines(ids);
    assert.ok(expected.filter((x) => x !== undefined).length > 25_000, "the corpus should repeat ids");
    assert.deepEqual(ours, expected);
  });

  it("tells apart ids that pack alike: hex against its uppercase, its sha256-sized text, a lone surrogate", () => {
    const index = new FirstLineIndex();
    const lower = "ab".repeat(32);
    const distinct = [lower, lower.toUpperCase(), lower.slice(1), "\ud800", "\udc00", "", "\u00ab".repeat(32)];
    assert.deepEqual(
      distinct.map((id, i) => index.firstOrAdd(id, i + 1)),
      distinct.map(() => undefined),
    );
    assert.deepEqual(
      distinct.map((id, i) => index.firstOrAdd(id, 100 + i)),
      distinct.map((_, i) => i + 1),
    );
  });

  it("the visitor warns at every repeat, naming the Map's first line", () => {
    const ids = seededIds(7, 20_000);
    const visit = duplicateCandidateIds("c.jsonl");
    const ours = ids.map((id, i) => visit(new Map([["candidate_id", id]]), i + 1).map((p) => p.message));
    const expected = mapFirstLines(ids).map((first) => (first === undefined ? [] : [`of line ${first}:`]));
    assert.equal(ours.length, expected.length);
    for (let i = 0; i < ours.length; i++) {
      assert.equal(ours[i].length, expected[i].length, `line ${i + 1}`);
      if (ours[i].length > 0) assert.ok(ours[i][0].includes(expected[i][0]), `line ${i + 1}: ${ours[i][0]}`);
    }
  });

  it("a 30 000-line candidates file: the check lists the Map's first repeats and counts the rest", async () => {
    // Ids JSON.stringify writes as json.dumps does: no lone surrogates, quotes, backslashes or controls.
    const ids = seededIds(11, 30_000).map((id) =>
      Array.from(id, (c) => (c.charCodeAt(0) < 0x20 || /["\\\ud800-\udfff]/.test(c) ? "x" : c)).join(""),
    );
    const lines = ids.map((id) => `{"candidate_id":${JSON.stringify(id)},"trigger":"would_have_grounded"}`);
    const ws = makeWorkspace({ [CANDIDATES]: lines.map((l) => ensureAscii(l)).join("\n") + "\n" });
    assert.ok(fs.existsSync(path.join(ws, CANDIDATES)));
    const location = await engineStateSource.detect(ws);
    assert.ok(location);
    const problems = [...(await engineStateSource.check(location))];
    const repeats = mapFirstLines(ids).flatMap((first, i) => (first === undefined ? [] : [[i + 1, first]]));
    assert.ok(repeats.length > PROBLEMS_PER_FILE);
    const listed = problems.filter((p) => !/more like this/.test(p.message));
    assert.deepEqual(
      listed.map((p) => [p.line, p.code]),
      repeats.slice(0, PROBLEMS_PER_FILE).map(([line]) => [line, "duplicate_candidate_id"]),
    );
    for (const [k, p] of listed.entries()) assert.match(p.message, new RegExp(`of line ${repeats[k][1]}:`));
    const summary = problems.filter((p) => /more like this/.test(p.message));
    assert.equal(summary.length, 1);
    assert.match(summary[0].message, new RegExp(`^${repeats.length - PROBLEMS_PER_FILE} more like this`));
  });
});

/** A JSON line as `json.dumps(ensure_ascii=True)` writes it (every non-ASCII unit as \uXXXX). */
function ensureAscii(line: string): string {
  return line.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
