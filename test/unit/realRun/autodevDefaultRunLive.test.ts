/**
 * The default-mode AutoDev run watched live (test/fixtures/autodev-default-run/): while AutoDev runs (a
 * process with its command line runs in the folder, as it did when the snapshot or recording was made)
 * nothing it has half done is a problem — an unfinished tournament's worktrees, a temp file before its
 * rename, a ledger appended before plan.json is replaced — and the run state says what it is doing; once
 * it is killed, `check` names the files it left behind. The live recordings are replayed event by event
 * into a temp workspace with our reader after every change, and one at its recorded speed.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { autodevProblems, autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { readRunState, runPlanOf } from "../../../src/core/sources/autodev/run/runState";
import type { SourceProblem } from "../../../src/core/sources/stateSource";
import { cliInEmptyHome, emptyHome } from "../helpers/realRun";
import {
  LiveEvent,
  applyLiveEvent,
  defaultRunAnswers,
  defaultRunSteps,
  liveRecording,
  materializeDefaultRun,
} from "../../helpers/defaultRun";
import { startFakeAutodev } from "../helpers/fakeAutodev";

const HOME = emptyHome();
const cli = cliInEmptyHome(HOME);

/** What AutoDev is doing at each snapshot taken while it ran (the stand-in paused at that call). */
const ACTIVITY: Record<string, string> = {
  "01-plan-tournament-pass-2": "plan phase · plan tournament pass 2",
  "03-1.1-developer": "task 1.1 · developer",
  "04-1.1-tournament-worktree-b": "task 1.1 · impl tournament pass 1 · variant B made",
  "05-1.2-reviewer-after-retry": "task 1.2 · reviewer · retry 1",
  "06-1.2-tournament-pass-2-judge": "task 1.2 · impl tournament pass 2 · variants B and AB made · retry 1",
  "07-3.1-critic": "task 3.1 · critic_sounding_board · retry 3",
};

/** The problems a correct run state may show: AutoDev's evidence_bundle name it never writes (a real hazard). */
const TRUE_HAZARDS = new Set(["evidence_bundle_dangling"]);

async function problemsOf(ws: string): Promise<SourceProblem[]> {
  const loc = await autodevSource.detect(ws);
  assert.ok(loc, `${ws}: detected`);
  return autodevProblems(loc);
}

describe("the default-mode AutoDev run, live: nothing false while it runs, the leftovers once killed @slow", function () {
  this.timeout(600_000);

  for (const step of defaultRunSteps().filter((s) => defaultRunAnswers(s).autodev_running)) {
    it(`${step}: while AutoDev runs, no leftover is reported and the run state says ${ACTIVITY[step]}`, async () => {
      const ws = materializeDefaultRun(step);
      const proc = await startFakeAutodev(ws);
      try {
        const [c, st, t] = await Promise.all([
          cli("check", ws, "--json"),
          cli("status", ws, "--json"),
          cli("tournaments", ws),
        ]);
        const problems = JSON.parse(c.out).sources[0].problems as SourceProblem[];
        assert.deepEqual(
          problems.filter((p) => !TRUE_HAZARDS.has(p.code)),
          [],
          "only the hazards AutoDev's own state has",
        );
        const s = JSON.parse(st.out);
        assert.equal(s.running, true, s.running_detail);
        assert.match(
          s.running_detail,
          new RegExp(`AutoDev runs in this folder \\(pid ${proc.pid}: autodev execute\\)`),
        );
        assert.equal(t.code, 0, `an unfinished tournament's worktrees are its work while AutoDev runs\n${t.err}`);
        const { plan } = fs.existsSync(path.join(ws, ".autodev/plan-ledger.jsonl"))
          ? await loadPlan(ws)
          : { plan: null };
        const rs = await readRunState(ws, runPlanOf(plan), { probe: false, home: HOME });
        assert.equal(rs.activity, ACTIVITY[step]);
        const tree = await autodevSource.tree((await autodevSource.detect(ws))!);
        assert.equal(tree[0].label, "AutoDev is running");
        assert.equal(tree[0].description, ACTIVITY[step]);
      } finally {
        await proc.kill();
      }
    });
  }

  it("12/13/14 killed: check names the worktree and the temp file AutoDev left, and nothing for the lock", async () => {
    const left12 = await problemsOf(materializeDefaultRun("12-killed-in-tournament"));
    const a12 = defaultRunAnswers("12-killed-in-tournament");
    const [id] = Object.keys(a12.recorded.tournaments).filter((k) => a12.recorded.tournaments[k].history === null);
    const wt = left12.find((p) => p.code === "tournament_worktrees_left");
    assert.ok(wt, JSON.stringify(left12));
    assert.equal(wt.file, `.autodev/tournaments/${id}/worktrees`);
    assert.match(wt.message, /stopped before it finished.*git worktree remove --force/);
    assert.equal(a12.git_worktrees.length, 2, "git still lists the killed tournament's worktree");

    const a14 = defaultRunAnswers("14-killed-mid-write");
    assert.equal(a14.recorded.tmp_files.length, 1);
    const left14 = await problemsOf(materializeDefaultRun("14-killed-mid-write"));
    assert.deepEqual(
      left14.filter((p) => p.code === "autodev_temp_left").map((p) => p.file),
      a14.recorded.tmp_files,
      "the temp file AutoDev's killed write left, where AutoDev's recorder found it",
    );

    const a13 = defaultRunAnswers("13-killed-holding-lock");
    assert.equal(a13.lock_free, true, "the kernel dropped the killed AutoDev's flock");
    assert.deepEqual(await problemsOf(materializeDefaultRun("13-killed-holding-lock")), []);
  });

  /** Replays `command`'s recording onto `from`'s workspace with a stand-in AutoDev running there; checks after every change. */
  async function replayChecked(command: string, from: string, final: string): Promise<number> {
    const ws = materializeDefaultRun(from);
    const { events } = liveRecording(command);
    const proc = await startFakeAutodev(ws);
    let checked = 0;
    try {
      for (const [i, ev] of events.entries()) {
        applyLiveEvent(ws, ev);
        if (!changesState(ev)) continue;
        const problems = await problemsOf(ws);
        const wrong = problems.filter((p) => p.severity === "error" || !TRUE_HAZARDS.has(p.code));
        assert.deepEqual(wrong, [], `${command}: after event ${i} (${ev.op} ${ev.path}, ${ev.t} ms)`);
        checked++;
      }
    } finally {
      await proc.kill();
    }
    const finalWs = materializeDefaultRun(final);
    for (const f of ["plan-ledger.jsonl", "plan.json"]) {
      const want = path.join(finalWs, ".autodev", f);
      if (fs.existsSync(want)) assert.deepEqual(fs.readFileSync(path.join(ws, ".autodev", f)), fs.readFileSync(want));
    }
    return checked;
  }

  it("replays `autodev plan` and `autodev execute` event by event: no false problem after any of AutoDev's writes", async () => {
    const plan = await replayChecked("plan", "00-init", "02-plan-stored");
    const execute = await replayChecked("execute", "02-plan-stored", "08-run-done");
    assert.ok(plan > 50 && execute > 1000, `${plan} + ${execute} states checked`);
  });

  it("replays the killed tournament at its recorded speed while a reader reads; the leftover shows once AutoDev is gone", async () => {
    const ws = materializeDefaultRun("02-plan-stored");
    const { events, header } = liveRecording("killed-in-tournament");
    const proc = await startFakeAutodev(ws);
    let stop = false;
    let reads = 0;
    const seen: string[] = [];
    const reader = (async () => {
      while (!stop) {
        for (const p of await problemsOf(ws)) if (!TRUE_HAZARDS.has(p.code)) seen.push(`${p.code} ${p.file}`);
        reads++;
      }
    })();
    const t0 = Date.now();
    for (const ev of events) {
      const wait = ev.t - (Date.now() - t0);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      applyLiveEvent(ws, ev);
    }
    const late = Date.now() - t0 - header.duration_ms;
    stop = true;
    await reader;
    assert.deepEqual(seen, [], `no false problem in ${reads} reads while it ran`);
    assert.ok(reads > 20, `${reads} reads in ${header.duration_ms} ms`);
    assert.ok(late < 5000, `the replay kept its recorded pace (${late} ms late)`);
    await proc.kill();
    const after = (await problemsOf(ws)).map((p) => p.code);
    assert.ok(after.includes("tournament_worktrees_left"), after.join(", "));
  });
});

/** False for the lock's own bookkeeping (`.autodev/.lock` opened, truncated, flocked): nothing a reader shows changes. */
function changesState(ev: LiveEvent): boolean {
  return ev.path !== ".autodev/.lock" && ev.op !== "lock" && ev.op !== "unlock";
}
