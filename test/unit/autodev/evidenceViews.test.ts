// Human views of evidence: one-line summaries, the evidence a status implies, readable Markdown
// that never lets data become markup, loose reading of tournament folders (the demo's shapes and
// unknown ones), and the `evidence` / `diff` CLI commands on valid and hostile workspaces.
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { validateEvidence } from "../../../src/core/sources/autodev/evidence/evidenceSchemas";
import { Evidence } from "../../../src/core/sources/autodev/evidence/evidenceSchemas";
import {
  evidenceMarkdown,
  missingEvidence,
  patchMarkdown,
  summarizeEvidence,
} from "../../../src/core/sources/autodev/evidence/evidenceSummary";
import { listEvidence } from "../../../src/core/sources/autodev/evidence/evidenceStore";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { loadTaskEvidence } from "../../../src/core/sources/autodev/evidence/taskEvidence";
import { readTournament } from "../../../src/core/sources/autodev/evidence/tournamentStore";
import { describePass, passSummary } from "../../../src/core/sources/autodev/evidence/tournamentPasses";

const ROOT = resolve(__dirname, "../../../..");
const FIXTURES = join(ROOT, "test/fixtures");

function evidence(json: string): Evidence {
  const r = validateEvidence(parsePyJson(json));
  assert.ok(r.ok, r.ok ? "" : r.error);
  return r.value;
}

describe("evidence summaries", () => {
  it("says what each bundle concluded in one line", () => {
    assert.equal(
      summarizeEvidence(evidence('{"task_id": "1", "kind": "review", "verdict": "APPROVED", "issues": ["a", "b"]}')),
      "review APPROVED with 2 issues",
    );
    assert.equal(
      summarizeEvidence(
        evidence('{"task_id": "1", "kind": "test", "passed": 41, "failed": 1, "total": 42, "coverage_pct": 87.5}'),
      ),
      "tests 41/42 passed, 1 failed, 87.5% coverage",
    );
    assert.equal(
      summarizeEvidence(
        evidence(
          '{"task_id": "1", "kind": "tournament", "tournament_id": "t", "phase": "impl", "passes": 3, "winner": "AB", "converged": true}',
        ),
      ),
      "impl tournament won by AB after 3 passes, converged",
    );
    assert.equal(
      summarizeEvidence(evidence('{"task_id": "1", "kind": "critic", "verdict": "NEEDS_REVISION", "issues": ["x"]}')),
      "critic NEEDS_REVISION with 1 issue",
    );
    assert.equal(
      summarizeEvidence(evidence('{"task_id": "1", "kind": "domain_expert", "topic": "units", "findings": "f"}')),
      "domain expert on units (MEDIUM confidence)",
    );
  });

  it("lists the evidence a status implies but lacks (coded+ developer, reviewed+ review, tested+ test, tournamented+ tournament)", () => {
    assert.deepEqual(missingEvidence("in_progress", new Set()), []);
    assert.deepEqual(missingEvidence("coded", new Set()), ["developer"]);
    assert.deepEqual(missingEvidence("reviewed", new Set(["developer"])), ["review"]);
    assert.deepEqual(missingEvidence("tested", new Set(["developer", "review"])), ["test"]);
    assert.deepEqual(missingEvidence("complete", new Set(["developer"])), ["review", "test", "tournament"]);
    assert.deepEqual(
      missingEvidence("complete", new Set(["developer", "review", "test"]), { implTournament: false }),
      [],
    );
    assert.deepEqual(missingEvidence("complete", new Set(["developer", "review", "test", "tournament"])), []);
  });

  it("gathers a task's evidence: missing kinds, a refused evidence_bundle, every diff source", async () => {
    const bad = await loadTaskEvidence(join(FIXTURES, "evidence-bad"), "1.1", "complete", "../../../etc/passwd");
    assert.deepEqual(bad.missing, ["developer", "review", "test", "tournament"]);
    assert.equal(bad.bundleRef?.ok, false);
    assert.equal(bad.diffs.get("patch")?.ok, false);
    const good = await loadTaskEvidence(
      join(FIXTURES, "python-evidence"),
      "1.1",
      "complete",
      ".autodev/evidence/1.1-tournament.json",
    );
    assert.deepEqual(good.missing, []);
    assert.deepEqual(good.bundleRef, {
      ok: true,
      file: "1.1-tournament.json",
      exists: true,
      resolved: "1.1-tournament.json",
      note: null,
    });
    assert.deepEqual([...good.diffs.keys()], ["patch", "developer", "tournament"]);
    const unsafe = await loadTaskEvidence(join(FIXTURES, "evidence-bad"), "../outside", "reviewed", "/etc/passwd");
    assert.equal(unsafe.items.length, 1);
    assert.equal(unsafe.patch, null);
  });
});

describe("readable Markdown views", () => {
  it("escapes everything taken from the files: no HTML, links or emphasis from data", () => {
    const e = evidence(
      '{"task_id": "<x>", "kind": "review", "verdict": "REJECTED", "issues": ["<img src=x onerror=alert(1)>", "[a](javascript:x) **b** `c` | d\\nsecond line"], "output_text": "```\\n<script>alert(1)</script>\\n```"}',
    );
    const md = evidenceMarkdown(e, { file: "1-review.json" });
    assert.ok(md.includes("\\<img src=x onerror=alert(1)\\>"), md);
    assert.ok(md.includes("\\[a\\](javascript:x) \\*\\*b\\*\\* \\`c\\` \\| d  \n   second line"), md);
    assert.ok(md.includes("# Review — task \\<x\\>"), md);
    // The output is fenced with a fence longer than any backtick run in it.
    assert.ok(md.includes("````text\n```\n<script>alert(1)</script>\n```\n````\n"), md);
    const dataLines = md.split("\n").filter((l) => /^(\d+\. |# |\s+second)/.test(l));
    assert.equal(dataLines.length, 4);
    for (const l of dataLines) {
      assert.doesNotMatch(
        l.replace(/^\d+\. |^# /, ""),
        /(^|[^\\])[<>[\]*`|]/,
        `unescaped markup in ${JSON.stringify(l)}`,
      );
    }
  });

  it("shows test results, findings and the tournament folder with passes, winners and judge scores", async () => {
    const test = evidenceMarkdown(
      evidence('{"task_id": "1", "kind": "test", "passed": 3, "failed": 2, "total": 6, "output_text": "2 failed"}'),
      { file: "1-test.json" },
    );
    assert.match(test, /❌ 3 passed, 2 failed, 6 total/);
    assert.match(test, /\| 3 \| 2 \| 6 \| — \|/);
    assert.match(test, /passed \+ failed \(5\) is not the total \(6\)/);
    const explore = evidenceMarkdown(
      evidence(
        '{"task_id": "plan", "kind": "explore", "findings": "line 1\\n    indented", "files_referenced": ["src/a.py"]}',
      ),
      { file: "plan-explore.json" },
    );
    assert.match(explore, /line 1 {2}\n\u00a0{4}indented/);
    assert.match(explore, /- src\/a\.py/);
    const ws = fs.mkdtempSync(join(tmpdir(), "autodev-tournament-"));
    try {
      const tdir = join(ws, ".autodev/tournaments/impl-1.2");
      fs.mkdirSync(join(tdir, "pass_01"), { recursive: true });
      fs.mkdirSync(join(tdir, "pass_02"), { recursive: true });
      fs.writeFileSync(
        join(tdir, "history.json"),
        JSON.stringify([
          { pass: 1, winner: "A", scores: { A: 0.58, B: 0.42 } },
          { pass: 2, winner: "AB", scores: { A: 0.47, AB: 0.53 } },
        ]),
      );
      fs.writeFileSync(
        join(tdir, "pass_01/result.json"),
        JSON.stringify({
          winner: "A",
          judges: [
            { judge: "j1", A: 7, B: 5 },
            { judge: "j2", A: 6, B: 6 },
          ],
        }),
      );
      fs.writeFileSync(join(tdir, "pass_02/result.json"), "[1, 2, NaN]");
      const rec = await readTournament(ws, "impl-1.2");
      assert.ok(rec.history?.ok);
      assert.deepEqual(rec.history.value.map(passSummary), [
        "pass 1: A won (A 0.58 · B 0.42)",
        "pass 2: AB won (A 0.47 · AB 0.53)",
      ]);
      assert.ok(rec.results[0].file.ok);
      assert.deepEqual(rec.results[0].file.value.judges, [
        {
          name: "j1",
          scores: [
            ["A", 7],
            ["B", 5],
          ],
        },
        {
          name: "j2",
          scores: [
            ["A", 6],
            ["B", 6],
          ],
        },
      ]);
      assert.ok(rec.results[1].file.ok && !rec.results[1].file.value.known);
      const t = evidence(
        '{"task_id": "1.2", "kind": "tournament", "tournament_id": "impl-1.2", "phase": "impl", "passes": 2, "winner": "AB", "converged": true, "history": [{"pass": 1, "winner": "A"}, {"odd": {"x": [1]}}]}',
      );
      const md = evidenceMarkdown(t, { file: "1.2-tournament.json", tournament: rec });
      assert.match(md, /\| 1 \| A \| A 0\.58 · B 0\.42 \| — \| — \|/);
      assert.match(md, /\| j1 \| A 7 · B 5 \|/);
      assert.match(
        md,
        /pass_02\/result\.json\n\nUnrecognised shape; as written:\n\n```json\n\[\n {2}1,\n {2}2,\n {2}NaN\n\]\n```/,
      );
      assert.match(md, /Evidence history: entries shown as written\n\n```json\n\{\n {2}"odd"/);
    } finally {
      fs.rmSync(ws, { recursive: true, force: true });
    }
  });

  it("reads pass entries of many shapes without throwing", () => {
    const shapes = [
      '{"round": 4, "winner": "B", "judges": {"j1": {"A": 1, "B": 2}}}',
      '{"pass": "x", "winner": 5, "scores": {"A": "high", "B": 0.4}}',
      "[1, 2]",
      "null",
      '"text"',
      '{"notes": "one"}',
    ];
    const got = shapes.map((s) => describePass(parsePyJson(s), 9));
    assert.deepEqual(
      [got[0].n, got[0].winner, got[0].judges],
      [
        4,
        "B",
        [
          {
            name: "j1",
            scores: [
              ["A", 1],
              ["B", 2],
            ],
          },
        ],
      ],
    );
    assert.deepEqual([got[1].n, got[1].winner, got[1].scores], [9, null, [["B", 0.4]]]);
    for (const p of got.slice(2)) assert.equal(p.known, false);
    assert.deepEqual(got[5].notes, ["one"]);
  });

  it("renders a patch view with its files and the fenced diff", async () => {
    const [item] = await listEvidence(join(FIXTURES, "python-evidence"), "1.2");
    assert.ok(item.ok);
    const text = fs.readFileSync(join(FIXTURES, "python-evidence/.autodev/evidence/1.2.patch"), "utf8");
    const md = patchMarkdown("1.2", "1.2.patch", null, text, null);
    assert.ok(md.endsWith("```diff\n" + text + "```\n"));
  });
});

describe("evidence CLI (dist/cli.js) @slow", () => {
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [join(ROOT, "dist/cli.js"), ...args], { encoding: "utf8" });

  it("lists and validates: exit 0 on Python-written evidence, 1 with every reason on the hostile fixture", () => {
    const good = cli("evidence", join(FIXTURES, "python-evidence"), "1.1");
    assert.equal(good.status, 0, good.stderr);
    assert.match(good.stdout, /1\.1-review\.json: review APPROVED with 1 issue/);
    assert.match(good.stdout, /1\.1\.patch: patch, 4 files, \+17 −8/);
    const bad = cli("evidence", join(FIXTURES, "evidence-bad"), "1.1", "--json");
    assert.equal(bad.status, 1);
    const out = JSON.parse(bad.stdout);
    assert.equal(out.ok, false);
    assert.equal(out.bundles.filter((b: { ok: boolean }) => !b.ok).length, 7);
    assert.ok(!bad.stdout.includes("SECRET-OUTSIDE-EVIDENCE"));
  });

  it("summarises a patch per file and says where each file's sides come from", () => {
    const r = cli("diff", join(FIXTURES, "python-evidence"), "1.1", "--json");
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(
      out.files.map((f: { change: string; new_path: string | null; sides: string }) => [f.change, f.new_path, f.sides]),
      [
        ["modified", "README.md", "workspace"],
        ["modified", "src/calc.py", "workspace"],
        ["deleted", null, "workspace"],
        ["added", "src/ops.py", "workspace"],
      ],
    );
    const hostile = cli("diff", join(FIXTURES, "evidence-bad"), "1.2");
    assert.equal(hostile.status, 0, hostile.stderr);
    assert.match(hostile.stdout, /\.\.\/\.\.\/outside\/secret\.txt {2}\[from hunks only: .*leaves the workspace/);
    assert.equal(cli("diff", join(FIXTURES, "evidence-bad"), "1.3").status, 1);
    assert.equal(cli("diff", join(FIXTURES, "python-evidence"), "plan").status, 2);
  });
});
