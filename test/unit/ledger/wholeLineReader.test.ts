/**
 * `readWholeLines` hands out exactly the lines (numbers, byte ranges, bytes,
 * terminated flags) and the cursor that one LineSplitter fed the whole file
 * gives, whatever the buffer size: lines carried over between reads, buffers
 * that grow for long lines, giant lines past the cap, `\r\n` split across
 * reads, lone `\r`, a torn tail, and resuming from a cursor; and with an
 * asynchronous reader that answers late and short (the next read runs while a
 * buffer's lines are scanned), the same, with no read left running on return.
 */
import * as assert from "node:assert/strict";
import {
  LineCursor,
  LineSplitter,
  RawLine,
  START_CURSOR,
} from "../../../src/core/sources/autodev/ledger/read/ledgerLineReader";
import { readWholeLines } from "../../../src/core/sources/autodev/ledger/read/wholeLineReader";
import { SeededRandom as Rng } from "../../../src/core/seededRandom";

const show = (l: RawLine) => `${l.lineNo}:${l.start}-${l.end}:${l.terminated}:${l.bytes.toString("latin1")}`;

function expected(file: Buffer, from: LineCursor): { lines: string[]; cursor: LineCursor } {
  const lines: string[] = [];
  const s = new LineSplitter(from);
  s.push(file.subarray(from.offset), (l) => void lines.push(show(l)));
  s.finish((l) => void lines.push(show(l)));
  return { lines, cursor: s.cursor() };
}

function randomFile(r: Rng): Buffer {
  const parts: string[] = [];
  for (let n = r.below(40); n > 0; n--) {
    parts.push("x".repeat(r.chance(0.1) ? r.below(300) : r.below(12)));
    parts.push(r.pick(["\n", "\n", "\r\n", "\r", "\n\n", "\r\r\n"]));
  }
  if (r.chance(0.3)) parts.push("tail".repeat(r.below(5)));
  return Buffer.from(parts.join(""), "latin1");
}

describe("readWholeLines", () => {
  it("gives the lines and cursor of one LineSplitter over the whole file, for any buffer size", async () => {
    const r = new Rng(0x11e5);
    for (let k = 0; k < 400; k++) {
      const file = randomFile(r);
      let from: LineCursor = START_CURSOR;
      if (r.chance(0.3) && file.length > 0) {
        // Resume after some line, as an incremental reader would.
        const all: LineCursor[] = [START_CURSOR];
        const s = new LineSplitter();
        s.push(file, () => void all.push(s.cursor()));
        from = r.pick(all);
      }
      const want = expected(file, from);
      const got: string[] = [];
      const bufferBytes = 1 + r.below(40);
      const cursor = await readWholeLines(
        (b, off, len, pos) => file.copy(b, off, pos, Math.min(file.length, pos + len)),
        from,
        file.length,
        true,
        (l) => void got.push(show(l)),
        { bufferBytes, maxBufferBytes: r.chance(0.5) ? bufferBytes * 4 : 1 << 20 },
      );
      assert.deepEqual(got, want.lines, `file ${JSON.stringify(file.toString("latin1"))} buffer ${bufferBytes}`);
      assert.deepEqual(cursor, want.cursor);
    }
  });

  it("reads ahead with a slow, short-reading reader and leaves no read running when it returns", async () => {
    const r = new Rng(0x5eed);
    for (let k = 0; k < 300; k++) {
      const file = randomFile(r);
      const want = expected(file, START_CURSOR);
      const stopAfter = r.chance(0.3) ? r.below(want.lines.length + 1) : -1;
      let inFlight = 0;
      let maxInFlight = 0;
      const got: string[] = [];
      const bufferBytes = 1 + r.below(40);
      await readWholeLines(
        async (b, off, len, pos) => {
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          await new Promise((done) => (r.chance(0.5) ? setImmediate(done) : process.nextTick(done)));
          const n = file.copy(b, off, pos, Math.min(file.length, pos + Math.max(1, r.below(len + 1))));
          inFlight--;
          return n;
        },
        START_CURSOR,
        file.length,
        true,
        (l) => {
          // Scanning lines of one buffer while the next read writes the other must not change them.
          got.push(show(l));
          return stopAfter >= 0 && got.length > stopAfter ? false : undefined;
        },
        { bufferBytes },
      );
      assert.equal(inFlight, 0, "a read was still running after readWholeLines returned");
      assert.ok(maxInFlight <= 1);
      const upTo = stopAfter >= 0 ? Math.min(stopAfter + 1, want.lines.length) : want.lines.length;
      assert.deepEqual(
        got,
        want.lines.slice(0, upTo),
        `file ${JSON.stringify(file.toString("latin1"))} buffer ${bufferBytes}`,
      );
    }
  });
});
