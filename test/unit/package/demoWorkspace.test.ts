/**
 * The demo workspace a new user sees first: generated, then checked by our own CLI, which must
 * find AutoDev, agloop and engine_state side by side and report exactly the problems the demo
 * stages (none). Its `.agloop/` and `engine_state/` are the real writers' bytes; its spec matches
 * the plan's `spec_hash` as Python computes it; its tournaments are laid out as Python's
 * `TournamentArtifactStore` writes them (compared with the python-full fixture the real modules
 * wrote); and the .vsix ships what "Open Demo Workspace" copies.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  createDemoWorkspace,
  DEMO_SOURCE_FIXTURES,
  DEMO_SOURCE_FOLDERS,
  DEMO_STAGED_PROBLEMS,
  demoAssetsDir,
} from "../../../src/sample/demoWorkspace";
import { DEMO_SPEC_INTENT } from "../../../src/sample/demoScript";
import { bordaWinner, DemoLabel } from "../../../src/sample/demoTournaments";
import { readTournaments } from "../../../src/core/sources/autodev/tournaments/tournamentIndex";
import { engineStateSource } from "../../../src/core/sources/engineState/engineStateSource";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { REPO_ROOT } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");
const PY_FULL = path.join(REPO_ROOT, "test/fixtures/python-full/workspace/.autodev");

function cli(...args: string[]): { code: number; out: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout };
}

/** Every regular file under `dir`, relative, sorted. */
function filesUnder(dir: string, rel = ""): string[] {
  return fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(dir, path.join(rel, e.name)) : [path.join(rel, e.name)]))
    .sort();
}

function json<T>(file: string): T {
  return JSON.parse(fs.readFileSync(file, "utf8")) as T;
}

/** A `PassResult` as `model_dump(mode="json")` writes it. */
interface PassDump {
  pass_num: number;
  winner: DemoLabel;
  scores: Record<DemoLabel, number>;
  valid_judges: number;
  judge_details: Array<{ ranking: DemoLabel[] | null }>;
  incumbent_hash_before: string;
  incumbent_hash_after: string;
  meta: Record<string, unknown>;
}

interface PlanDump {
  spec_hash: string;
  phases: Array<{
    tasks: Array<{
      id: string;
      status: string;
      retry_count: number;
      escalated: boolean;
      blocked_reason: string | null;
    }>;
  }>;
}

function child(nodes: readonly SourceTreeNode[], label: string): SourceTreeNode {
  const node = nodes.find((n) => n.label === label);
  assert.ok(node, `no node ${label} in ${nodes.map((n) => n.label).join(", ")}`);
  return node;
}

describe("demo workspace", function () {
  this.timeout(60_000);
  let ws: string;

  before(async () => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-demo-test-"));
    await createDemoWorkspace(ws);
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it("check --json finds AutoDev, agloop and engine_state and exactly the staged problems (none), exit 0", () => {
    const r = cli("check", ws, "--json");
    const report = JSON.parse(r.out) as {
      ok: boolean;
      sources: Array<{ kind: string; path: string; ok: boolean; problems: Array<{ code: string; message: string }> }>;
    };
    assert.deepEqual(
      report.sources.map((s) => [s.kind, s.path]),
      [
        ["autodev", ".autodev"],
        ["agloop", ".agloop"],
        ["engine_state", "engine_state"],
      ],
    );
    const codes = Object.fromEntries(
      report.sources.map((s) => [s.kind, s.problems.map((p) => `${p.code}: ${p.message}`)]),
    );
    assert.deepEqual(codes, DEMO_STAGED_PROBLEMS);
    assert.equal(report.ok, true);
    assert.equal(r.code, 0);
  });

  it("stages what a real run goes through: every status, a blocked reason, retries and an escalation", () => {
    const tasks = json<PlanDump>(path.join(ws, ".autodev/plan.json")).phases.flatMap((p) => p.tasks);
    assert.deepEqual(
      new Set(tasks.map((t) => t.status)),
      new Set([
        "pending",
        "in_progress",
        "coded",
        "auto_gated",
        "reviewed",
        "tested",
        "tournamented",
        "complete",
        "blocked",
        "skipped",
      ]),
    );
    const t32 = tasks.find((t) => t.id === "3.2")!;
    assert.deepEqual([t32.retry_count, t32.escalated], [2, true]);
    assert.match(tasks.find((t) => t.id === "3.3")!.blocked_reason ?? "", /Needs a decision/);
    assert.equal(cli("verify", ws, "--json").code, 0);
  });

  it("copies .agloop/ and engine_state/ byte for byte from the fixtures the real writers produced (and so does dist/demo/)", () => {
    for (const [name, target] of Object.entries(DEMO_SOURCE_FOLDERS)) {
      const fixture = path.join(REPO_ROOT, DEMO_SOURCE_FIXTURES[name]);
      const want = filesUnder(fixture);
      assert.ok(want.length >= 3, `${fixture} is nearly empty`);
      for (const dir of [path.join(ws, target), path.join(demoAssetsDir(path.join(REPO_ROOT, "dist")), name)]) {
        assert.deepEqual(filesUnder(dir), want, dir);
        for (const f of want) {
          assert.ok(
            fs.readFileSync(path.join(dir, f)).equals(fs.readFileSync(path.join(fixture, f))),
            `${dir}/${f} differs from the fixture`,
          );
        }
      }
    }
  });

  it("writes spec.md as run_plan_phase does, and the plan's spec_hash is sha256(intent)[:16]", () => {
    assert.equal(fs.readFileSync(path.join(ws, ".autodev/spec.md"), "utf8"), DEMO_SPEC_INTENT.trim() + "\n");
    // python3 -c 'import hashlib; print(hashlib.sha256(INTENT.encode()).hexdigest()[:16])'
    assert.equal(json<PlanDump>(path.join(ws, ".autodev/plan.json")).spec_hash, "7212e974de609c5b");
  });

  it("lays out each tournament as TournamentArtifactStore does, with PassResult dumps shaped like python-full's", () => {
    const realPass = json<PassDump[]>(path.join(PY_FULL, "tournaments/impl-a4751b99/history.json"))[0];
    const realPlanPass = json<PassDump[]>(path.join(PY_FULL, "tournaments/plan-9fbfb941/history.json"))[0];
    const root = path.join(ws, ".autodev/tournaments");
    const ids = fs.readdirSync(root).sort();
    assert.deepEqual(ids, ["impl-0f93b6d4", "impl-8b41d3f0", "impl-c27e9a15", "plan-5e0c7a92"]);
    for (const id of ids) {
      const dir = path.join(root, id);
      const history = json<PassDump[]>(path.join(dir, "history.json"));
      const real = id.startsWith("plan-") ? realPlanPass : realPass;
      const files = filesUnder(dir);
      for (const [i, pass] of history.entries()) {
        assert.deepEqual(Object.keys(pass), Object.keys(real), `${id} pass ${i + 1}`);
        assert.deepEqual(Object.keys(pass.meta), Object.keys(real.meta));
        assert.equal(pass.pass_num, i + 1);
        assert.deepEqual(json(path.join(dir, `pass_0${i + 1}`, "result.json")), pass);
        for (const f of ["version_a.md", "critic.md", "version_b.md", "version_ab.md", "result.json"]) {
          assert.ok(files.includes(path.join(`pass_0${i + 1}`, f)), `${id}: ${f}`);
        }
        // The incumbent hashes chain from pass to pass; an incumbent_after_NN.md exactly where A lost.
        if (i > 0) assert.equal(pass.incumbent_hash_before, history[i - 1].incumbent_hash_after);
        assert.equal(files.includes(`incumbent_after_0${i + 1}.md`), pass.winner !== "A");
        assert.deepEqual(bordaWinner(pass.judge_details.map((j) => j.ranking)), {
          winner: pass.winner,
          scores: pass.scores,
          valid: pass.valid_judges,
        });
      }
      for (const f of ["initial_a.md", "final_output.md", "history.json"]) assert.ok(files.includes(f), `${id}: ${f}`);
    }
  });

  it("records each tournament as Python's runners do: evidence, *_tournament_complete payloads, convergence", async () => {
    const { tournaments, errors } = await readTournaments(ws, null);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      tournaments.map((t) => [t.id, t.taskId, t.passes.map((p) => p.winner).join(","), t.converged, t.errors.length]),
      [
        ["impl-0f93b6d4", "2.1", "B,AB,B", false, 0],
        ["impl-8b41d3f0", "1.1", "A", true, 0],
        ["impl-c27e9a15", "1.2", "B,A", true, 0],
        ["plan-5e0c7a92", null, "AB,A,A", true, 0],
      ],
    );
    const keysOf = (ledger: string) =>
      fs
        .readFileSync(ledger, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { op: string; payload: object })
        .filter((e) => /_tournament_complete$/.test(e.op))
        .map((e) => [e.op, Object.keys(e.payload).sort().join(",")]);
    const real = new Map(keysOf(path.join(PY_FULL, "plan-ledger.jsonl")).map(([op, keys]) => [op, keys]));
    const demo = keysOf(path.join(ws, ".autodev/plan-ledger.jsonl"));
    assert.equal(demo.length, 4);
    for (const [op, keys] of demo) assert.equal(keys, real.get(op), op);
    const ev = json<{ tournament_id: string; passes: number; winner: string; converged: boolean; final_diff: string }>(
      path.join(ws, ".autodev/evidence/1.2-tournament.json"),
    );
    assert.deepEqual([ev.tournament_id, ev.passes, ev.winner, ev.converged], ["impl-c27e9a15", 2, "A", true]);
    assert.match(ev.final_diff, /^\+\+\+ b\/tests\/test_length\.py$/m, "the winner's diff, which the workspace holds");
  });

  it("waits on a person twice: AutoDev on the reviewer's delegation, agloop at its approval gate", async () => {
    const status = JSON.parse(cli("status", ws, "--json").out) as {
      waiting: { label: string; response: string; lessons_injected: number } | null;
      stale_inline_state: string | null;
      knowledge: unknown;
    };
    assert.deepEqual(
      [status.waiting?.label, status.waiting?.response, status.waiting?.lessons_injected, status.stale_inline_state],
      ["Waiting on reviewer for 1.3", "missing", 4, null],
    );
    const agloop = await agloopSource.detect(ws, {});
    assert.ok(agloop);
    const g = await agloopSource.waiting!(agloop);
    assert.equal(g?.who, "you");
    assert.match(g?.what ?? "", /approv/i);
  });

  it("engine_state outside a git repository reads as HEAD unknown, not stale and no error", async () => {
    const location = await engineStateSource.detect(ws, {});
    assert.ok(location);
    const manifest = child(await engineStateSource.tree(location), "Manifest");
    assert.equal(manifest.description, "schema 1 · turn 42");
    assert.equal(
      child(manifest.children ?? [], "HEAD").description,
      "unknown (the workspace folder is not a git repository)",
    );
    const summary = JSON.parse(cli("sources", ws, "--json").out).find(
      (s: { kind: string }) => s.kind === "engine_state",
    );
    assert.deepEqual(
      [summary.written_at_revision, summary.head_revision, summary.recognizers, summary.candidates],
      ["7ae1dd0ecc37", null, 3, 4],
    );
  });

  it("refuses a folder that already holds any of the three state folders", async () => {
    for (const sub of [".autodev", ".agloop", "engine_state"]) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-demo-taken-"));
      try {
        fs.mkdirSync(path.join(dir, sub));
        await assert.rejects(createDemoWorkspace(dir), new RegExp(`already has ${sub}/`));
        assert.deepEqual(fs.readdirSync(dir), [sub], "nothing written");
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  it("Borda count is Python's aggregate_rankings on python-full's passes (ties go to A)", () => {
    for (const t of ["impl-a4751b99", "plan-9fbfb941"]) {
      for (const pass of json<PassDump[]>(path.join(PY_FULL, "tournaments", t, "history.json"))) {
        assert.deepEqual(bordaWinner(pass.judge_details.map((j) => j.ranking)), {
          winner: pass.winner,
          scores: pass.scores,
          valid: pass.valid_judges,
        });
      }
    }
    assert.equal(
      bordaWinner([
        ["B", "A", "AB"],
        ["A", "B", "AB"],
      ]).winner,
      "A",
    );
  });

  it("the .vsix ships dist/demo/ (what Open Demo Workspace copies) and every bundle in dist/ @slow", function () {
    this.timeout(120_000);
    const r = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, "node_modules/@vscode/vsce/vsce"), "ls", "--no-dependencies"],
      { cwd: REPO_ROOT, encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    const listed = new Set(r.stdout.split("\n").map((l) => l.trim()));
    for (const name of [...Object.keys(DEMO_SOURCE_FOLDERS), "autodev-real-run"]) {
      for (const f of filesUnder(path.join(REPO_ROOT, "dist/demo", name))) {
        assert.ok(listed.has(`dist/demo/${name}/${f}`), `dist/demo/${name}/${f}`);
      }
    }
    const bundles = fs.readdirSync(path.join(REPO_ROOT, "dist")).filter((f) => f.endsWith(".js"));
    for (const b of bundles) assert.ok(listed.has(`dist/${b}`), `dist/${b} is not in the .vsix (.vscodeignore)`);
  });
});
