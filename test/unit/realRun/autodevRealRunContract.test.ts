/**
 * AutoDev's phase contract on the real run (test/fixtures/autodev-real-run/: the Python AutoDev
 * CLI driven end to end in inline mode, a snapshot after every command, AutoDev's own answers
 * beside each): every snapshot with a ledger has no contract finding, and the step the contract
 * names as current is the task AutoDev's own `resume` took on a copy of that snapshot (or waited
 * on). Then one contract is broken per test on a real snapshot and exactly that code is found at
 * that line (lines found by text search).
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { REPO_ROOT, copyFixture } from "../fixtures";
import { LEDGER, autodevLocation, contractFindings, ledgerLine } from "../helpers/autodevContractHelpers";

const RUN = "autodev-real-run";
const STEPS = fs
  .readdirSync(path.join(REPO_ROOT, "test/fixtures", RUN))
  .filter((s) => /^\d\d-/.test(s))
  .sort();

interface Answers {
  readonly on_copy: {
    readonly resume?: {
      readonly effects: { readonly ledger_entries_added?: { op: string; task_id: string | null }[] };
    };
  };
  readonly recorded: { readonly suspend: { readonly pending_task_id?: string } | null };
}

function answers(step: string): Answers {
  return JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "test/fixtures", RUN, step, "autodev-answers.json"), "utf8"));
}

function snapshot(step: string): string {
  return copyFixture(`${RUN}/${STEPS.find((s) => s.startsWith(step))}/workspace`);
}

describe("AutoDev phase contract on the real run", function () {
  this.timeout(120_000);

  const withLedger = STEPS.filter((s) =>
    fs.existsSync(path.join(REPO_ROOT, "test/fixtures", RUN, s, "workspace", LEDGER)),
  );

  it("the run has snapshots with a ledger from the stored plan to the end", () => {
    assert.ok(withLedger.length >= 15, withLedger.join(", "));
    assert.ok(withLedger.some((s) => s.endsWith("run-complete")));
  });

  for (const step of STEPS.filter((s) => !withLedger.includes(s))) {
    it(`${step}: before the plan is stored the contract is the plan phase's, with no finding`, async () => {
      const ws = copyFixture(`${RUN}/${step}/workspace`);
      assert.deepEqual(await contractFindings(ws), []);
      const contract = (await autodevSource.summarize(autodevLocation(ws))).contract as { phase: string; task: null };
      assert.deepEqual([contract.phase, contract.task], ["plan", null]);
    });
  }

  for (const step of withLedger) {
    it(`${step}: no contract finding; the current step is the task AutoDev's resume took or waits on`, async () => {
      const ws = copyFixture(`${RUN}/${step}/workspace`);
      assert.deepEqual(await contractFindings(ws), []);
      const summary = await autodevSource.summarize(autodevLocation(ws));
      const contract = summary.contract as { phase: string; task: string | null; reentry: string };
      const a = answers(step);
      const took = a.on_copy.resume?.effects.ledger_entries_added?.find((e) => e.op === "update_task_status");
      const waits = a.recorded.suspend?.pending_task_id;
      const expected = took?.task_id ?? (waits && waits !== "plan" ? waits : null);
      assert.equal(contract.task, expected, `${contract.phase}: ${contract.reentry}`);
      if (expected === null) assert.equal(contract.phase, "finished");
    });
  }

  it("a status advanced without its evidence: reviewed with the review gone", async () => {
    const ws = snapshot("08-");
    fs.rmSync(path.join(ws, ".autodev/evidence/1.1-review.json"));
    assert.deepEqual(await contractFindings(ws), [
      `phase_without_evidence ${LEDGER}:${ledgerLine(ws, '"status": "reviewed"', '"task_id": "1.1"')}`,
    ]);
  });

  it("a forbidden transition: a writer without the state machine moves complete 1.1 back to pending", async () => {
    const ws = snapshot("18-");
    const r = spawnSync("python3", [path.join(REPO_ROOT, "test/python/tools/set_status.py"), ws, "1.1", "pending"], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(await contractFindings(ws), [
      `transition_not_allowed ${LEDGER}:${ledgerLine(ws, '"status": "pending"', '"task_id": "1.1"')}`,
    ]);
  });

  it("a re-entry that is unclear: the suspension names a finished task", async () => {
    const ws = snapshot("12-");
    const file = path.join(ws, ".autodev/inline-state.json");
    fs.writeFileSync(
      file,
      fs.readFileSync(file, "utf8").replace('"pending_task_id": "1.2"', '"pending_task_id": "1.1"'),
    );
    const line = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .findIndex((l) => l.includes('"pending_task_id": "1.1"'));
    assert.ok(line >= 0);
    assert.deepEqual(await contractFindings(ws), [`reentry_unclear .autodev/inline-state.json:${line + 1}`]);
  });
});
