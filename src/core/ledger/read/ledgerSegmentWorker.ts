/**
 * Worker thread entry of parallel verification (bundled as
 * dist/ledgerSegmentWorker.js): scans the segment given in `workerData` (see
 * segmentScan.ts) and posts its batches, pausing while more than
 * {@link MAX_UNACKED} bytes of them wait to be consumed, so memory stays
 * bounded whatever the file holds.
 */
import { parentPort, workerData } from "node:worker_threads";
import { SegmentMessage, SegmentTask, scanSegment } from "./segmentScan";
import { setMaxLineBytes } from "./ledgerLineReader";

const MAX_UNACKED = 16 << 20;

let unacked = 0;
let wake: (() => void) | null = null;

parentPort?.on("message", (acked: number) => {
  unacked -= acked;
  if (wake && unacked <= MAX_UNACKED) {
    const w = wake;
    wake = null;
    w();
  }
});

async function send(m: SegmentMessage): Promise<void> {
  if (m.kind === "batch") {
    unacked += m.weight;
    parentPort!.postMessage(m, [m.bytes.buffer as ArrayBuffer]);
    if (unacked > MAX_UNACKED) await new Promise<void>((resolve) => (wake = resolve));
  } else parentPort!.postMessage(m);
}

setMaxLineBytes((workerData as SegmentTask).maxLineBytes);
scanSegment(workerData as SegmentTask, send).then(
  () => parentPort?.close(),
  (e: unknown) => parentPort?.postMessage({ kind: "error", message: e instanceof Error ? e.message : String(e) }),
);
