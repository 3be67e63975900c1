/**
 * AutoDev's phase contract on states Python AutoDev wrote (test/fixtures/python-*: its real
 * PlanManager, orchestrator phases and evidence writers): no finding on the states as written; then
 * one contract broken per test, each by a writer that does what Python's does without its checks
 * (test/python/tools/set_status.py appends update_task_status + snapshot under flock, as
 * PlanManager.update_task_status does, but without the state machine), and exactly that code found
 * at that line (lines found by text search in the ledger, not by the code under test). Writes we
 * make are refused by the contract before anything is written.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { REPO_ROOT, copyFixture } from "../fixtures";
import {
  CONTRACT_CODES,
  LEDGER,
  autodevLocation,
  contractFindings,
  ledgerLine,
} from "../helpers/autodevContractHelpers";

/** Python's update_task_status write without the state machine (test/python/tools/set_status.py). */
function pythonSetStatus(ws: string, task: string, status: string): void {
  const r = spawnSync("python3", [path.join(REPO_ROOT, "test/python/tools/set_status.py"), ws, task, status], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
}

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist/cli.js"), ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe("AutoDev phase contract", function () {
  this.timeout(60_000);

  for (const name of ["python-small", "python-evidence", "python-full/workspace"]) {
    it(`${name}: the state as Python wrote it has no contract finding`, async () => {
      assert.deepEqual(await contractFindings(copyFixture(name)), []);
    });
  }

  it("python-full: sources --json gives the contract of the current step, re-entry from what comes next @slow", () => {
    const ws = copyFixture("python-full/workspace");
    const r = cli("sources", ws, "--json");
    assert.equal(r.code, 0, r.err);
    const c = JSON.parse(r.out)[0].contract;
    assert.deepEqual([c.phase, c.task], ["auto_gated", "1.2"]);
    assert.deepEqual(c.evidence, [
      { what: "developer evidence with success true", file: ".autodev/evidence/1.2-developer.json", present: true },
      { what: "the developer's diff as a patch", file: ".autodev/evidence/1.2.patch", present: true },
    ]);
    assert.deepEqual(c.next, ["reviewed", "in_progress", "blocked"]);
    assert.match(c.reentry, /^autodev resume waits: the agent must answer \.autodev\/delegations\/1\.2-reviewer\.md/);
    const status = cli("status", ws);
    const [resume, execute] = c.reentry.split("; ");
    assert.ok(status.out.includes(`next: ${resume}\n`), "the same words as `status`'s next lines");
    assert.ok(status.out.includes(`      ${execute}\n`), status.out);
  });

  it("a status advanced without its evidence: auto_gated with the developer evidence gone", async () => {
    const ws = copyFixture("python-full/workspace");
    fs.rmSync(path.join(ws, ".autodev/evidence/1.2-developer.json"));
    assert.deepEqual(await contractFindings(ws), [
      `phase_without_evidence ${LEDGER}:${ledgerLine(ws, '"status": "auto_gated"', '"task_id": "1.2"')}`,
    ]);
  });

  it("evidence that says otherwise: complete with a review that is not APPROVED", async () => {
    const ws = copyFixture("python-full/workspace");
    const file = path.join(ws, ".autodev/evidence/1.1-review.json");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('"APPROVED"', '"NEEDS_CHANGES"'));
    const problems = (await autodevSource.check(autodevLocation(ws))).filter((p) => CONTRACT_CODES.includes(p.code));
    assert.deepEqual(
      problems.map((p) => `${p.code} ${p.file}:${p.line}`),
      [`phase_without_evidence ${LEDGER}:${ledgerLine(ws, '"status": "complete"', '"task_id": "1.1"')}`],
    );
    assert.match(problems[0].message, /1\.1-review\.json says NEEDS_CHANGES, not APPROVED/);
  });

  it("the plan phase's evidence: init_plan from spec.md without the explorer's findings", async () => {
    const ws = copyFixture("python-full/workspace");
    fs.rmSync(path.join(ws, ".autodev/evidence/plan-explore-explore.json"));
    assert.deepEqual(await contractFindings(ws), [
      `phase_without_evidence ${LEDGER}:${ledgerLine(ws, '"op": "init_plan"')}`,
    ]);
  });

  it("a forbidden transition: a writer without the state machine moves a complete task back to pending @slow", async () => {
    const ws = copyFixture("python-evidence");
    pythonSetStatus(ws, "1.1", "pending");
    assert.deepEqual(await contractFindings(ws), [
      `transition_not_allowed ${LEDGER}:${ledgerLine(ws, '"op": "update_task_status"', '"task_id": "1.1"')}`,
    ]);
  });

  it("a re-entry that is unclear: the suspended inline step's task was blocked behind AutoDev's back @slow", async () => {
    const ws = copyFixture("python-full/workspace");
    pythonSetStatus(ws, "1.2", "blocked");
    const text = fs.readFileSync(path.join(ws, ".autodev/inline-state.json"), "utf8").split("\n");
    const line = text.findIndex((l) => l.includes('"pending_task_id"')) + 1;
    const found = await contractFindings(ws);
    assert.ok(found.includes(`reentry_unclear .autodev/inline-state.json:${line}`), found.join("\n"));
  });

  it("set-status refuses a status without its evidence (exit 4), writing nothing @slow", () => {
    const ws = copyFixture("python-full/workspace");
    const before = fs.readFileSync(path.join(ws, LEDGER));
    const r = cli("set-status", ws, "1.2", "reviewed");
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /refusing to move task 1\.2 to 'reviewed': \.autodev\/evidence\/1\.2-review\.json is missing/);
    assert.deepEqual(fs.readFileSync(path.join(ws, LEDGER)), before, "the ledger is untouched");
    const noReason = cli("set-status", ws, "2.1", "blocked");
    assert.equal(noReason.code, 4);
    assert.match(noReason.err, /no blocked_reason is given.*--reason TEXT/);
    assert.equal(cli("set-status", ws, "2.1", "blocked", "--reason", "waits on the API").code, 0);
  });

  it("set-status refuses a move that strands the suspended inline step @slow", () => {
    const ws = copyFixture("python-full/workspace");
    const before = fs.readFileSync(path.join(ws, LEDGER));
    const r = cli("set-status", ws, "1.2", "blocked", "--reason", "stuck");
    assert.equal(r.code, 4, r.err);
    assert.match(r.err, /suspended in inline mode and the suspended step is 1\.2\/reviewer, but resume runs task 2\.1/);
    assert.deepEqual(fs.readFileSync(path.join(ws, LEDGER)), before);
  });
});
