/**
 * The fast readers of agloop's log.json give what the full read gives:
 * - the timeline from the newest lines (logTimeline.ts) has exactly the rows
 *   of `readLogFile` — the same lines, numbered the same way (LF, CRLF, a lone
 *   CR, across the 1 MiB read boundary), blank, torn, non-object, over-long and
 *   non-UTF-8 lines left out — and a log whose newest lines are mostly not
 *   entries falls back to the full read;
 * - `plainLogEntry` (the cheap test that spares zod) holds exactly when the
 *   schema accepts an entry and neither summary is over 500 characters.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { plainLogEntry, readLogFile } from "../../../src/core/sources/agloop/log/logFile";
import { readLogTimelineRows } from "../../../src/core/sources/agloop/log/logTimeline";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { logEntrySchema } from "../../../src/core/sources/agloop/checks/agloopSchemas";

const FIXTURES = path.join(__dirname, "..", "..", "..", "..", "test", "fixtures");

function workspaceWithLog(bytes: Buffer | string): string {
  const ws = fs.mkdtempSync(path.join(os.tmpdir(), "agloop-log-fast-"));
  fs.mkdirSync(path.join(ws, ".agloop"));
  fs.writeFileSync(path.join(ws, ".agloop", "log.json"), bytes);
  return ws;
}

async function sameRows(ws: string): Promise<number> {
  const full = (await readLogFile(ws)).rows;
  const fast = await readLogTimelineRows(ws);
  assert.ok(fast !== null, "the fast timeline gave up");
  assert.deepEqual(fast, full);
  return full.length;
}

/** Entries as the real hooks wrote them (agloop-clean's log). */
const ENTRIES = fs
  .readFileSync(path.join(FIXTURES, "agloop-clean", ".agloop", "log.json"), "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("agloop log.json, fast readers @slow", function () {
  this.timeout(120_000);
  const made: string[] = [];
  after(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const ws = (bytes: Buffer | string) => {
    const d = workspaceWithLog(bytes);
    made.push(d);
    return d;
  };

  it("the timeline has readLogFile's rows for every fixture the real hooks wrote", async () => {
    let fixtures = 0;
    for (const dir of fs.readdirSync(FIXTURES).filter((d) => d.startsWith("agloop-"))) {
      const roots = fs.existsSync(path.join(FIXTURES, dir, ".agloop"))
        ? [path.join(FIXTURES, dir)]
        : fs.readdirSync(path.join(FIXTURES, dir)).map((d) => path.join(FIXTURES, dir, d));
      for (const root of roots.filter((r) => fs.existsSync(path.join(r, ".agloop", "log.json")))) {
        await sameRows(ws(fs.readFileSync(path.join(root, ".agloop", "log.json"))));
        fixtures++;
      }
    }
    assert.ok(fixtures >= 4, `${fixtures} fixture logs`);
  });

  it("the same rows and line numbers with every line end, bad lines of every kind and reads cut anywhere", async () => {
    const good = (i: number) => JSON.stringify({ ...ENTRIES[i % ENTRIES.length], timestamp: `t${i}` });
    const bad = [
      "",
      "   \t ",
      '{"torn": "li',
      "[1, 2]",
      '"text"',
      "\u00a0{}",
      "{}",
      '{"status": 3}',
      "x".repeat(1024 * 1024 + 1),
    ];
    const ends = ["\n", "\r\n", "\r"];
    const parts: Buffer[] = [];
    for (let i = 0; i < 3000; i++) {
      const line = i % 7 === 3 ? bad[i % bad.length] : good(i);
      parts.push(Buffer.from(line + ends[i % 3], "utf8"));
      if (i === 1000) parts.push(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a])); // not UTF-8
    }
    const body = Buffer.concat(parts);
    assert.ok((await sameRows(ws(body))) > 2000);
    // A `\r\n` and a lone `\r` exactly at the first read's end (1 MiB), and a file ending in `\r` or mid-line.
    for (const [end, tail] of [
      ["\r\n", "\r"],
      ["\r", good(1)],
      ["\n", "\r\n"],
    ]) {
      const head = good(0);
      const padded = (n: number) => JSON.stringify({ ...ENTRIES[0], output_summary: "p".repeat(n) });
      const first = `${head}\n${padded(1024 * 1024 - 1 - Buffer.byteLength(head) - 1 - padded(0).length)}`;
      const text = `${first}${end}${good(2)}\n${good(3)}${tail}`;
      assert.equal(Buffer.byteLength(first), 1024 * 1024 - 1);
      await sameRows(ws(text));
    }
  });

  it("keeps the newest 50,000 rows of a longer log, and falls back to the full read when the newest lines are not entries", async () => {
    const lines = Array.from({ length: 60_000 }, (_, i) => JSON.stringify({ ...ENTRIES[i % ENTRIES.length], n: i }));
    for (let i = 0; i < 60_000; i += 9) lines[i] = "{torn";
    assert.equal(await sameRows(ws(lines.join("\n") + "\n")), 50_000);
    const mostlyBad = [...lines.slice(0, 20), ...Array.from({ length: 100_010 }, () => "{torn")].join("\n");
    const d = ws(mostlyBad);
    assert.equal(await readLogTimelineRows(d), null);
    const full = (await readLogFile(d)).rows;
    assert.equal(full.length, 17);
    assert.deepEqual(await agloopSource.timeline!((await agloopSource.detect(d))!), full);
  });

  it("plainLogEntry holds exactly when the schema accepts the entry and no summary is over 500 characters", () => {
    let seed = 21;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const values: unknown[] = ["", "x", "y".repeat(500), "z".repeat(501), null, 0, true, [], {}, { a: 1 }, ["a"]];
    const keys = [...Object.keys(logEntrySchema.shape), "extra", "__proto__", "constructor"];
    let plain = 0;
    for (let t = 0; t < 20_000; t++) {
      const entry = JSON.parse(JSON.stringify({ ...ENTRIES[t % ENTRIES.length] })) as Record<string, unknown>;
      for (let m = rand(3); m > 0; m--) {
        const key = keys[rand(keys.length)];
        const v =
          rand(4) === 0
            ? undefined
            : key === "status" && rand(2)
              ? ["success", "failure", "nope"][rand(3)]
              : values[rand(values.length)];
        if (v === undefined) delete entry[key];
        else Object.defineProperty(entry, key, { value: v, enumerable: true, writable: true, configurable: true });
      }
      const summariesOk = ["input_summary", "output_summary"].every(
        (k) => typeof entry[k] !== "string" || (entry[k] as string).length <= 500,
      );
      const want = logEntrySchema.safeParse(entry).success && summariesOk;
      assert.equal(plainLogEntry(entry), want, JSON.stringify(entry).slice(0, 300));
      if (want) plain++;
    }
    assert.ok(plain > 1000 && plain < 19_000, `${plain} plain of 20,000`);
  });
});
