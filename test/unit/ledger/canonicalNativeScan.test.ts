/**
 * The canonical scanner proves long plain runs of a string with native scans
 * (canonicalScanner.ts, `plainRun`: `indexOf` for the next quote and
 * backslash, `isAscii` and a word test for controls and DEL). Its oracle is
 * Python: test/python/oracles/long_string_oracle.py writes ledger lines as Python
 * AutoDev does (`json.dumps(entry, sort_keys=True)`, the hash of the entry
 * without self_hash), with strings carrying every escape class of
 * `ensure_ascii`, lone and paired surrogates, U+2028, DEL, controls and plain
 * edge bytes just before, at and after the scanner's thresholds. Each line
 * must be proven with Python's hash (lone surrogates: left to the full path,
 * as before), at every alignment in its buffer; the same line with raw bytes
 * in place of an escape must not be proven, and the full path must read it as
 * Python does.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { NATIVE_RUN, SHORT_RUN } from "../../../src/core/sources/autodev/canonical/canonicalScanner";
import { fastCanonicalLine } from "../../../src/core/sources/autodev/canonical/fastCanonical";
import { LedgerScanner } from "../../../src/core/sources/autodev/ledger/ledgerScanner";
import { verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";

const ROOT = path.join(__dirname, "../../../..");
const ORACLE = path.join(ROOT, "test/python/oracles/long_string_oracle.py");

interface OracleLine {
  readonly line: string;
  readonly hash: string;
  readonly raw: [escape: string, hex: string, pythonReadsSame: boolean] | null;
}

/** `bytes` copied `offset` bytes into a bigger buffer (the scanner's word view depends on alignment). */
function at(offset: number, bytes: Buffer): Buffer {
  const whole = Buffer.alloc(bytes.length + offset + 3, 0x22);
  bytes.copy(whole, offset);
  return whole.subarray(offset, offset + bytes.length);
}

const LONE_SURROGATE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/;

describe("canonical scanner, native long-string scan, against Python", function () {
  this.timeout(60_000);
  let lines: OracleLine[] = [];

  before(() => {
    const out = execFileSync("python3", [ORACLE], { encoding: "utf8", maxBuffer: 64 << 20 });
    lines = out
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as OracleLine);
  });

  it("the oracle's positions straddle the scanner's thresholds", () => {
    // long_string_oracle.py puts the special character 47-53 and 300-311 bytes into a string.
    assert.equal(SHORT_RUN, 48, "update POSITIONS in long_string_oracle.py");
    assert.equal(NATIVE_RUN, 256, "update POSITIONS in long_string_oracle.py");
    assert.ok(lines.length > 1000);
  });

  it("proves every canonical line with Python's hash, at every alignment", () => {
    let proven = 0;
    for (const { line, hash } of lines) {
      const lone = LONE_SURROGATE.test(line);
      for (let offset = 0; offset < 4; offset++) {
        const fast = fastCanonicalLine(at(offset, Buffer.from(line, "latin1")));
        if (lone) {
          assert.equal(fast, null, `a lone surrogate is left to the full path: ${line.slice(0, 120)}`);
          continue;
        }
        assert.ok(fast, `not proven (offset ${offset}): ${line.slice(0, 200)}`);
        assert.equal(fast.computedHash, hash, line.slice(0, 200));
        assert.equal(fast.selfHash, hash);
        proven++;
      }
    }
    assert.ok(proven > 4000, `${proven} proven`);
  });

  it("does not prove a line with raw bytes for an escape; the full path reads it as Python does", () => {
    let checked = 0;
    for (const { line, hash, raw } of lines) {
      if (raw === null) continue;
      const [escape, hex, same] = raw;
      const k = line.indexOf(escape, line.indexOf('"note": '));
      const bytes = Buffer.concat([
        Buffer.from(line.slice(0, k), "latin1"),
        Buffer.from(hex, "hex"),
        Buffer.from(line.slice(k + escape.length), "latin1"),
      ]);
      for (let offset = 0; offset < 4; offset++) {
        assert.equal(fastCanonicalLine(at(offset, bytes)), null, `proven with raw ${hex}: ${line.slice(0, 120)}`);
      }
      const entry = JSON.parse(line) as { seq: number; prev_hash: string };
      const scanner = new LedgerScanner({ replay: false });
      scanner.resumeChain(entry.seq - 1, entry.prev_hash, 0);
      scanner.feed({ bytes, lineNo: 1, start: 0, end: bytes.length, terminated: true });
      assert.equal(scanner.ok, same, `raw ${hex}: ${JSON.stringify(scanner.errors())}`);
      if (same) assert.equal(scanner.head?.selfHash, hash);
      else assert.equal(scanner.errors()[0].kind, "invalid_json");
      checked++;
    }
    assert.ok(checked > 500, `${checked} checked`);
  });

  it("verifies the whole ledger as Python wrote it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "native-scan-"));
    try {
      fs.mkdirSync(path.join(dir, ".autodev"));
      fs.writeFileSync(path.join(dir, ".autodev/plan-ledger.jsonl"), lines.map((l) => l.line + "\n").join(""));
      const { report } = await verifyLedger(dir, { replay: false });
      assert.deepEqual(report.errors, []);
      assert.equal(report.entries, lines.length);
      assert.equal(report.head?.selfHash, lines[lines.length - 1].hash);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
