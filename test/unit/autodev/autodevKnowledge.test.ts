/**
 * Knowledge, read-only: ranks and timestamps differentially against Python (the real
 * KnowledgeStore._rank_with_ts / _timestamp_to_epoch: live with AUTODEV_PY_SRC, else their recorded answers); the python-full
 * fixture's swarm, hive (under its home folder) and rejected lessons; corrupt lines skipped as Python skips
 * them; a hostile hive path refused.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { readConfig } from "../../../src/core/sources/autodev/config/configReader";
import { rankLesson, readKnowledge } from "../../../src/core/sources/autodev/knowledge/knowledgeReader";
import { pyIsoTimestamp } from "../../../src/core/sources/autodev/knowledge/pyIsoTime";
import { askOracle, copyFullFixture } from "../helpers/autodevOracle";
import { SeededRandom } from "../../../src/core/seededRandom";

const NOW = 1_800_000_000;

const TIMESTAMPS = [
  "2026-11-30T09:35:50.436425+00:00",
  "2026-11-30T09:35:50+02:00",
  "2026-11-30T09:35:50Z",
  "2026-11-30 09:35:50",
  "2026-11-30T09:35",
  "2026-11-30T09",
  "2026-11-30",
  "2026-02-29T00:00:00Z",
  "2024-02-29T00:00:00Z",
  "2026-13-01T00:00:00Z",
  "2026-11-30T24:00:00Z",
  "2026-11-30T09:35:50.1Z",
  "2026-11-30T09:35:50,5+00:00",
  "2026-11-30T09:35:50-05:30",
  "not a date",
  "",
  "1969-12-31T23:59:59+00:00",
  "0001-01-01T00:00:00+00:00",
  "2026-11-30T09:35:50+0000",
  "2026-11-30X09:35:50Z",
  "2026-11-30T093550",
  "2026-11-30T0935",
  "20261130",
  "2026-11-30T09:35:50+00",
  "2026-11-30T09:35:50.1234567Z",
  "2026-11-30T09:35:50+00:00:30",
  "2026-11-30T09:3550",
  "2026-11-30T09:35:50.123+0530",
  "2026-11-30T09:35:50 +00:00",
  "2026-11-30T09:35:50z",
  "2026-11-30T09:35:50+24:00",
  "2026-11-30\u{1F600}09:35:50Z",
  "2026-11-30\u{1F600}\u{1F600}09:35:50Z",
  "2026-11-30\u00e909:35:50Z",
  "2026-11-30T9:35:50Z",
  "2000-02-29T00:00:00Z",
  "1900-02-29T00:00:00Z",
  "2026-04-31T00:00:00Z",
  "2026-12-31T23:59:59Z",
];

describe("autodev knowledge (swarm, hive, rejected)", function () {
  this.timeout(120_000);

  it("parses timestamps like datetime.fromisoformat(...).timestamp() (0 where Python fails) @slow", () => {
    const py = askOracle<{ epoch: number }>(TIMESTAMPS.map((ts) => ({ op: "epoch", ts })));
    TIMESTAMPS.forEach((ts, i) => {
      const ours = pyIsoTimestamp(ts) ?? 0;
      assert.ok(Math.abs(ours - py[i].epoch) < 1e-6, `${JSON.stringify(ts)}: ours ${ours}, Python ${py[i].epoch}`);
    });
  });

  it("ranks lessons as Python: confidence × recency × (1 + ln(applied + 1)), over 300 random entries @slow", () => {
    const r = new SeededRandom(15);
    const rnd = () => r.next() / 4294967296;
    const entries = Array.from({ length: 300 }, (_, i) => {
      const age = rnd() < 0.2 ? rnd() * 90 * 86400 : rnd() * 40 * 86400;
      const ts =
        rnd() < 0.1 ? TIMESTAMPS[Math.floor(rnd() * TIMESTAMPS.length)] : new Date((NOW - age) * 1000).toISOString();
      return {
        id: `l${i}`,
        timestamp: ts,
        role_source: "developer",
        tier: "swarm",
        text: `lesson ${i}`,
        confidence: Math.round(rnd() * 1000) / 1000,
        applied_count: Math.floor(rnd() * 12) - 1,
      };
    });
    const py = askOracle<{ rank: number }>(entries.map((entry) => ({ op: "rank", entry, now: NOW })));
    entries.forEach((e, i) =>
      assert.ok(
        Math.abs(rankLesson(e, NOW) - py[i].rank) < 1e-9,
        `entry ${i} (${e.timestamp}): ours ${rankLesson(e, NOW)}, Python ${py[i].rank}`,
      ),
    );
  });

  it("reads the fixture's swarm ranked highest first, its hive from the home folder, and the rejected lesson @slow", async () => {
    const { ws, home } = copyFullFixture();
    const k = await readKnowledge(ws, await readConfig(ws), { home, nowS: NOW });
    assert.deepEqual(k.errors, []);
    assert.deepEqual(k.skipped, []);
    assert.equal(k.swarm.length, 3);
    const py = askOracle<{ rank: number }>(
      k.swarm.map((e) => ({ op: "rank", entry: { ...e, rank: undefined, line: undefined }, now: NOW })),
    );
    for (let i = 1; i < k.swarm.length; i++) assert.ok(py[i - 1].rank >= py[i].rank, "Python's order: rank descending");
    assert.equal(k.swarm[0].text, "Keep greeting functions pure so they are trivial to test.");
    assert.equal(k.swarm[0].confirmations, 4);
    assert.equal(k.hivePath, path.join(home, ".local/share/autodev/shared-learnings.jsonl"));
    assert.equal(k.hive.length, 1);
    assert.equal(k.hive[0].tier, "hive");
    assert.equal(k.rejected.length, 1);
    assert.equal(k.rejected[0].reason, "contradicts the QA policy");
  });

  it("skips blank, corrupt, non-object and invalid lines as _read_jsonl does, reporting only their numbers", async () => {
    const { ws, home } = copyFullFixture();
    const file = path.join(ws, ".autodev/knowledge.jsonl");
    const good = fs.readFileSync(file, "utf8").split("\n")[0];
    fs.writeFileSync(
      file,
      [good, "", '{"id": "x", "secret": "s3cr3t"', "[1,2]", '{"id": "y"}', `  ${good}  `].join("\n"),
    );
    const k = await readKnowledge(ws, await readConfig(ws), { home, nowS: NOW });
    assert.equal(k.swarm.length, 2);
    assert.deepEqual(
      k.skipped.map((s) => s.line),
      [3, 4, 5],
    );
    assert.ok(!JSON.stringify(k.skipped).includes("s3cr3t"), "line content is never echoed");
    // What AutoDev 0.1.1's next KnowledgeStore.record does (run on such files): it rewrites the
    // swarm file from the readable objects, and fails on an object that is not a KnowledgeEntry.
    const [corrupt, array, invalid] = k.skipped.map((s) => s.reason);
    assert.match(corrupt, /^corrupt JSON .*; AutoDev's next recorded lesson rewrites the file without this line$/);
    assert.match(array, /^not a JSON object; AutoDev's next recorded lesson rewrites the file without this line$/);
    assert.match(invalid, /; no new lesson is kept while it is here: AutoDev's KnowledgeStore\.record validates/);
  });

  it("does not read the hive when config disables it, and refuses a --hive that is not a .jsonl regular file", async () => {
    const { ws, home } = copyFullFixture();
    const cfgFile = path.join(ws, ".autodev/config.json");
    const cfg = JSON.parse(fs.readFileSync(cfgFile, "utf8")) as { hive: { enabled: boolean; path: string } };
    cfg.hive.enabled = false;
    fs.writeFileSync(cfgFile, JSON.stringify(cfg));
    const off = await readKnowledge(ws, await readConfig(ws), { home, nowS: NOW });
    assert.equal(off.hiveEnabled, false);
    assert.equal(off.hive.length, 0);
    cfg.hive.enabled = true;
    fs.writeFileSync(cfgFile, JSON.stringify(cfg));
    // The user's own --hive is checked as strictly (the repository's hive.path is never read: hostileKnowledge.test.ts).
    const passwd = await readKnowledge(ws, await readConfig(ws), { home, nowS: NOW, hive: "/etc/passwd" });
    assert.equal(passwd.hive.length, 0);
    assert.match(passwd.errors.join("\n"), /not a \.jsonl file/);
    const fifo = path.join(home, "fifo.jsonl");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    const pipe = await readKnowledge(ws, await readConfig(ws), { home, nowS: NOW, hive: fifo });
    assert.match(pipe.errors.join("\n"), /FIFO/);
  });
});
