/**
 * The knowledge files read line by line (knowledgeLines.ts): a file over the old 16 MiB limit read
 * whole with only the highest-ranked lessons kept (the same as ranking every one), bad lines past
 * the listing cap counted, a torn last line, CRLF, Python's other line breaks, a line over the line
 * limit skipped and the reading going on, and the refusals (FIFO, a link out, too big, not UTF-8).
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readConfig } from "../../../src/core/sources/autodev/config/configReader";
import { getMaxLineBytes, setMaxLineBytes } from "../../../src/core/fs/lineLimit";
import {
  MAX_KNOWLEDGE_BYTES,
  MAX_LESSONS_LISTED,
  rankLesson,
  readKnowledge,
  type KnowledgeReport,
} from "../../../src/core/sources/autodev/knowledge/knowledgeReader";
import { MAX_SKIPPED_LISTED } from "../../../src/core/sources/autodev/knowledge/knowledgeLines";
import { knowledgeSection } from "../../../src/core/sources/autodev/tree/knowledgeTree";
import { copyFullFixture } from "../helpers/autodevOracle";

const NOW = 1_800_000_000;

/** A lesson line as AutoDev writes it (compact JSON); confidence and age vary with `i`; `pad` lengthens its text. */
function lesson(i: number, pad = 0): string {
  return JSON.stringify({
    id: `developer-${i.toString(16).padStart(10, "0")}-ab12`,
    timestamp: new Date((NOW - ((i * 7919) % (45 * 86400))) * 1000).toISOString().replace("Z", "+00:00"),
    role_source: "developer",
    tier: "swarm",
    text: `Lesson ${i}: keep greeting functions pure so they are trivial to test, and say why in the commit message.${" Really.".repeat(pad)}`,
    confidence: ((i * 37) % 100) / 100,
    applied_count: i % 7,
    succeeded_after_count: 0,
    confirmations: i % 3,
    metadata: { task_id: `${i % 40}.${i % 9}` },
  });
}

async function read(ws: string, home: string): Promise<KnowledgeReport> {
  return readKnowledge(ws, await readConfig(ws), { home, nowS: NOW });
}

describe("autodev knowledge, streamed", function () {
  this.timeout(120_000);
  let ws = "";
  let home = "";
  let file = "";
  beforeEach(() => {
    ({ ws, home } = copyFullFixture());
    file = path.join(ws, ".autodev/knowledge.jsonl");
  });

  it("reads a file over the old 16 MiB limit, keeping the highest-ranked lessons as a full ranking orders them @slow", async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => lesson(i, 80));
    fs.writeFileSync(file, lines.join("\n") + "\n");
    assert.ok(fs.statSync(file).size > 16 * 1024 * 1024, "over the old limit");
    const k = await read(ws, home);
    assert.deepEqual(k.errors, []);
    assert.deepEqual(k.skipped, []);
    assert.equal(k.swarmCount, 20_000);
    assert.equal(k.swarm.length, MAX_LESSONS_LISTED);
    const all = lines
      .map((l, i) => ({ line: i + 1, rank: rankLesson(JSON.parse(l) as Parameters<typeof rankLesson>[0], NOW) }))
      .sort((a, b) => b.rank - a.rank || a.line - b.line)
      .slice(0, MAX_LESSONS_LISTED);
    assert.deepEqual(
      k.swarm.map((e) => e.line),
      all.map((e) => e.line),
    );
    const section = knowledgeSection(k, NOW)!;
    assert.equal(section.description, "20000 project · 1 hive · 1 rejected");
    const swarm = section.children!.find((c) => c.id === "autodev|knowledge|swarm")!;
    assert.equal(swarm.description, "20000 · knowledge.jsonl");
    assert.equal(swarm.children!.length, MAX_LESSONS_LISTED + 1);
    assert.equal(swarm.children!.at(-1)!.label, `and ${20_000 - MAX_LESSONS_LISTED} more not listed`);
  });

  it("counts bad lines past the listing cap, keeps AutoDev's next-record consequence, and reads a torn last line as corrupt", async () => {
    const bad = Array.from({ length: 1000 }, (_, i) =>
      i % 3 === 0 ? lesson(i).slice(0, 50) : i % 3 === 1 ? lesson(i).replace('"tier":"swarm"', '"tier":"nest"') : "[1]",
    );
    fs.writeFileSync(file, [lesson(1), ...bad, lesson(2), lesson(3).slice(0, 80)].join("\n"));
    const k = await read(ws, home);
    assert.equal(k.swarmCount, 2);
    assert.equal(k.skipped.length, MAX_SKIPPED_LISTED + 1);
    const last = k.skipped.at(-1)!;
    assert.equal(last.more, 1001 - MAX_SKIPPED_LISTED);
    assert.equal(last.line, 2 + MAX_SKIPPED_LISTED);
    assert.match(last.reason, /^and 801 more lines from here on skipped/);
    assert.match(
      k.skipped[0].reason,
      /^corrupt JSON .*; AutoDev's next recorded lesson rewrites the file without this line$/,
    );
    assert.match(k.skipped[1].reason, /^tier: .*; no new lesson is kept while it is here/);
    assert.match(k.skipped[2].reason, /^not a JSON object; AutoDev's next recorded lesson rewrites/);
    // The torn last line (no newline) is line 1003, counted in the "more" entry.
    fs.writeFileSync(file, [lesson(1), lesson(2), lesson(3).slice(0, 80)].join("\n"));
    const torn = await read(ws, home);
    assert.equal(torn.swarmCount, 2);
    assert.deepEqual(
      torn.skipped.map((s) => [s.line, /^corrupt JSON/.test(s.reason)]),
      [[3, true]],
    );
  });

  it("numbers lines as Python's splitlines does: CRLF, a lone CR and a form feed inside a line", async () => {
    fs.writeFileSync(file, [lesson(1), lesson(2), "{oops", lesson(3)].join("\r\n") + "\r\n");
    const crlf = await read(ws, home);
    assert.deepEqual(
      crlf.skipped.map((s) => s.line),
      [3],
    );
    assert.deepEqual(crlf.swarm.map((e) => e.line).sort(), [1, 2, 4]);
    fs.writeFileSync(file, `${lesson(1)}\r${lesson(2)}\f{oops\n${lesson(3)}\n`);
    const mixed = await read(ws, home);
    assert.deepEqual(
      mixed.skipped.map((s) => s.line),
      [3],
    );
    assert.equal(mixed.swarmCount, 3);
  });

  it("skips a line over the line limit unread and goes on after it", async () => {
    const before = getMaxLineBytes();
    setMaxLineBytes(4096);
    try {
      const giant = lesson(5).replace("Lesson 5", "x".repeat(10_000));
      fs.writeFileSync(file, [lesson(1), giant, lesson(2)].join("\n") + "\n");
      const k = await read(ws, home);
      assert.equal(k.swarmCount, 2);
      assert.deepEqual(k.swarm.map((e) => e.line).sort(), [1, 3]);
      assert.equal(k.skipped.length, 1);
      assert.equal(k.skipped[0].line, 2);
      assert.match(
        k.skipped[0].reason,
        new RegExp(`^${Buffer.byteLength(giant)} bytes, over the 4096-byte limit of one line`),
      );
      assert.ok(!k.skipped[0].reason.includes("xxxx"), "never echoed");
    } finally {
      setMaxLineBytes(before);
    }
  });

  it("refuses a FIFO, a link out of the workspace, a file over the size limit and one that is not UTF-8, as before", async () => {
    fs.rmSync(file);
    assert.equal(spawnSync("mkfifo", [file]).status, 0);
    const fifo = await read(ws, home);
    assert.match(fifo.errors.join("\n"), /\.autodev\/knowledge\.jsonl is a FIFO, expected a regular file; not read/);
    fs.rmSync(file);
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "knowledge-out-")), "k.jsonl");
    fs.writeFileSync(outside, lesson(1) + "\n");
    fs.symlinkSync(outside, file);
    const link = await read(ws, home);
    assert.equal(link.swarmCount, 0);
    assert.match(link.errors.join("\n"), /outside the workspace; not read/);
    fs.rmSync(file);
    fs.writeFileSync(file, lesson(1) + "\n");
    fs.truncateSync(file, MAX_KNOWLEDGE_BYTES + 1); // sparse: nothing of it is read
    const big = await read(ws, home);
    assert.equal(big.swarmCount, 0);
    assert.match(
      big.errors.join("\n"),
      /over the \d+-byte limit; not read \(AutoDev keeps knowledge\.swarm_max_entries/,
    );
    fs.writeFileSync(file, Buffer.concat([Buffer.from(lesson(1) + "\n"), Buffer.from([0xff, 0x0a])]));
    const notUtf8 = await read(ws, home);
    assert.equal(notUtf8.swarmCount, 0);
    assert.deepEqual(notUtf8.skipped, []);
    assert.match(notUtf8.errors.join("\n"), /knowledge\.jsonl is not valid UTF-8/);
  });
});
