/**
 * Our CLI on every snapshot of the default-mode AutoDev run (test/fixtures/autodev-default-run/), compared
 * with what AutoDev itself answered about the same state: the tasks as `replay_ledger()` replays them and as
 * `autodev status` prints them, `list_evidence()` per task (the impl tournament's bundle under its task),
 * the ledger head, and every tournament as AutoDev's `PassResult` model reads its `history.json` and
 * `pass_NN/result.json` files: passes, winners, Borda scores, valid judges, each judge's ranking, the
 * worktrees while they exist.
 */
import * as assert from "node:assert/strict";
import { autodevStatusRows, cliInEmptyHome } from "../helpers/realRun";
import { defaultRunAnswers, defaultRunSteps, materializeDefaultRun } from "../../helpers/defaultRun";

const cli = cliInEmptyHome();

interface OurTournament {
  id: string;
  phase: string;
  task_id: string | null;
  passes: number;
  winner: string | null;
  finished: boolean;
  pass_results: Array<{
    pass: number;
    winner: string;
    scores: Record<string, number>;
    valid_judges: number;
    judges: Array<{ ranking: string[] | null }>;
  }>;
  worktrees: string[] | null;
}

describe("the default-mode AutoDev run: our CLI agrees with AutoDev on every snapshot @slow", function () {
  this.timeout(120_000);

  for (const step of defaultRunSteps()) {
    it(`${step}: tasks, evidence, ledger and tournaments as AutoDev reads them`, async () => {
      const ws = materializeDefaultRun(step);
      const a = defaultRunAnswers(step);
      const r = a.recorded;
      const [st, text, v, t] = await Promise.all([
        cli("status", ws, "--json"),
        cli("status", ws),
        cli("verify", ws, "--json"),
        cli("tournaments", ws, "--json"),
      ]);
      assert.equal(st.code, 0, st.err);
      const s = JSON.parse(st.out);
      const tasks = r.replay?.tasks ?? [];
      assert.deepEqual(
        s.tasks.map((x: Record<string, unknown>) => [x.id, x.status, x.retry_count, x.escalated]),
        tasks.map((x) => [x.id, x.status, x.retry_count, x.escalated]),
        "tasks as replay_ledger() replays them",
      );
      for (const x of s.tasks) {
        assert.deepEqual(
          [x.evidence, x.evidence_kinds],
          [r.evidence[x.id].count, r.evidence[x.id].kinds],
          `task ${x.id}: evidence as list_evidence() lists it`,
        );
      }
      for (const [file, ev] of Object.entries(r.tournament_evidence)) {
        assert.ok(r.evidence[ev.task_id].kinds.includes("tournament"), `${file} is listed under task ${ev.task_id}`);
        const ours = s.tasks.find((x: { id: string }) => x.id === ev.task_id);
        assert.ok(ours.evidence_kinds.includes("tournament"), `our task ${ev.task_id} shows ${file}`);
      }
      assert.equal(text.code, 0, text.err);
      assert.deepEqual(
        s.tasks.map((x: Record<string, unknown>) => ({
          id: x.id,
          status: x.status,
          retries: x.retry_count,
          evidence: x.evidence,
        })),
        autodevStatusRows(a.status.stdout),
        "autodev status's own table",
      );

      const vj = JSON.parse(v.out);
      if (!("count" in r.ledger) || r.ledger.count === 0) {
        assert.equal(v.code, 5, "no ledger yet (the plan tournament runs before the first entry)");
      } else {
        assert.equal(v.code, 0, v.err);
        assert.deepEqual([vj.entries, vj.head.self_hash], [r.ledger.count, r.ledger.head_hash]);
      }

      const ours = JSON.parse(t.out) as OurTournament[];
      if (!a.autodev_running) {
        const left = Object.values(r.tournaments).some((x) => x.history === null && x.files.includes("worktrees/"));
        assert.equal(t.code, left ? 1 : 0, `exit 1 exactly when a stopped tournament left worktrees\n${t.err}`);
      }
      assert.deepEqual(ours.map((x) => x.id).sort(), Object.keys(r.tournaments).sort(), "the same tournaments");
      for (const x of ours) {
        const theirs = r.tournaments[x.id];
        assert.equal(x.finished, theirs.history !== null, `${x.id}: finished exactly when history.json is there`);
        const passes = Object.values(theirs.passes).sort((p, q) => p.pass_num - q.pass_num);
        assert.deepEqual(
          x.pass_results.map((p) => [p.pass, p.winner, p.scores, p.valid_judges, p.judges.map((j) => j.ranking)]),
          passes.map((p) => [p.pass_num, p.winner, p.scores, p.valid_judges, p.rankings]),
          `${x.id}: every pass as PassResult reads its result.json`,
        );
        if (theirs.history) {
          assert.deepEqual(
            [x.passes, x.winner],
            [theirs.history.length, theirs.history[theirs.history.length - 1].winner],
            `${x.id}: passes and last winner as history.json says`,
          );
        }
        const wt = theirs.files.filter((f) => /^worktrees\/[^/]+\/$/.test(f)).map((f) => f.slice(0, -1));
        assert.deepEqual(x.worktrees ?? [], wt, `${x.id}: its worktrees while they exist`);
        if (x.phase === "impl") {
          const te = Object.values(r.tournament_evidence).find((e) => e.tournament_id === x.id);
          if (te) assert.equal(x.task_id, te.task_id, `${x.id}: the task its evidence names`);
        }
      }
    });
  }
});
