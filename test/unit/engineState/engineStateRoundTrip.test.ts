/**
 * ADR-0146's round-trip invariant, differential against python3:
 * - a seeded corpus of objects written by python3 exactly as the writer writes JSONL (both
 *   ensure_ascii forms) is read by the engine_state source without a problem, and our
 *   re-serialization of every line gives the file's bytes back;
 * - a seeded corpus of mutated lines is flagged line for line exactly where python3 says the
 *   line would not re-serialize to itself (or does not load at all).
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pyStrip } from "../../../src/core/pyjson/pyBuiltins";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { canonicalDump } from "../../../src/core/sources/engineState/canonicalJsonLine";
import { checkJsonlFile } from "../../../src/core/sources/engineState/jsonlCheck";
import type { SourceProblem } from "../../../src/core/sources/stateSource";
import { SeededRandom } from "../../../src/core/seededRandom";
import { mutateLine } from "../../helpers/jsonLineMutations";
import { REPO_ROOT } from "../fixtures";

const ORACLE = path.join(REPO_ROOT, "test/python/oracles/engine_state_oracle.py");
const SEED = 0x0146;
const COUNT = 1500;

function python(...args: string[]): string {
  const run = spawnSync("python3", [ORACLE, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout;
}

/** Our verdict per line, in the oracle's words. */
function verdicts(problems: readonly SourceProblem[], lines: number, blank: (lineNo: number) => boolean): string[] {
  const out: string[] = Array.from({ length: lines }, () => "ok");
  for (const p of problems) {
    if (p.line === null) continue;
    const i = p.line - 1;
    if (p.code === "invalid_json") out[i] = "invalid";
    else if (p.code === "unloadable_line") out[i] = "unloadable";
    else if (p.code === "non_canonical_line") out[i] = blank(p.line) ? "blank" : "non_canonical";
    else if (p.code !== "duplicate_candidate_id" && p.code !== "missing_final_newline") out[i] = p.code;
  }
  return out;
}

describe("engine_state round trip against python3 @slow", function () {
  this.timeout(300_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "engine-roundtrip-"));
    python("write", String(SEED), String(COUNT), dir);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const [name, ensureAscii] of [
    ["ascii.jsonl", true],
    ["unicode.jsonl", false],
  ] as const) {
    it(`reads python3's ${name} without a problem and re-serializes it byte for byte`, async () => {
      const file = path.join(dir, name);
      const problems: SourceProblem[] = [];
      const model = await checkJsonlFile(file, name, dir, problems);
      assert.deepEqual(
        problems.filter((p) => p.code !== "duplicate_candidate_id"),
        [],
      );
      assert.equal(model.records, COUNT);
      const bytes = fs.readFileSync(file);
      const lines = bytes.toString("utf8").split("\n");
      assert.equal(lines.pop(), "", "the writer ends the file with a newline");
      const again = lines.map((line) => canonicalDump(parsePyJson(line), ensureAscii)).join("\n") + "\n";
      assert.ok(Buffer.from(again, "utf8").equals(bytes), `${name}: re-serialized bytes differ`);
      // The corpus holds what the test claims to cover.
      const text = bytes.toString("utf8");
      for (const needle of ["1e+16", "0.1", "-0.0", "1e-07", "18446744073709551616", "NaN", "Infinity"]) {
        assert.ok(text.includes(needle), `${name} lacks ${needle}`);
      }
      assert.ok(ensureAscii ? /\\u2028/.test(text) && /\\ud83d\\ude80/.test(text) : /[\u00e9\u{1f680}]/u.test(text));
    });
  }

  it("flags exactly the mutated lines python3 would not re-serialize to the same bytes", async () => {
    const rng = new SeededRandom(SEED);
    const sources = ["ascii.jsonl", "unicode.jsonl"].flatMap((name) =>
      fs.readFileSync(path.join(dir, name), "utf8").split("\n").slice(0, -1),
    );
    const mutated = sources.map((line) => mutateLine(line, rng));
    const file = path.join(dir, "mutated.jsonl");
    fs.writeFileSync(file, Buffer.concat([...mutated.flatMap((line) => [line, Buffer.from("\n")])]));
    const expected = JSON.parse(python("judge", file)) as string[];
    const problems: SourceProblem[] = [];
    await checkJsonlFile(file, "mutated.jsonl", dir, problems);
    const ours = verdicts(problems, mutated.length, (lineNo) => pyStrip(mutated[lineNo - 1].toString("utf8")) === "");
    const differences = expected
      .map((want, i) => ({ line: i + 1, want, got: ours[i], text: mutated[i].toString("utf8").slice(0, 160) }))
      .filter((d) => d.want !== d.got);
    assert.deepEqual(differences.slice(0, 10), []);
    // The mutations reach every verdict, with plenty of both canonical and non-canonical lines.
    const tally = new Map<string, number>();
    for (const v of expected) tally.set(v, (tally.get(v) ?? 0) + 1);
    for (const kind of ["ok", "non_canonical", "invalid", "blank", "unloadable"]) {
      assert.ok(
        (tally.get(kind) ?? 0) > (kind === "unloadable" || kind === "blank" ? 5 : 100),
        `${kind}: ${tally.get(kind)}`,
      );
    }
  });
});
