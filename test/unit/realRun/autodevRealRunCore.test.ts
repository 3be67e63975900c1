/**
 * The core readers on the real AutoDev run's snapshots: the plan phase in the tree before any ledger, the
 * pending delegation's content (frontmatter, injected lessons), each task's delegations and responses with
 * where they stand, the hazards AutoDev's own behaviour shows (a NEEDS_CHANGES that can only escalate, the
 * stale responses `execute --task` re-reads), the tournaments AutoDev's offline runner left, the dangling
 * evidence_bundle resolved, and `tournaments` agreeing with `autodev tournament`'s own summary lines.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { readRunState, runPlanOf } from "../../../src/core/sources/autodev/run/runState";
import { runStateProblems } from "../../../src/core/sources/autodev/run/runProblems";
import { loadTaskEvidence } from "../../../src/core/sources/autodev/evidence/taskEvidence";
import { reviewVerdict, testCounts } from "../../../src/core/sources/autodev/inline/responseVerdict";
import type { SourceLocation, SourceTreeNode } from "../../../src/core/sources/stateSource";
import { REPO_ROOT } from "../fixtures";
import { emptyHome, materializeRealRun, realRunAnswers } from "../helpers/realRun";

const HOME = emptyHome();

function find(nodes: readonly SourceTreeNode[], id: string): SourceTreeNode | null {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = n.children ? find(n.children, id) : null;
    if (inner) return inner;
  }
  return null;
}

async function located(step: string): Promise<{ ws: string; loc: SourceLocation }> {
  const ws = materializeRealRun(step);
  const loc = await autodevSource.detect(ws);
  assert.ok(loc, `${step}: detected`);
  return { ws, loc };
}

async function runState(ws: string) {
  const { plan } = fs.existsSync(path.join(ws, ".autodev/plan-ledger.jsonl")) ? await loadPlan(ws) : { plan: null };
  return readRunState(ws, runPlanOf(plan), { probe: false, home: HOME });
}

describe("the real AutoDev run: core readers", function () {
  this.timeout(60_000);

  it("detects the plan phase from AutoDev's files and shows it in the tree: no plan yet, waiting on the explorer", async () => {
    const { loc } = await located("01-plan-explorer-waiting");
    const tree = await autodevSource.tree(loc);
    const empty = find(tree, "autodev|empty")!;
    assert.equal(empty.label, "No plan yet");
    assert.equal(empty.description, "plan phase · waiting on explorer");
    assert.match(String(find(tree, "autodev|planPhase|next")?.tooltip), /then run \\?`autodev plan\\?` again/);
    assert.equal(tree[0].id, "autodev|waiting", "the waiting node comes first");
    assert.equal(tree[0].label, "Waiting on explorer for plan");
    const summary = await autodevSource.summarize(loc);
    assert.deepEqual([summary.ledger, summary.ok, summary.phase], [false, null, "plan"]);
    assert.equal(await autodevSource.detect(fs.mkdtempSync(path.join(os.tmpdir(), "no-autodev-"))), null);
  });

  it("shows the pending delegation's frontmatter and the lessons AutoDev injected into it", async () => {
    const { ws, loc } = await located("11-1.2-developer-waiting");
    const tree = await autodevSource.tree(loc);
    const fm = find(tree, "autodev|waiting|delegation|frontmatter")!;
    const fields = Object.fromEntries(fm.children!.map((c) => [c.label, c.description]));
    assert.deepEqual(
      [fields.task_id, fields.role, fields.response_path],
      ["1.2", "developer", ".autodev/responses/1.2-developer.json"],
    );
    const lessons = find(tree, "autodev|waiting|delegation|lessons")!
      .children!.map((c) => c.label)
      .sort();
    const known = fs
      .readFileSync(path.join(ws, ".autodev/knowledge.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { text: string }).text)
      .sort();
    assert.deepEqual(lessons, known, "the two lessons 1.1 recorded were injected into 1.2's delegation");
    assert.match(String(find(tree, "autodev|waiting|delegation|envelope")?.description), /TASK: 1\.2/);
  });

  it("lists each task's delegations and responses: 1.2's three stale ones once it is blocked", async () => {
    const { loc } = await located("14-1.2-blocked");
    const tree = await autodevSource.tree(loc);
    const h = find(tree, "autodev|task|1.2|inline")!;
    assert.equal(h.description, "3 · 3 stale");
    const states = Object.fromEntries(h.children!.map((c) => [c.label, c.contextValue]));
    assert.deepEqual(states, {
      developer: "autodevStep.stale",
      reviewer: "autodevStep.stale",
      critic_sounding_board: "autodevStep.stale",
    });
    assert.equal(find(tree, "autodev|task|1.1|inline")!.description, "3", "1.1's answers were read; nothing stale");
    // What AutoDev did with those responses: `execute --task 1.2` on a copy blocked it again, asking no one.
    const e = realRunAnswers("14-1.2-blocked").on_copy["execute --task 1.2"].effects;
    assert.equal(e.ledger_entries_added.filter((x) => x.op === "update_task_status").at(-1)?.status, "blocked");
    assert.equal(e.suspend_after, null);
    assert.deepEqual(e.files_added, []);
  });

  it("warns before resume when a NEEDS_CHANGES can only escalate, as AutoDev's next resume did", async () => {
    const ws = materializeRealRun("12-1.2-reviewer-waiting");
    const answer = path.join(REPO_ROOT, "test/fixtures/autodev-real-run/13-1.2-escalated-critic-waiting/workspace");
    const rel = ".autodev/responses/1.2-reviewer.json";
    fs.copyFileSync(path.join(answer, rel), path.join(ws, rel));
    const rs = await runState(ws);
    const p = runStateProblems(rs).filter((x) => x.code === "inline_retry_reuses_response");
    assert.deepEqual(p.map((x) => x.file).sort(), [".autodev/responses/1.2-developer.json", rel]);
    assert.match(p[0].message, /asks for changes \(NEEDS_CHANGES\)/);
    assert.match(p[0].message, /retry 0 of 3: 2 more\) and then escalates task 1\.2 to critic_sounding_board/);
    const after = realRunAnswers("13-1.2-escalated-critic-waiting").recorded;
    assert.equal(
      after.replay?.tasks.find((t) => t.id === "1.2")?.retry_count,
      3,
      "AutoDev retried 1 → 3 on the same answers",
    );
    assert.equal(after.suspend?.pending_role, "critic_sounding_board");
    assert.equal(reviewVerdict(JSON.parse(fs.readFileSync(path.join(ws, rel), "utf8")).text), "NEEDS_CHANGES");
    assert.deepEqual(testCounts("RESULTS: passed=4 failed=0 total=4"), { passed: 4, failed: 0, total: 4 });
  });

  it("says the plan-phase suspend state is stale once the plan is stored, and waits on no one", async () => {
    const { loc } = await located("05-plan-stored");
    const tree = await autodevSource.tree(loc);
    assert.equal(find(tree, "autodev|waiting"), null);
    assert.equal(find(tree, "autodev|staleState")?.label, "Stale suspend state: plan/architect");
    assert.equal(find(tree, "autodev|planPhase")?.description, "3 delegations");
  });

  it("reads the offline impl tournament as finished, for task 1.1, with its kept worktrees", async () => {
    const { ws, loc } = await located("10-tournaments-offline");
    const rs = await runState(ws);
    const impl = rs.tournaments.find((t) => t.phase === "impl")!;
    assert.deepEqual([impl.taskId, impl.finished, impl.leftoverWorktrees], ["1.1", true, null]);
    assert.equal(impl.worktrees?.length, 2, "the empty b-/ab- worktree folders AutoDev left");
    const problems = await autodevSource.check(loc);
    assert.ok(!problems.some((p) => p.code.startsWith("tournament")), JSON.stringify(problems));
    // `tournaments --json` against `autodev tournament`'s own "passes=N final_winner=W" lines.
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist/cli.js"), "tournaments", ws, "--json"], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const ours = (JSON.parse(r.stdout) as Array<{ phase: string; passes: number; winner: string }>).map((t) => [
      t.phase,
      t.passes,
      t.winner,
    ]);
    const theirs = realRunAnswers("10-tournaments-offline")
      .commands.filter((c) => c.argv[1] === "tournament")
      .map((c) => {
        const m = /passes=(\d+) final_winner=(\w+)/.exec(c.stdout)!;
        return [c.argv[2].replace("--phase=", ""), Number(m[1]), m[2]];
      });
    assert.deepEqual(ours.sort(), theirs.sort());
  });

  it("resolves the evidence_bundle AutoDev records (1.1-coder.json) to the bundle it wrote", async () => {
    const ws = materializeRealRun("09-1.1-complete");
    const te = await loadTaskEvidence(ws, "1.1", "complete", ".autodev/evidence/1.1-coder.json");
    assert.ok(te.bundleRef?.ok);
    assert.deepEqual([te.bundleRef.exists, te.bundleRef.resolved], [false, "1.1-developer.json"]);
    assert.deepEqual(te.missing, [], "no tournament evidence is expected for a task run inline");
  });
});
