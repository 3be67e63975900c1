/**
 * Tournaments as Python's TournamentArtifactStore writes them (python-full: a plan tournament of 3 passes
 * AB, A, A with one judge lacking a ranking, an impl tournament of 2 passes B, A for task 1.1): PassResult
 * fields compared with history.json as Python's json module reads it, pass numbers from pass_num, task and
 * convergence from the tournament evidence, artifacts, an unfinished run, leftover worktrees, hostile files.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { readTournaments } from "../../../src/core/sources/autodev/tournaments/tournamentIndex";
import { convergedAfter, PassRecord } from "../../../src/core/sources/autodev/tournaments/passResult";
import { copyFullFixture, tournamentId } from "../helpers/autodevOracle";

function pythonHistory(file: string): Array<Record<string, unknown>> {
  const r = spawnSync("python3", ["-c", "import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))", file], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
}

describe("autodev tournaments", function () {
  this.timeout(60_000);

  it("reads both fixture tournaments with every PassResult field as Python wrote it @slow", async () => {
    const { ws } = copyFullFixture();
    const { tournaments, errors } = await readTournaments(ws, null);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      tournaments.map((t) => t.phase),
      ["impl", "plan"],
    );
    for (const t of tournaments) {
      assert.deepEqual(t.errors, []);
      const py = pythonHistory(path.join(ws, t.dir, "history.json"));
      assert.equal(t.passes.length, py.length);
      t.passes.forEach((p, i) => {
        assert.equal(p.pass, py[i].pass_num);
        assert.equal(p.winner, py[i].winner);
        assert.deepEqual(p.scores, py[i].scores);
        assert.equal(p.validJudges, py[i].valid_judges);
        assert.equal(p.elapsedS, py[i].elapsed_s);
        assert.equal(p.hashBefore, py[i].incumbent_hash_before);
        assert.equal(p.hashAfter, py[i].incumbent_hash_after);
        const details = py[i].judge_details as Array<Record<string, unknown>>;
        assert.deepEqual(
          p.judges.map((j) => j.ranking),
          details.map((d) => d.ranking ?? null),
        );
      });
    }
    const [impl, plan] = tournaments;
    assert.equal(impl.taskId, "1.1");
    assert.deepEqual(
      impl.passes.map((p) => p.winner),
      ["B", "A"],
    );
    assert.equal(impl.converged, true);
    assert.equal(plan.taskId, null);
    assert.deepEqual(
      plan.passes.map((p) => p.winner),
      ["AB", "A", "A"],
    );
    assert.equal(plan.winner, "A");
    assert.equal(plan.converged, true);
    assert.equal(plan.passes[0].validJudges, 2);
    assert.equal(plan.passes[0].judges.filter((j) => j.ranking === null).length, 1);
    assert.match(plan.passes[0].judges.find((j) => j.ranking === null)!.rawResponse!, /cannot decide/);
    assert.ok(plan.initial?.endsWith("initial_a.md") && plan.final?.endsWith("final_output.md"));
    assert.deepEqual(
      plan.incumbents.map((x) => x.afterPass),
      [1],
    );
    assert.deepEqual(
      plan.passArtifacts.map((a) => a.pass),
      [1, 2, 3],
    );
    assert.ok(plan.passArtifacts.every((a) => a.versionA && a.critic && a.versionB && a.versionAB));
    assert.ok(plan.files.includes("pass_02/version_ab.md") && plan.files.includes("history.json"));
    assert.equal(plan.leftoverWorktrees, null);
  });

  it("numbers passes from pass_num, not position, and applies Python's convergence rule", () => {
    const p = (n: number, winner: "A" | "B" | "AB"): PassRecord => ({
      pass: n,
      winner,
      scores: {},
      validJudges: 1,
      elapsedS: 0,
      judges: [],
      hashBefore: "",
      hashAfter: "",
      timestamp: null,
    });
    assert.equal(convergedAfter([p(1, "B"), p(2, "A"), p(3, "A")], 2), true);
    assert.equal(convergedAfter([p(1, "A"), p(2, "B"), p(3, "A")], 2), false);
    assert.equal(convergedAfter([p(1, "AB")], 1), false);
  });

  it("reads an unfinished run from its pass folders (convergence unknown) and flags leftover worktrees only there", async () => {
    const { ws } = copyFullFixture();
    const dir = path.join(ws, ".autodev/tournaments", tournamentId(ws, "plan"));
    fs.rmSync(path.join(dir, "history.json"));
    fs.rmSync(path.join(dir, "final_output.md"));
    fs.rmSync(path.join(dir, "pass_01"), { recursive: true });
    fs.mkdirSync(path.join(dir, "worktrees/a-0000001"), { recursive: true });
    const implDir = path.join(ws, ".autodev/tournaments", tournamentId(ws, "impl"));
    fs.mkdirSync(path.join(implDir, "worktrees/b-0001234"), { recursive: true });
    const { tournaments } = await readTournaments(ws, null);
    const plan = tournaments.find((t) => t.phase === "plan")!;
    assert.equal(plan.finished, false);
    assert.deepEqual(plan.leftoverWorktrees, ["worktrees/a-0000001"], "a run that stopped left them: a crash");
    assert.equal(plan.converged, null);
    assert.deepEqual(
      plan.passes.map((x) => x.pass),
      [2, 3],
    );
    const impl = tournaments.find((t) => t.phase === "impl")!;
    assert.equal(impl.finished, true, "history.json and final_output.md: finished, worktrees or not");
    assert.equal(impl.leftoverWorktrees, null);
    assert.deepEqual(impl.worktrees, ["worktrees/b-0001234"]);
    assert.ok(!impl.files.some((f) => f.startsWith("worktrees")));
  });

  it("reports broken files and refuses links out of the workspace and FIFOs without hanging", async () => {
    const { ws } = copyFullFixture();
    const dir = path.join(ws, ".autodev/tournaments", tournamentId(ws, "plan"));
    fs.writeFileSync(path.join(dir, "pass_02/result.json"), '{"pass_num": 2, "winner": "C"}');
    fs.rmSync(path.join(dir, "history.json"));
    fs.symlinkSync("/etc/passwd", path.join(dir, "history.json"));
    fs.rmSync(path.join(dir, "pass_03/result.json"));
    assert.equal(spawnSync("mkfifo", [path.join(dir, "pass_03/result.json")]).status, 0);
    const plan = (await readTournaments(ws, null)).tournaments.find((t) => t.phase === "plan")!;
    const errs = plan.errors.join("\n");
    assert.match(errs, /history\.json resolves to .*outside the workspace/);
    assert.match(errs, /pass_02\/result\.json: not a PassResult: winner/);
    assert.match(errs, /FIFO/);
    assert.deepEqual(
      plan.passes.map((x) => x.pass),
      [1],
    );
  });

  it("does not list a tournaments folder that is a link out of the workspace", async () => {
    const { ws, root } = copyFullFixture();
    const outside = path.join(root, "elsewhere");
    fs.renameSync(path.join(ws, ".autodev/tournaments"), outside);
    fs.symlinkSync(outside, path.join(ws, ".autodev/tournaments"));
    const r = await readTournaments(ws, null);
    assert.equal(r.tournaments.length, 0);
    assert.match(r.errors[0], /outside the workspace/);
  });
});
