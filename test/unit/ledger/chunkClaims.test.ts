/**
 * The chunk claims of a parallel verify: whatever the interleaving of front
 * and back claims (and their limits), every chunk is claimed exactly once,
 * this thread's chunks are a prefix and the workers' a suffix; and a chunk's
 * plan bytes are dropped only when a higher chunk is known to hold a plan.
 * With real worker threads racing on the shared word, the same holds.
 */
import * as assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import {
  claimBack,
  claimFront,
  newChunkClaims,
  notePlanChunk,
} from "../../../src/core/sources/autodev/ledger/read/chunkClaims";
import { SeededRandom as Rng } from "../../../src/core/seededRandom";

describe("chunk claims", () => {
  it("hand out every chunk once: a prefix from the front, a suffix from the back", () => {
    const r = new Rng(0xc1a1);
    for (let k = 0; k < 500; k++) {
      const count = 1 + r.below(40);
      const floor = r.chance(0.3) ? r.below(count + 1) : 0;
      const limit = floor > 0 ? floor : count;
      const c = newChunkClaims(count);
      const front: number[] = [];
      const back: number[] = [];
      let frontDone = false;
      let backDone = false;
      while (!frontDone || !backDone) {
        if (!frontDone && (backDone || r.chance(0.5))) {
          const f = claimFront(c, limit);
          if (f < 0) frontDone = true;
          else front.push(f);
        } else {
          const b = claimBack(c, floor);
          if (b < 0) backDone = true;
          else back.push(b);
        }
      }
      assert.deepEqual(
        front,
        Array.from({ length: front.length }, (_, i) => i),
        "front claims are 0, 1, 2, …",
      );
      assert.deepEqual(
        back,
        Array.from({ length: back.length }, (_, i) => count - 1 - i),
        "back claims are n-1, n-2, …",
      );
      assert.equal(front.length + back.length, count, `count ${count} floor ${floor}: every chunk claimed once`);
      if (floor > 0) {
        assert.equal(front.length, floor, "a forced split gives this thread exactly the first `floor` chunks");
      }
    }
  });

  it("drops a chunk's plan bytes only when a higher chunk holds a plan", () => {
    const c = newChunkClaims(10);
    assert.equal(notePlanChunk(c, 3), false);
    assert.equal(notePlanChunk(c, 7), false);
    assert.equal(notePlanChunk(c, 7), false, "the highest chunk keeps its bytes when told twice");
    assert.equal(notePlanChunk(c, 5), true);
    assert.equal(notePlanChunk(c, 0), true);
    assert.equal(notePlanChunk(c, 9), false);
  });

  it("stay exclusive when threads race on them", async () => {
    const count = 20_000;
    const c = newChunkClaims(count);
    const script = `
      const { workerData, parentPort } = require("node:worker_threads");
      const word = workerData.word;
      const got = [];
      for (;;) {
        const w = Atomics.load(word, 0), front = w >>> 16, backEnd = w & 0xffff;
        if (front >= backEnd) break;
        if (Atomics.compareExchange(word, 0, w, (front << 16) | (backEnd - 1)) === w) got.push(backEnd - 1);
      }
      parentPort.postMessage(got);`;
    const workers = [0, 1].map(() => new Worker(script, { eval: true, workerData: c }));
    const results = workers.map(
      (w) => new Promise<number[]>((resolve, reject) => (w.once("message", resolve), w.once("error", reject))),
    );
    const mine: number[] = [];
    for (let f = claimFront(c); f >= 0; f = claimFront(c)) mine.push(f);
    const theirs = (await Promise.all(results)).flat();
    const all = [...mine, ...theirs].sort((a, b) => a - b);
    assert.deepEqual(
      all,
      Array.from({ length: count }, (_, i) => i),
      "every chunk claimed exactly once",
    );
    await Promise.all(workers.map((w) => w.terminate()));
  });
});
