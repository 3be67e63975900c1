/**
 * Who scans which chunk of a ledger in a parallel verify. The file is cut at
 * line starts into chunks; this thread claims them from the front, the worker
 * threads from the back, through one shared 32-bit word, so the two sides
 * meet wherever their speeds put them: a worker that starts late (a fresh
 * thread's start-up and JIT warm-up) or a machine whose other core is busy
 * just shifts the meeting point, and nobody waits for a fixed half.
 */

/** The chunk-claim state shared by the scanning threads (a view of a SharedArrayBuffer). */
export interface ChunkClaims {
  /** [0]: next front chunk << 16 | (next back chunk + 1); [1]: 1 + the highest chunk known to hold a proven plan line. */
  readonly word: Int32Array;
}

/** The most chunks a scan uses (both halves of the claim word hold a chunk index). */
export const MAX_CHUNKS = 0x7fff;

/** Fresh claims over `count` chunks (none claimed yet). */
export function newChunkClaims(count: number): ChunkClaims {
  if (!Number.isInteger(count) || count < 1 || count > MAX_CHUNKS) {
    throw new RangeError(`chunk count ${count} is outside 1..${MAX_CHUNKS}`);
  }
  const word = new Int32Array(new SharedArrayBuffer(8));
  word[0] = count;
  return { word };
}

/** Claims the lowest unclaimed chunk below `limit`; -1 when none is left. */
export function claimFront(c: ChunkClaims, limit = MAX_CHUNKS): number {
  for (;;) {
    const w = Atomics.load(c.word, 0);
    const front = w >>> 16;
    const backEnd = w & 0xffff;
    if (front >= backEnd || front >= limit) return -1;
    if (Atomics.compareExchange(c.word, 0, w, ((front + 1) << 16) | backEnd) === w) return front;
  }
}

/** Claims the highest unclaimed chunk at or above `floor`; -1 when none is left. */
export function claimBack(c: ChunkClaims, floor = 0): number {
  for (;;) {
    const w = Atomics.load(c.word, 0);
    const front = w >>> 16;
    const backEnd = w & 0xffff;
    if (front >= backEnd || backEnd - 1 < floor) return -1;
    if (Atomics.compareExchange(c.word, 0, w, (front << 16) | (backEnd - 1)) === w) return backEnd - 1;
  }
}

/**
 * Records that chunk `k` holds a proven plan line; returns true when a higher
 * chunk is already known to hold one (then `k`'s plan bytes are never needed:
 * replay takes the plan of the last plan line, which is in that higher chunk).
 */
export function notePlanChunk(c: ChunkClaims, k: number): boolean {
  for (;;) {
    const seen = Atomics.load(c.word, 1);
    if (seen > k + 1) return true;
    if (seen === k + 1 || Atomics.compareExchange(c.word, 1, seen, k + 1) === seen) return false;
  }
}
