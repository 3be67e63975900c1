/**
 * Worker thread entry of parallel verification (bundled as
 * dist/ledgerSegmentWorker.js): claims chunks of the ledger from the back
 * (see chunkClaims.ts), scans each (segmentScan.ts) and posts its batches,
 * tagged with the chunk. It stops claiming while more than
 * {@link MAX_UNACKED} bytes of its batches wait to be consumed, so memory
 * stays bounded whatever the file holds: the calling thread scans the rest.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ChunkMessage, ChunkTask, SegmentMessage, scanSegment } from "./segmentScan";
import { setMaxLineBytes } from "../../../../fs/lineLimit";
import { claimBack, notePlanChunk } from "./chunkClaims";
import type { ReadBuffers } from "./wholeLineReader";
import { errorText } from "../../../../text/errorText";

const MAX_UNACKED = 16 << 20;

const task = workerData as ChunkTask;
let unacked = 0;

parentPort?.on("message", (acked: number) => {
  unacked -= acked;
});

function send(chunk: number, m: SegmentMessage): void {
  if (m.kind === "batch") {
    unacked += m.weight;
    parentPort!.postMessage({ chunk, message: m } satisfies ChunkMessage, [m.bytes.buffer as ArrayBuffer]);
    return;
  }
  // Only the last plan line's bytes are ever built into the plan: drop them when a later chunk has one.
  const done = m.lastPlan !== null && notePlanChunk(task.claims, chunk) ? { ...m, lastPlan: null } : m;
  parentPort!.postMessage({ chunk, message: done } satisfies ChunkMessage);
}

/** Waits one turn of the event loop, so the acknowledgements posted meanwhile are counted. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function run(): Promise<void> {
  setMaxLineBytes(task.maxLineBytes);
  const { starts, size } = task;
  const buffers: ReadBuffers = { main: null, spare: null };
  for (;;) {
    await turn();
    if (!task.forced && unacked > MAX_UNACKED) return;
    const k = claimBack(task.claims, task.floor);
    if (k < 0) return;
    const end = k + 1 < starts.length ? starts[k + 1] : size;
    await scanSegment(
      {
        fd: task.fd,
        start: starts[k],
        end,
        wantPlans: task.wantPlans,
        last: k + 1 === starts.length,
        maxLineBytes: task.maxLineBytes,
      },
      (m) => send(k, m),
      buffers,
    );
  }
}

run().then(
  () => parentPort?.postMessage({ chunk: -1, message: { kind: "exit" } } satisfies ChunkMessage),
  (e: unknown) =>
    parentPort?.postMessage({
      chunk: -1,
      message: { kind: "error", message: errorText(e) },
    } satisfies ChunkMessage),
);
