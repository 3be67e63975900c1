/**
 * The canonical scanner's string check reads long strings a word (4 bytes)
 * at a time (canonicalScanner.ts, `plainRun`). It must give exactly what the
 * byte-by-byte check gives: the same end index, or -1, for every string —
 * every byte value at every position, at every alignment of the line in its
 * buffer, strings shorter and longer than the byte-by-byte prefix, several
 * long strings in one line, escapes of every kind, and random strings.
 * The reference below is the byte-by-byte check as it was before.
 * The payload dict a proven line hands out (canonicalPayload.ts, built from
 * one walk instead of a second parse) must equal `parsePyJson` of its text.
 */
import * as assert from "node:assert/strict";
import { endScan, startScan, str } from "../../../src/core/sources/autodev/canonical/canonicalScanner";
import { value } from "../../../src/core/sources/autodev/canonical/canonicalValues";
import { fastCanonicalLine } from "../../../src/core/sources/autodev/canonical/fastCanonical";
import { buildEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { PyObject } from "../../../src/core/pyjson/pyValue";

const HEX = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x61 + 10 : -1);

/** The byte-by-byte canonical string check: the index after the closing quote of the string at `i`, or -1. */
function referenceStr(b: Uint8Array, i: number): number {
  const n = b.length;
  const hex4 = (j: number) => {
    const d = [HEX(b[j]), HEX(b[j + 1]), HEX(b[j + 2]), HEX(b[j + 3])];
    return d.some((x) => x < 0) ? -1 : (d[0] << 12) | (d[1] << 8) | (d[2] << 4) | d[3];
  };
  for (i++; ;) {
    if (i >= n) return -1;
    const c = b[i];
    if (c === 0x22) return i + 1;
    if (c < 0x20 || c >= 0x7f) return -1;
    if (c !== 0x5c) {
      i++;
      continue;
    }
    if (i + 1 >= n) return -1;
    const e = b[i + 1];
    if ([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74].includes(e)) {
      i += 2;
      continue;
    }
    if (e !== 0x75 || i + 6 > n) return -1;
    const code = hex4(i + 2);
    if (code < 0 || [0x08, 0x09, 0x0a, 0x0c, 0x0d].includes(code) || (code >= 0x20 && code < 0x7f)) return -1;
    if (code >= 0xd800 && code <= 0xdfff) {
      if (code >= 0xdc00 || i + 12 > n || b[i + 6] !== 0x5c || b[i + 7] !== 0x75) return -1;
      const low = hex4(i + 8);
      if (low < 0xdc00 || low > 0xdfff) return -1;
      i += 12;
      continue;
    }
    i += 6;
  }
}

/** `content` as a string literal followed by `tail`, placed `offset` bytes into a bigger buffer. */
function lineAt(offset: number, content: Uint8Array, tail = "}"): Buffer {
  const t = Buffer.from(tail, "latin1");
  const whole = Buffer.alloc(offset + content.length + 2 + t.length + 5, 0x22);
  const line = whole.subarray(offset, offset + content.length + 2 + t.length);
  line[0] = 0x22;
  line.set(content, 1);
  line[content.length + 1] = 0x22;
  line.set(t, content.length + 2);
  return line;
}

function check(line: Buffer, at = 0): void {
  startScan(line);
  try {
    const got = str(at);
    const want = referenceStr(line, at);
    if (got !== want) {
      assert.fail(
        `str at ${at} of ${JSON.stringify(line.toString("latin1"))} (offset ${line.byteOffset}): ${got}, want ${want}`,
      );
    }
  } finally {
    endScan();
  }
}

const plain = (len: number): Uint8Array => Uint8Array.from({ length: len }, (_, k) => 0x41 + (k % 26));

describe("canonical string scan, word at a time", () => {
  it("every byte value at every position, at every alignment, matches the byte-by-byte check @slow", () => {
    const lengths = [0, 1, 3, 7, 15, 16, 17, 18, 19, 20, 21, 23, 24, 25, 27, 31, 32, 33, 40, 47, 64, 65, 100];
    for (let offset = 0; offset < 4; offset++) {
      for (const len of lengths) {
        for (let pos = 0; pos < len; pos++) {
          const content = plain(len);
          for (let byte = 0; byte < 256; byte++) {
            content[pos] = byte;
            check(lineAt(offset, content));
          }
        }
      }
    }
  });

  it("escapes of every kind after a long plain run, and a line of several long strings", () => {
    const escapes = [
      "\\n",
      '\\"',
      "\\\\",
      "\\u00e9",
      "\\u0041",
      "\\u001f",
      "\\u000a",
      "\\ud83d\\ude00",
      "\\ud83d",
      "\\ude00",
      "\\x",
    ];
    for (let offset = 0; offset < 4; offset++) {
      for (const len of [16, 17, 30, 61]) {
        for (const esc of escapes) {
          for (const pos of [0, len >> 1, len]) {
            const text = "a".repeat(pos) + esc + "b".repeat(len - pos);
            check(lineAt(offset, Buffer.from(text, "latin1")));
          }
        }
      }
    }
    // One line, many strings: the word view made for the first must serve the others.
    const items = Array.from({ length: 12 }, (_, k) => `"${"x".repeat(10 + 7 * k)}${k % 3 === 0 ? "\\t" : ""}y"`);
    const array = Buffer.from(`[${items.join(", ")}]`, "latin1");
    for (let offset = 0; offset < 4; offset++) {
      const whole = Buffer.alloc(array.length + offset);
      array.copy(whole, offset);
      const line = whole.subarray(offset);
      startScan(line);
      try {
        assert.equal(value(0, 0), line.length);
        for (let at = line.indexOf(0x22); at >= 0; at = line.indexOf(0x22, referenceStr(line, at))) {
          assert.equal(str(at), referenceStr(line, at));
        }
      } finally {
        endScan();
      }
      const broken = Buffer.from(line);
      broken[broken.length - 30] = 0x7f;
      startScan(broken);
      try {
        assert.equal(value(0, 0), -1);
      } finally {
        endScan();
      }
    }
  });

  it("random strings match the byte-by-byte check", () => {
    let seed = 24;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const specials = [0x22, 0x5c, 0x00, 0x1f, 0x7f, 0x80, 0xff, 0xe9, 0x75, 0x30];
    for (let t = 0; t < 20_000; t++) {
      const len = rand(90);
      const content = Uint8Array.from({ length: len }, () =>
        rand(40) === 0 ? specials[rand(specials.length)] : 0x20 + rand(0x5f),
      );
      check(lineAt(rand(4), content, rand(2) ? "}" : ""));
    }
  });
});

describe("canonical payload dict", () => {
  it("equals parsePyJson of the payload's text, for every kind of member value", () => {
    // JSON texts of member values; buildEntry writes each in Python's canonical form.
    const values = [
      ...["", "plain", "x".repeat(5000), 'quote " backslash \\ tab \t newline \n', "\u0000\u001f\u007f"].map((t) =>
        JSON.stringify(t),
      ),
      '"caf\\u00e9 \\ud83d\\ude00"',
      ...["0", "-7", "9007199254740991", "9007199254740993", "-12345678901234567", "123456789012345678901234567890"],
      ...["1.5", "-0.0", "1e+300", "2.0", "true", "false", "null", "[]", "{}"],
      '[1, "a", [2.5, null], {"k": false}]',
      '{"a": {"b": [1, 2]}, "z": "\\u00e9"}',
    ];
    let head = { seq: 0, selfHash: "" } as Parameters<typeof buildEntry>[0];
    let checked = 0;
    for (const [k, v] of values.entries()) {
      for (const keyed of ["task_id", "n\u00e9", "path"]) {
        const text = `{"${keyed}": ${v}, "z${k}": 1}`;
        const payload = parsePyJson(text) as PyObject;
        const { entry, line } = buildEntry(head, "append_evidence", payload, "s", "2026-01-01T00:00:00+00:00");
        head = { seq: entry.seq, selfHash: entry.self_hash } as typeof head;
        const fast = fastCanonicalLine(Buffer.from(line.trimEnd(), "utf8"));
        assert.ok(fast, `not proven: ${line}`);
        assert.deepEqual(fast.entryLazy().payload, entry.payload, line);
        checked++;
      }
    }
    assert.equal(checked, values.length * 3);
  });
});
