/**
 * The JSONL line splitter of the engine_state source: LF, CRLF and lone CR endings (also when
 * a CRLF straddles the 1 MiB read chunk), lines spanning chunks, invalid UTF-8, the length
 * limit, and no line for the empty tail after a final newline.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readFileLines, type FileLine } from "../../../src/core/fs/lineReader";
import { DEFAULT_MAX_LINE_BYTES, getMaxLineBytes, setMaxLineBytes } from "../../../src/core/fs/lineLimit";

async function split(bytes: Buffer, max?: number): Promise<FileLine[]> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "engine-lines-")), "x.jsonl");
  fs.writeFileSync(file, bytes);
  const fh = await fs.promises.open(file, "r");
  const lines: FileLine[] = [];
  try {
    await readFileLines(fh, (line) => void lines.push(line), max);
  } finally {
    await fh.close();
  }
  return lines;
}

const CHUNK = 1 << 20;

describe("engine_state JSONL lines", () => {
  it("numbers lines from 1 and keeps each terminator", async () => {
    const lines = await split(Buffer.from("a\nb\r\nc\rd"));
    assert.deepEqual(
      lines.map((l) => [l.lineNo, l.text, l.terminator]),
      [
        [1, "a", "\n"],
        [2, "b", "\r\n"],
        [3, "c", "\r"],
        [4, "d", ""],
      ],
    );
    assert.deepEqual(await split(Buffer.from("")), []);
    assert.deepEqual(
      (await split(Buffer.from("a\n"))).map((l) => l.text),
      ["a"],
    );
    assert.deepEqual(
      (await split(Buffer.from("\n\n"))).map((l) => [l.text, l.byteLength]),
      [
        ["", 0],
        ["", 0],
      ],
    );
  });

  it("joins lines across read chunks and sees a CRLF that straddles two chunks", async () => {
    const long = "x".repeat(CHUNK - 1);
    const lines = await split(Buffer.from(`${long}\r\n${"y".repeat(CHUNK + 10)}\nz\r`));
    assert.deepEqual(
      lines.map((l) => [l.lineNo, l.byteLength, l.terminator]),
      [
        [1, CHUNK - 1, "\r\n"],
        [2, CHUNK + 10, "\n"],
        [3, 1, "\r"],
      ],
    );
    assert.equal(lines[0].text, long);
    assert.equal(lines[1].text, "y".repeat(CHUNK + 10));
  });

  it("decodes strict UTF-8 (a multi-byte character across chunks is fine; bad bytes are flagged)", async () => {
    const text = `${"a".repeat(CHUNK - 1)}é\n`;
    assert.equal((await split(Buffer.from(text)))[0].text, text.slice(0, -1));
    const bad = await split(Buffer.from([0x61, 0xff, 0x0a, 0x62, 0x0a]));
    assert.deepEqual(
      bad.map((l) => [l.notUtf8, l.text]),
      [
        [true, null],
        [false, "b"],
      ],
    );
  });

  it("without a limit of its own, a reader keeps the process's (autodev.maxLineMB, --max-line-mb)", async () => {
    assert.equal(getMaxLineBytes(), DEFAULT_MAX_LINE_BYTES, "256 MiB unless the setting says otherwise");
    assert.equal(DEFAULT_MAX_LINE_BYTES, 256 * 1024 * 1024);
    const bytes = Buffer.from(`ok\n${"z".repeat(2000)}\nnext\n`);
    setMaxLineBytes(1000);
    try {
      assert.deepEqual(
        (await split(bytes)).map((l) => l.tooLong),
        [false, true, false],
      );
    } finally {
      setMaxLineBytes(DEFAULT_MAX_LINE_BYTES);
    }
    assert.deepEqual(
      (await split(bytes)).map((l) => l.tooLong),
      [false, false, false],
    );
  });

  it("reports a line over the limit by its size without keeping it, then goes on", async () => {
    const lines = await split(Buffer.from(`ok\n${"z".repeat(3 * CHUNK)}\nnext`), 1000);
    assert.deepEqual(
      lines.map((l) => [l.text, l.byteLength, l.tooLong]),
      [
        ["ok", 2, false],
        [null, 3 * CHUNK, true],
        ["next", 4, false],
      ],
    );
  });
});
