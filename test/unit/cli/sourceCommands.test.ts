/**
 * `autodev-state check` and `sources`: the source-generic CLI over STATE_SOURCES,
 * on Python-written AutoDev fixtures (as a user runs dist/cli.js) and with a
 * fake source registered in-process.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { checkDir, summarizeDir } from "../../../src/cli/sourceCommands";
import { registerSourceForTest } from "../../../src/core/sources/sourceRegistry";
import { SourceLocation, StateSource } from "../../../src/core/sources/stateSource";
import { ledgerPath, planPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** A source that lives in `.fake/` and reports what it is told to. */
function fakeSource(
  problems: StateSource["check"] extends (l: SourceLocation) => Promise<infer P> ? P : never,
): StateSource {
  return {
    kind: "fake",
    displayName: "Fake",
    async detect(workspace) {
      return fs.existsSync(path.join(workspace, ".fake"))
        ? { kind: "fake", workspace, dir: path.join(workspace, ".fake"), relDir: ".fake" }
        : null;
    },
    watchGlobs: () => [".fake/**"],
    check: async () => problems,
    summarize: async () => ({ items: 2, path: "ignored", kind: "ignored", name: "f" }),
    tree: async () => [],
  };
}

describe("CLI check and sources", function () {
  this.timeout(60_000);

  it("check --json on an intact Python ledger: ok, one autodev source, no problems, exit 0", () => {
    const r = cli("check", path.join(REPO_ROOT, "test/fixtures/python-small"), "--json");
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), {
      ok: true,
      sources: [{ kind: "autodev", path: ".autodev", ok: true, problems: [] }],
    });
  });

  it("check exits 1 on a tampered ledger with the finding at its line", () => {
    const dir = copyFixture("python-small");
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    lines[2] = lines[2].replace(/"status": "(\w+)"/, '"status": "tampered"');
    fs.writeFileSync(ledgerPath(dir), lines.join("\n"));
    const r = cli("check", dir, "--json");
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.equal(j.ok, false);
    assert.equal(j.sources[0].ok, false);
    const first = j.sources[0].problems[0];
    assert.deepEqual(Object.keys(first), ["file", "line", "severity", "code", "message"]);
    assert.deepEqual(
      [first.file, first.line, first.severity, first.code],
      [".autodev/plan-ledger.jsonl", 3, "error", "self_hash_mismatch"],
    );
    assert.match(first.message, /^self_hash mismatch: computed [0-9a-f]{16}, stored [0-9a-f]{16}/);
  });

  it("check reports a status without its evidence (the phase contract) and plan.json drift as warnings (exit 0) @slow", () => {
    const dir = copyFixture("python-small");
    fs.writeFileSync(
      planPath(dir),
      fs.readFileSync(planPath(dir), "utf8").replace('"Create hello module"', '"Create bye module"'),
    );
    const r = cli("check", dir, "--json");
    assert.equal(r.code, 0, r.err);
    const problems = JSON.parse(r.out).sources[0].problems as {
      file: string;
      line: number;
      severity: string;
      code: string;
    }[];
    const drift = problems.find((p) => p.code === "plan_json_mismatch");
    assert.ok(drift, JSON.stringify(problems));
    assert.equal(drift.file, ".autodev/plan.json");
    assert.equal(drift.severity, "warning");
    assert.equal(
      fs.readFileSync(planPath(dir), "utf8").split("\n")[drift.line - 1].includes("Create bye module"),
      true,
    );
    const bad = JSON.parse(cli("check", path.join(REPO_ROOT, "test/fixtures/evidence-bad"), "--json").out);
    assert.ok(
      bad.sources[0].problems.some(
        (p: { code: string; severity: string }) => p.code === "phase_without_evidence" && p.severity === "warning",
      ),
    );
  });

  it("check and sources exit 2 when DIR holds no state folder @slow", () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "nosource-"));
    for (const cmd of ["check", "sources"]) {
      const r = cli(cmd, empty, "--json");
      assert.equal(r.code, 2);
      assert.equal(r.out, "");
      assert.match(r.err, /no state folder in .*known sources: AutoDev/);
    }
  });

  it("sources --json summarises AutoDev with kind and path first", () => {
    const r = cli("sources", path.join(REPO_ROOT, "test/fixtures/python-small"), "--json");
    assert.equal(r.code, 0, r.err);
    const [s] = JSON.parse(r.out);
    assert.deepEqual(Object.keys(s).slice(0, 2), ["kind", "path"]);
    assert.deepEqual([s.kind, s.path, s.plan_id, s.entries, s.tasks.length], ["autodev", ".autodev", "p-small", 21, 6]);
    assert.deepEqual(s.tasks[1], { id: "1.2", title: "Add config loader", status: "blocked", depends_on: ["1.1"] });
  });

  it("existing commands keep their output (status --json still lists tasks)", () => {
    const status = JSON.parse(cli("status", path.join(REPO_ROOT, "test/fixtures/python-small"), "--json").out);
    assert.equal(status.tasks.length, 6);
  });

  describe("with a fake source registered", () => {
    it("lists it next to AutoDev, in registration order, and an error fails the check", async () => {
      const dir = copyFixture("python-small");
      fs.mkdirSync(path.join(dir, ".fake"));
      const unregister = registerSourceForTest(
        fakeSource([{ file: ".fake/a.json", line: 4, severity: "error", code: "fake_bad", message: "bad" }]),
      );
      try {
        const doc = await checkDir(dir);
        assert.ok(doc);
        assert.deepEqual(
          doc.sources.map((s) => [s.kind, s.path, s.ok]),
          [
            ["autodev", ".autodev", true],
            ["fake", ".fake", false],
          ],
        );
        assert.equal(doc.ok, false);
        assert.deepEqual(doc.sources[1].problems, [
          { file: ".fake/a.json", line: 4, severity: "error", code: "fake_bad", message: "bad" },
        ]);
        const summaries = await summarizeDir(dir);
        assert.deepEqual(summaries?.[1], { kind: "fake", path: ".fake", items: 2, name: "f" });
      } finally {
        unregister();
      }
      assert.deepEqual(
        (await checkDir(dir))?.sources.map((s) => s.kind),
        ["autodev"],
      );
    });

    it("warnings alone keep ok; a source whose check throws becomes a check_failed error", async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-"));
      fs.mkdirSync(path.join(dir, ".fake"));
      const warn = fakeSource([{ file: ".fake/a.json", line: null, severity: "warning", code: "w", message: "w" }]);
      assert.deepEqual(await checkDir(dir, [warn]), {
        ok: true,
        sources: [
          {
            kind: "fake",
            path: ".fake",
            ok: true,
            problems: [{ file: ".fake/a.json", line: null, severity: "warning", code: "w", message: "w" }],
          },
        ],
      });
      const throwing: StateSource = { ...warn, check: async () => Promise.reject(new Error("boom")) };
      const doc = await checkDir(dir, [throwing]);
      assert.equal(doc?.ok, false);
      assert.equal(doc?.sources[0].problems[0].code, "check_failed");
      assert.match(doc!.sources[0].problems[0].message, /boom/);
      assert.equal(await checkDir(fs.mkdtempSync(path.join(os.tmpdir(), "none-")), [warn]), null);
    });
  });
});
