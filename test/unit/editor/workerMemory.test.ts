/**
 * The state worker's `memory` request, which the soak bench asks to split the extension host's
 * RSS between the host thread and the worker: the worker thread's own heap, read in a real
 * thread, with garbage collected first only when the process allows it.
 */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { WorkerMemory, WorkerMessage } from "../../../src/core/worker/workerProtocol";

const WORKER = path.join(__dirname, "../../../../dist/stateWorker.js");

/** Asks a fresh state worker thread (the built dist/stateWorker.js) for its memory. */
function askThread(collect: boolean): Promise<WorkerMemory> {
  const w = new Worker(WORKER, { workerData: { maxLineBytes: 1 << 20 } });
  return new Promise<WorkerMemory>((resolve, reject) => {
    w.on("message", (m: WorkerMessage) => {
      if (m.kind !== "result") return;
      void w.terminate();
      if (m.ok) resolve(m.result as WorkerMemory);
      else reject(new Error(m.error));
    });
    w.on("error", reject);
    w.postMessage({ id: 1, type: "memory", collect });
  });
}

describe("state worker: memory (the soak's split of the host's RSS)", () => {
  it("reports the worker thread's own heap, not the process's @slow", async () => {
    // Hold 64 MB in this thread: a reading of the process (or of this isolate) would include it.
    const held = Array.from({ length: 64 }, () => new Array<number>(128 * 1024).fill(1.5));
    const m = await askThread(false);
    assert.ok(m.heapUsed > 0 && m.heapUsed <= m.heapTotal, JSON.stringify(m));
    assert.ok(m.physical > 0 && m.physical <= m.heapTotal + (8 << 20), JSON.stringify(m));
    assert.ok(m.heapTotal < 48 << 20, `a fresh worker's heap is small, not this thread's: ${m.heapTotal}`);
    assert.equal(m.collected, false);
    assert.equal(held.length, 64);
  });

  it("says whether it collected garbage first (only where gc is exposed)", async () => {
    const m = await askThread(true);
    assert.equal(m.collected, typeof (globalThis as { gc?: unknown }).gc === "function");
  });
});
