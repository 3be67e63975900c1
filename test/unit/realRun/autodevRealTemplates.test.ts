/**
 * The response template *Create Response* writes, against what the real AutoDev did with it
 * (test/fixtures/autodev-real-run-templates/, recorded by test/python/real_runs/autodev_real_templates.py on
 * the real run's snapshots): untouched, AutoDev refuses it for every execute-phase role and the run
 * goes on once it is answered; the templates we wrote before were answers (a test_engineer's zeros
 * completed 1.1 with no test run, a reviewer's placeholder escalated it). And what the editor and
 * `check` say about it: the tree says "not filled in", Resume Run refuses, no warning lands on another
 * file, and while the run waits on the critic the answers AutoDev will read again are warned about.
 */
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { checkResponseText, responseTemplate } from "../../../src/core/sources/autodev/inline/responseFile";
import { createResponseFile } from "../../../src/core/sources/autodev/inline/responseCreate";
import { autodevRunView } from "../../../src/core/sources/autodev/run/runView";
import { runPlanOf } from "../../../src/core/sources/autodev/run/runState";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { REPO_ROOT } from "../fixtures";
import { materializeRealRun, realRunAnswers } from "../helpers/realRun";

const Task = z.object({ id: z.string(), status: z.string(), retry_count: z.number(), escalated: z.boolean() });
const Suspend = z.object({ pending_task_id: z.string(), pending_role: z.string(), retry_count: z.number() }).nullable();
const Resume = z.object({
  exit_code: z.number(),
  stderr: z.string(),
  validation_before: z.object({ ok: z.boolean(), message: z.string().optional() }),
  effects: z.object({
    files_added: z.array(z.string()),
    files_removed: z.array(z.string()),
    ledger_entries_added: z.array(
      z.object({ op: z.string(), task_id: z.string().nullable(), status: z.string().nullable() }),
    ),
    suspend_before: Suspend,
    suspend_after: Suspend,
    tasks_after: z.array(Task),
  }),
});
const Case = z.object({
  case: z.string(),
  template_of: z.enum(["ours", "before"]),
  step: z.string(),
  task_id: z.string(),
  role: z.string(),
  response: z.string(),
  template: z.string(),
  resume: Resume,
  then_answered: z.object({ answer_from: z.string(), resume: Resume }).optional(),
  then_moved_away: z.object({ moved: z.array(z.string()), resume: Resume }).optional(),
});
const CASES = z
  .object({ cases: z.array(Case) })
  .parse(
    JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, "test/fixtures/autodev-real-run-templates/autodev-answers.json"), "utf8"),
    ),
  ).cases;

function recorded(name: string, of: "ours" | "before"): z.output<typeof Case> {
  const c = CASES.find((x) => x.case === name && x.template_of === of);
  assert.ok(c, `no recorded case ${name}/${of}`);
  return c;
}

const task = (r: z.output<typeof Resume>, id: string) => r.effects.tasks_after.find((t) => t.id === id)!;

function find(nodes: readonly SourceTreeNode[], id: string): SourceTreeNode | null {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = n.children ? find(n.children, id) : null;
    if (inner) return inner;
  }
  return null;
}

async function runViewOf(ws: string) {
  const { plan } = await loadPlan(ws);
  return autodevRunView(ws, runPlanOf(plan));
}

describe("the response template against the real AutoDev", function () {
  this.timeout(60_000);

  it("records the template we ship, for every execute-phase role", () => {
    const ours = CASES.filter((c) => c.template_of === "ours");
    assert.deepEqual(ours.map((c) => c.role).sort(), [
      "critic_sounding_board",
      "developer",
      "reviewer",
      "test_engineer",
    ]);
    for (const c of ours) {
      assert.equal(
        c.template,
        responseTemplate(c.task_id, c.role),
        `${c.role}: re-record with autodev_real_templates.py`,
      );
    }
  });

  it("is refused by AutoDev untouched, and the run goes on once the real answer is written", () => {
    for (const c of CASES.filter((x) => x.template_of === "ours")) {
      const r = c.resume;
      assert.equal(r.validation_before.ok, false, c.role);
      assert.match(r.validation_before.message ?? "", /success\n\s+Input should be a valid boolean/, c.role);
      assert.equal(r.exit_code, 1, c.role);
      assert.match(r.stderr, /InlineResponseError: invalid response file .*\.json: 1 validation error/, c.role);
      assert.notEqual(task(r, c.task_id).status, "complete", `${c.role}: the task did not move past the step`);
      // Before refusing, resume deleted the suspend state (it is not waiting any more).
      assert.equal(r.effects.suspend_before?.pending_role, c.role);
      assert.equal(r.effects.suspend_after, null, c.role);
      assert.deepEqual(r.effects.files_removed, [".autodev/inline-state.json"], c.role);
      // Our checks and the worker's reading agree that it is not an answer.
      const f = checkResponseText(c.template, { taskId: c.task_id, role: c.role });
      assert.ok(f.length > 0 && f.every((x) => x.code === "inline_response_unfilled"), JSON.stringify(f));
      const next = c.then_answered!.resume;
      assert.equal(next.validation_before.ok, true, c.role);
      assert.ok(next.effects.ledger_entries_added.length > 0, `${c.role}: the run moved on`);
    }
    // Where the run went once answered: the next role waits, or the task is done or blocked.
    const after = (role: string) => recorded(role, "ours").then_answered!.resume.effects;
    assert.equal(after("developer").suspend_after?.pending_role, "reviewer");
    assert.equal(after("reviewer").suspend_after?.pending_role, "test_engineer");
    assert.equal(task(recorded("test_engineer", "ours").then_answered!.resume, "1.1").status, "complete");
    assert.equal(task(recorded("critic", "ours").then_answered!.resume, "1.2").status, "blocked");
  });

  it("shows why Resume Run must refuse: AutoDev's refusal still re-ran the task and, on the critic, counted a retry", () => {
    const critic = recorded("critic", "ours").resume;
    assert.deepEqual(
      critic.effects.ledger_entries_added.filter((e) => e.op === "update_task_status").map((e) => e.status),
      ["in_progress", "in_progress", "coded", "auto_gated", "auto_gated"],
    );
    assert.equal(task(critic, "1.2").retry_count, 4, "the critic waited at retry 3");
  });

  it("shows the traps of the templates we wrote before: a pass with no test run, a verdict nobody gave", () => {
    const tests = recorded("test_engineer", "before");
    assert.equal(tests.resume.validation_before.ok, true);
    assert.deepEqual(
      [task(tests.resume, "1.1").status, tests.resume.effects.suspend_after],
      ["complete", null],
      "1.1 completed on RESULTS: passed=0 failed=0 total=0",
    );
    const review = recorded("reviewer", "before");
    assert.deepEqual(
      [task(review.resume, "1.1").retry_count, review.resume.effects.suspend_after?.pending_role],
      [3, "critic_sounding_board"],
      "the placeholder naming REJECTED burnt every retry",
    );
    // What we say about those files today: not filled in, and Resume Run would refuse them.
    for (const c of [tests, review]) {
      const f = checkResponseText(c.template, { taskId: c.task_id, role: c.role });
      assert.deepEqual(
        f.map((x) => x.code),
        ["inline_response_unfilled"],
        JSON.stringify(f),
      );
    }
  });
});

describe("an untouched template in the editor and check (the real run's snapshots)", function () {
  this.timeout(60_000);

  it("says the test_engineer's response is not filled in, and Resume Run refuses until it is", async () => {
    const ws = materializeRealRun("08-1.1-test-engineer-waiting");
    const made = await createResponseFile(ws, "1.1", "test_engineer");
    assert.equal(made.kind, "created");
    const loc = (await autodevSource.detect(ws))!;
    const tree = await autodevSource.tree(loc);
    const node = find(tree, "autodev|waiting|response")!;
    assert.equal(node.label, "Response: not filled in");
    assert.notEqual(node.icon?.id, "check");
    assert.equal(find(tree, "autodev|waiting")?.description, "response not filled in");
    const view = await runViewOf(ws);
    assert.match(view.resumeRefusal?.reason ?? "", /1\.1-test_engineer\.json is still the template \(line 5 /);
    assert.deepEqual(
      [view.resumeRefusal?.file, view.resumeRefusal?.line],
      [".autodev/responses/1.1-test_engineer.json", 5],
    );
    const problems = await autodevSource.check(loc);
    assert.deepEqual(
      problems.filter((p) => p.code === "inline_response_unfilled").map((p) => [p.file, p.line, p.severity]),
      [[".autodev/responses/1.1-test_engineer.json", 5, "error"]],
    );
    // The real answer (the run's own) is something Resume Run lets through.
    const real = path.join(
      REPO_ROOT,
      "test/fixtures/autodev-real-run/09-1.1-complete/workspace",
      made.file.slice(ws.length),
    );
    fs.copyFileSync(real, made.file);
    assert.equal((await runViewOf(ws)).resumeRefusal, null);
    fs.rmSync(made.file);
    assert.match((await runViewOf(ws)).resumeRefusal?.reason ?? "", /is not written yet: create the response/);
  });

  it("puts the untouched reviewer template's problem on the reviewer's file, none on the developer's", async () => {
    const ws = materializeRealRun("07-1.1-reviewer-waiting");
    await createResponseFile(ws, "1.1", "reviewer");
    const loc = (await autodevSource.detect(ws))!;
    const problems = await autodevSource.check(loc);
    assert.deepEqual(
      problems.filter((p) => p.file.startsWith(".autodev/responses/")).map((p) => [p.file, p.code]),
      [[".autodev/responses/1.1-reviewer.json", "inline_response_unfilled"]],
    );
  });

  it("warns while the run waits on the critic that resume would re-run the task on the answers already read", async () => {
    const ws = materializeRealRun("13-1.2-escalated-critic-waiting");
    const loc = (await autodevSource.detect(ws))!;
    const problems = (await autodevSource.check(loc)).filter((p) => p.code === "inline_critic_rereads_responses");
    assert.deepEqual(problems.map((p) => p.file).sort(), [
      ".autodev/responses/1.2-developer.json",
      ".autodev/responses/1.2-reviewer.json",
    ]);
    assert.match(
      problems[0].message,
      /once the critic answers, `autodev resume` re-runs task 1\.2 from the developer step/,
    );
    assert.match(problems[0].message, /marks the task escalated and blocks it/);
    // What the real AutoDev did: the critic answered, resume re-ran 1.2 on them (retry 3 → 4) and blocked it.
    const blocked = realRunAnswers("14-1.2-blocked").recorded.replay?.tasks.find((t) => t.id === "1.2");
    assert.deepEqual([blocked?.status, blocked?.retry_count, blocked?.escalated], ["blocked", 4, true]);
    // The way on the warning gives: with them moved away, resume asked the developer again instead.
    const moved = recorded("critic", "ours").then_moved_away!;
    assert.deepEqual(moved.moved, ["1.2-developer.json", "1.2-reviewer.json"]);
    assert.deepEqual(
      [moved.resume.effects.suspend_after?.pending_role, task(moved.resume, "1.2").status],
      ["developer", "in_progress"],
    );
    // The tree marks them stale, and the CLI's check prints the same warning.
    const tree = await autodevSource.tree(loc);
    assert.equal(find(tree, "autodev|task|1.2|inline")?.description, "3 · 2 stale");
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist/cli.js"), "check", ws], { encoding: "utf8" });
    assert.match(r.stdout, /inline_critic_rereads_responses/);
  });
});
