// Round 4 of the hostile folders (issue 32), items 4, 5, 6 and 7: the hive a repository's
// config.json points at, knowledge files of hundreds of MB of line breaks, 150 000 bad lines
// counted, and the settings a cloned repository carries.
import { fakeSettings } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readFileLines } from "../../../src/core/fs/lineReader";
import { readConfig } from "../../../src/core/sources/autodev/config/configReader";
import { readKnowledge } from "../../../src/core/sources/autodev/knowledge/knowledgeReader";
import { MAX_KNOWLEDGE_LINES } from "../../../src/core/sources/autodev/knowledge/knowledgeLines";
import { REPO_ROOT, copyFixture } from "../fixtures";
import { SettingsReader } from "../../../src/extension/settings/settings";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(env: NodeJS.ProcessEnv, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: "utf8",
    maxBuffer: 64 << 20,
    timeout: 60_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const lesson = (text: string, tier = "hive") =>
  JSON.stringify({
    id: `x-${text.length}`,
    timestamp: "2026-11-30T00:00:00+00:00",
    role_source: "developer",
    tier,
    text,
    confidence: 0.5,
  });

/** python-small, an empty home, and an outside folder with a lesson file. */
function setup(): { ws: string; home: string; outside: string } {
  const ws = copyFixture("python-small");
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "hive-home-"));
  const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hive-outside-")), "knowledge.jsonl");
  fs.writeFileSync(outside, lesson("OUTSIDE SECRET") + "\n");
  return { ws, home, outside };
}

describe("hostile round 4: the hive is not the repository's to choose (issue 32.4) @slow", function () {
  this.timeout(60_000);

  it("config.json hive.path (relative out, absolute, a link in .autodev/) is not read; status says so", async () => {
    const { ws, home, outside } = setup();
    const link = path.join(ws, ".autodev/hive.jsonl");
    fs.symlinkSync(outside, link);
    for (const hivePath of [path.relative(ws, outside), outside, ".autodev/hive.jsonl"]) {
      fs.writeFileSync(path.join(ws, ".autodev/config.json"), JSON.stringify({ hive: { path: hivePath } }));
      const k = await readKnowledge(ws, await readConfig(ws), { home });
      assert.deepEqual([k.hiveCount, k.hiveOrigin, k.hiveIgnored], [0, "default", hivePath], hivePath);
      assert.equal(k.hivePath, path.join(home, ".local/share/autodev/shared-learnings.jsonl"));
      for (const cmd of ["status", "knowledge", "report"]) {
        const r = cli({ HOME: home }, cmd, ws);
        assert.doesNotMatch(r.out + r.err, /OUTSIDE SECRET/, `${cmd} ${hivePath}`);
      }
      const s = cli({ HOME: home }, "status", ws);
      assert.match(s.out, /in hive tier \(.*shared-learnings\.jsonl, AutoDev's default\)/);
      assert.match(s.out, /note: config\.json sets hive\.path to .*; it is not read/);
      const j = JSON.parse(cli({ HOME: home }, "status", ws, "--json").out);
      assert.deepEqual([j.knowledge.hive_origin, j.knowledge.hive_ignored], ["default", hivePath]);
    }
  });

  it("AutoDev's default under the home folder is read; --hive FILE reads the user's choice and says so", () => {
    const { ws, home, outside } = setup();
    fs.mkdirSync(path.join(home, ".local/share/autodev"), { recursive: true });
    fs.writeFileSync(path.join(home, ".local/share/autodev/shared-learnings.jsonl"), lesson("HOME LESSON") + "\n");
    assert.match(cli({ HOME: home }, "knowledge", ws).out, /HOME LESSON/);
    const r = cli({ HOME: home }, "knowledge", ws, "--hive", outside);
    assert.match(r.out, /hive \(.*knowledge\.jsonl, from --hive\): 1 lesson/);
    assert.match(r.out, /OUTSIDE SECRET/);
  });
});

describe("hostile round 4: knowledge files bounded in time (issue 32.5)", function () {
  this.timeout(120_000);

  it("the line reader skips empty lines (\\n, \\r\\n, \\r; across chunks) without calling back, numbering the rest", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "blank-")), "f.jsonl");
    // 1 MiB chunks: put a \r at a chunk's last byte, a \n at the next chunk's first.
    const head = "\n".repeat((1 << 20) - 1) + "\r";
    fs.writeFileSync(file, head + "\na\r\n\r\n\rb\n\n\nc");
    const seen: [number, string | null][] = [];
    const fh = await fs.promises.open(file, "r");
    try {
      await readFileLines(fh, (l) => void seen.push([l.lineNo, l.text]), 1 << 20, "strict", "skip");
    } finally {
      await fh.close();
    }
    const first = (1 << 20) + 1; // the \r\n that straddles the chunks ends line 2^20, "a" is the next
    assert.deepEqual(seen, [
      [first, "a"],
      [first + 3, "b"],
      [first + 6, "c"],
    ]);
  });

  it(`more than ${MAX_KNOWLEDGE_LINES} non-empty lines: refused with a count, for the swarm, rejected and hive files @slow`, async () => {
    const { ws, home } = setup();
    const many = "x\n".repeat(MAX_KNOWLEDGE_LINES + 1);
    fs.writeFileSync(path.join(ws, ".autodev/knowledge.jsonl"), "\n".repeat(1000) + many);
    fs.writeFileSync(path.join(ws, ".autodev/rejected_lessons.jsonl"), many);
    fs.mkdirSync(path.join(home, ".local/share/autodev"), { recursive: true });
    fs.writeFileSync(path.join(home, ".local/share/autodev/shared-learnings.jsonl"), many);
    const k = await readKnowledge(ws, await readConfig(ws), { home });
    assert.equal(k.errors.length, 3, k.errors.join("\n"));
    assert.match(k.errors[0], /knowledge\.jsonl has more than 250000 non-empty lines \(line 251001\); not read/);
    assert.ok(k.errors.every((e) => /more than 250000 non-empty lines/.test(e)));
    assert.equal(k.skipped.length, 0, "a refused file lists nothing");
  });

  it("line numbers after empty lines and Python's extra breaks stay Python's", async () => {
    const { ws, home } = setup();
    fs.writeFileSync(
      path.join(ws, ".autodev/knowledge.jsonl"),
      "\n\r\n{bad}\nnope\u2028{bad2}\n\n\r\r" + lesson("ok", "swarm") + "\n[]\n",
    );
    const k = await readKnowledge(ws, await readConfig(ws), { home });
    assert.deepEqual(
      k.skipped.map((s) => s.line),
      [3, 4, 5, 10],
    );
    assert.deepEqual(
      k.swarm.map((e) => e.line),
      [9],
    );
  });
});

describe("hostile round 4: every bad knowledge line counted (issue 32.6) @slow", function () {
  this.timeout(120_000);

  it("150 000 bad lines: check counts 149 800 more, the report 150 000", () => {
    const { ws, home } = setup();
    fs.writeFileSync(path.join(ws, ".autodev/knowledge.jsonl"), "not json\n".repeat(150_000));
    const r = cli({ HOME: home }, "check", ws);
    assert.match(
      r.out,
      /149800 more like this \(knowledge_line_skipped\) in \.autodev\/knowledge\.jsonl, the first at line 201/,
    );
    const j = JSON.parse(cli({ HOME: home }, "report", ws, "--format", "json").out);
    assert.equal(j.knowledge.skipped, 150_000);
  });
});

describe("hostile round 4: a cloned repository's settings (issue 32.7)", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
    contributes: {
      configuration: {
        properties: Record<string, { scope?: string; maximum?: number; default?: unknown; type: string }>;
      };
    };
  };
  const props = manifest.contributes.configuration.properties;

  it("the command Resume Run runs, and the memory limit, are machine settings (a workspace cannot set them)", () => {
    assert.equal(props["autodev.autodevCommand"].scope, "machine");
    assert.equal(props["autodev.maxLineMB"].scope, "machine");
  });

  it("every numeric limit has a maximum, and the limits and the command are restricted in untrusted workspaces", () => {
    for (const [key, p] of Object.entries(props)) {
      if (p.type === "number") assert.equal(typeof p.maximum, "number", `${key} has no maximum`);
    }
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    for (const key of [
      "autodev.autodevCommand",
      "autodev.maxLineMB",
      "autodev.lockTimeoutSeconds",
      "autodev.confirmVerifyAboveMB",
    ]) {
      assert.ok(restricted.includes(key), `${key} is not restricted`);
    }
  });

  it("settings.ts enforces the manifest's maxima (a larger value falls back to the default)", () => {
    const reader = new SettingsReader();
    const read: Record<string, () => number> = {
      lockTimeoutSeconds: () => reader.lockTimeoutSeconds(undefined),
      confirmVerifyAboveMB: () => reader.confirmVerifyAboveMB(undefined),
      maxLineMB: () => reader.maxLineBytes() / (1024 * 1024),
      debounceMs: () => reader.debounceMs(undefined),
    };
    try {
      for (const [key, value] of Object.entries(read)) {
        const { maximum, default: fallback } = props[`autodev.${key}`];
        assert.ok(maximum !== undefined, `the manifest sets no maximum for ${key}`);
        fakeSettings.set(key, maximum);
        assert.equal(value(), maximum, `${key} at the manifest's maximum is kept`);
        fakeSettings.set(key, maximum + 1);
        assert.equal(value(), fallback, `${key} over the manifest's maximum falls back to the default`);
      }
    } finally {
      fakeSettings.clear();
    }
  });
});
