/**
 * The floor of the ledger benchmark, as its own small script (so a fresh
 * process of it costs what Node's start-up costs, and no more): read the
 * file in 1 MiB chunks and sha256 every line, in one thread. No parsing or
 * checking at all — no verifier can be faster than this. A line split over
 * two reads is joined first (as a verifier must), and each line is hashed in
 * one call (`crypto.hash` where Node has it).
 *
 * usage: node dist/bench/floor.js FILE — prints {"lines": N}
 */
import * as fs from "node:fs";
import * as crypto from "node:crypto";

type OneShotHash = (algorithm: string, data: Uint8Array, encoding: "hex") => string;
/** `crypto.hash` (Node >= 20.12): one call per line, the fastest sha256 of many short inputs Node has. */
const oneShot = (crypto as unknown as { hash?: OneShotHash }).hash;
const sha256 = (b: Uint8Array): string =>
  oneShot ? oneShot("sha256", b, "hex") : crypto.createHash("sha256").update(b).digest("hex");

/** Reads `file` and hashes each of its lines; returns the number of lines. */
export function floorHashLines(file: string): number {
  const fd = fs.openSync(file, "r");
  let buf = Buffer.allocUnsafe(1 << 20);
  let lines = 0;
  let have = 0;
  let pos = 0;
  try {
    for (;;) {
      if (have === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, have);
        buf = bigger;
      }
      const n = fs.readSync(fd, buf, have, buf.length - have, pos);
      pos += n;
      const end = have + n;
      let s = 0;
      for (let i = buf.indexOf(0x0a, have); i >= 0 && i < end; i = buf.indexOf(0x0a, i + 1)) {
        sha256(buf.subarray(s, i));
        lines++;
        s = i + 1;
      }
      if (n === 0) {
        if (s < end) {
          sha256(buf.subarray(s, end));
          lines++;
        }
        break;
      }
      buf.copy(buf, 0, s, end);
      have = end - s;
    }
  } finally {
    fs.closeSync(fd);
  }
  return lines;
}

if (require.main === module) process.stdout.write(JSON.stringify({ lines: floorHashLines(process.argv[2]) }) + "\n");
