/**
 * What a read engine_state checkpoint keeps: its tree entries and problems must not hold the
 * lines they were cut from (V8 keeps a slice of a string, or a message built from one, as a
 * view of the whole string). Measured as the heap the model keeps after a full collection,
 * with a wide margin: 400 lines of 100 KB (40 MB of text) must leave less than 10 MB behind;
 * before the fix they left all of it (and 482 MB for 500 lines of 1 MB).
 */
import * as assert from "node:assert/strict";
import * as v8 from "node:v8";
import * as vm from "node:vm";
import { readEngineState } from "../../../src/core/sources/engineState/engineStateModel";
import { engineStateSource } from "../../../src/core/sources/engineState/engineStateSource";
import { makeWorkspace } from "../../helpers/engineStateWorkspace";

const LINES = 200;
const FILLER = 100_000;

/** A full garbage collection (mocha runs without --expose-gc). */
function collect(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

/** Candidate lines with a long evidence string; `spaced` makes every line non-canonical (a problem each). */
function candidates(spaced: boolean): string {
  const lines: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const id = i.toString(16).padStart(64, "0");
    const line = `{"candidate_id":"${id}","evidence":"${"x".repeat(FILLER)}","trigger":"would_have_grounded"}`;
    lines.push(spaced ? line.replace(',"trigger"', ', "trigger"') : line);
  }
  // A repeat of every id: duplicate warnings whose messages quote the id.
  return lines.join("\n") + "\n" + lines.join("\n") + "\n";
}

describe("engine_state memory kept by a read checkpoint @slow", () => {
  for (const spaced of [false, true]) {
    it(`keeps under 10 MB of 40 MB of ${spaced ? "non-canonical" : "canonical"} 100 KB lines (entries, problems)`, async () => {
      const ws = makeWorkspace({ "engine_state/discovery_candidates.jsonl": candidates(spaced) });
      const location = await engineStateSource.detect(ws);
      assert.ok(location);
      collect();
      const before = process.memoryUsage().heapUsed;
      const model = await readEngineState(location);
      collect();
      const kept = process.memoryUsage().heapUsed - before;
      assert.equal(model.candidates.records, 2 * LINES);
      assert.equal(model.candidates.entries.length, 2 * LINES);
      assert.ok(model.candidates.entries[1].view?.description.includes("would_have_grounded"));
      assert.ok(model.problems.some((p) => p.code === "duplicate_candidate_id"));
      if (spaced) assert.ok(model.problems.some((p) => p.code === "non_canonical_line"));
      assert.ok(kept < 10 * 2 ** 20, `the model keeps ${(kept / 2 ** 20).toFixed(1)} MB`);
    });
  }
});
