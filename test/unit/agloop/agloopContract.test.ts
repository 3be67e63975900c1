/**
 * agloop's phase contract on states written by RUNNING the install's hook scripts through one whole
 * lifecycle (test/fixtures/agloop-lifecycle/, scripts/fixture-writers/make-agloop-lifecycle-fixtures.mjs): every stop
 * is clean and its re-entry point agrees with what the install's SessionStart hook says about it;
 * then one contract is broken per test (a phase without its evidence, a forbidden move, a lost
 * approval gate, a rewritten history) and exactly that code is found at that line (lines found by
 * text search, not by the code under test). "Recover from checkpoint" refuses a state the contract
 * forbids before writing anything.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { loadAgloopSnapshot } from "../../../src/core/sources/agloop/agloopSnapshot";
import { RECOVER_ACTION, planRecovery } from "../../../src/core/sources/agloop/agloopRecovery";
import type { SourceLocation, SourceProblem } from "../../../src/core/sources/stateSource";
import { copiedLocation, fixtureLocation, lineContaining } from "../helpers/agloopFixtures";
import { REPO_ROOT } from "../fixtures";

const STATE = ".agloop/state.json";
const LOG = ".agloop/log.json";
const LIFECYCLE = path.join(REPO_ROOT, "test/fixtures/agloop-lifecycle");
const STOPS = fs.readdirSync(LIFECYCLE).sort();
const NO_WAIT = { delayMs: 1, retries: 1 };

/** The problems as "code file:line". */
function found(problems: readonly SourceProblem[]): string[] {
  return problems.map((p) => `${p.code} ${p.file}:${p.line}`);
}

/** A writable copy of a lifecycle stop. */
function stop(name: string): SourceLocation {
  return copiedLocation(`agloop-lifecycle/${STOPS.find((s) => s.endsWith(`-${name}`))}`);
}

/** The parts of a state the tests read and edit. */
interface TestState {
  current_phase: string;
  tasks: { status: string; result: unknown; verification: unknown }[];
  phase_history: { phase: string; entered_at: string; exited_at: string | null }[];
  compaction_context: { pending_decision: string };
}

function readJson(loc: SourceLocation, rel: string): TestState {
  return JSON.parse(fs.readFileSync(path.join(loc.workspace, rel), "utf8")) as TestState;
}

/** Rewrites state.json the way the coordinator writes it (JSON.stringify(state, null, 2), in place). */
function editState(loc: SourceLocation, edit: (s: TestState) => void): void {
  const s = readJson(loc, STATE);
  edit(s);
  fs.writeFileSync(path.join(loc.workspace, STATE), JSON.stringify(s, null, 2));
}

describe("agloop phase contract", function () {
  this.timeout(60_000);

  it("the lifecycle run stops at every phase", () => {
    const phases = STOPS.map((s) => readJson(fixtureLocation(`agloop-lifecycle/${s}`), STATE).current_phase);
    for (const p of ["init", "research", "plan", "critique", "execute", "verify", "complete"]) {
      assert.ok(phases.includes(p), `${p} in ${phases.join(", ")}`);
    }
  });

  for (const name of STOPS) {
    it(`${name}: no problem; the contract of its phase, and the re-entry the SessionStart hook states`, async () => {
      const loc = fixtureLocation(`agloop-lifecycle/${name}`);
      const snap = await loadAgloopSnapshot(loc);
      assert.deepEqual(found(snap.problems), []);
      const state = readJson(loc, STATE);
      const view = snap.contract;
      assert.ok(view);
      assert.equal(view.phase, state.current_phase);
      assert.ok(view.preconditions.every((c) => c.met));
      assert.ok(view.reentryClear);
      const said = JSON.parse(fs.readFileSync(path.join(loc.workspace, "session-start.json"), "utf8")).instructions;
      assert.match(said, new RegExp(`Phase: ${view.phase}\\.`));
      const task = /Current task: (task-\d+)/.exec(said)?.[1];
      if (task && view.phase !== "complete") assert.ok(view.reentry.includes(task), `${view.reentry} names ${task}`);
      const pending = /Pending decision: (.*?)\. Last/.exec(said)?.[1];
      if (pending && view.phase !== "complete") assert.ok(view.reentry.includes(pending.slice(0, 40)), view.reentry);
    });
  }

  it("the tree shows the contract of the current phase: preconditions, evidence with links, re-entry", async () => {
    const loc = fixtureLocation(`agloop-lifecycle/${STOPS.find((s) => s.endsWith("-verify"))}`);
    const node = (await agloopSource.tree(loc)).find((n) => n.id === "agloop/contract");
    assert.ok(node);
    assert.equal(node.label, "Contract: verify · task-001");
    const kids = node.children ?? [];
    const pre = kids.find((k) => k.id === "agloop/contract/pre/0");
    assert.equal(pre?.description, "met");
    assert.deepEqual(pre?.target, {
      kind: "file",
      file: STATE,
      line: lineContaining(loc.workspace, STATE, '"result": {'),
    });
    const reentry = kids.find((k) => k.id === "agloop/contract/reentry");
    assert.match(reentry?.label ?? "", /^a restart re-verifies task-001 \(verify, iteration 2\)/);
  });

  it("a phase advanced without its evidence: verify with no executor result", async () => {
    const loc = stop("verify");
    editState(loc, (s) => (s.tasks[0].result = null));
    const problems = await agloopSource.check(loc);
    assert.deepEqual(found(problems), [
      `phase_without_evidence ${STATE}:${lineContaining(loc.workspace, STATE, '"current_phase": "verify"')}`,
    ]);
    assert.match(problems[0].message, /the executor's result for task-001 is missing/);
  });

  it("a phase advanced without its evidence: critique with no plan.yaml and no tasks", async () => {
    const loc = stop("critique");
    fs.rmSync(path.join(loc.dir, "plan.yaml"));
    editState(loc, (s) => (s.tasks = []));
    const line = lineContaining(loc.workspace, STATE, '"current_phase": "critique"');
    assert.deepEqual(found(await agloopSource.check(loc)), [
      `phase_without_evidence ${STATE}:${line}`,
      `phase_without_evidence ${STATE}:${line}`,
    ]);
  });

  it("a task marked done without the verifier's PASS", async () => {
    const loc = stop("complete");
    editState(loc, (s) => (s.tasks[1].verification = null));
    assert.deepEqual(found(await agloopSource.check(loc)), [
      `phase_without_evidence ${STATE}:${lineContaining(loc.workspace, STATE, '"status": "done"', 2)}`,
    ]);
  });

  it("a lost approval gate: the critic approved, pending_decision no longer holds the question", async () => {
    const loc = stop("critique-gate");
    editState(loc, (s) => (s.compaction_context.pending_decision = ""));
    const problems = await agloopSource.check(loc);
    assert.deepEqual(found(problems), [
      `reentry_unclear ${STATE}:${lineContaining(loc.workspace, STATE, '"pending_decision": ""')}`,
    ]);
    const snap = await loadAgloopSnapshot(loc);
    assert.equal(snap.contract?.reentryClear, false);
  });

  it("execute without the user's approval (its log line gone)", async () => {
    const loc = stop("execute");
    const log = fs.readFileSync(path.join(loc.dir, "log.json"), "utf8").split("\n");
    const at = log.findIndex((l) => l.includes('"action":"user_approved"') && l.includes('"phase":"critique"'));
    assert.ok(at >= 0);
    log.splice(at, 1);
    fs.writeFileSync(path.join(loc.dir, "log.json"), log.join("\n"));
    const problems = await agloopSource.check(loc);
    assert.deepEqual(found(problems), [
      `phase_without_evidence ${STATE}:${lineContaining(loc.workspace, STATE, '"current_phase": "execute"')}`,
    ]);
    assert.match(problems[0].message, /the user approved execution/);
  });

  it("a forbidden transition in phase_history: execute → research", async () => {
    const loc = stop("execute");
    editState(loc, (s) => {
      s.phase_history[s.phase_history.length - 1].exited_at = new Date().toISOString();
      s.phase_history.push({ phase: "research", entered_at: new Date().toISOString(), exited_at: null });
      s.current_phase = "research";
    });
    const text = fs.readFileSync(path.join(loc.workspace, STATE), "utf8").split("\n");
    const line = text.length - [...text].reverse().findIndex((l) => l.includes('"phase": "research"'));
    assert.deepEqual(found(await agloopSource.check(loc)), [`transition_not_allowed ${STATE}:${line}`]);
  });

  it("a forbidden transition in log.json: critique → complete", async () => {
    const loc = stop("critique");
    const entry = {
      timestamp: new Date().toISOString(),
      agent: "agloop",
      action: "phase_transition",
      task_id: null,
      phase: "complete",
      input_summary: "critique complete",
      output_summary: "Entered complete",
      status: "success",
    };
    fs.appendFileSync(path.join(loc.dir, "log.json"), JSON.stringify(entry) + "\n");
    const line = fs.readFileSync(path.join(loc.dir, "log.json"), "utf8").trimEnd().split("\n").length;
    assert.deepEqual(found(await agloopSource.check(loc)), [`transition_not_allowed ${LOG}:${line}`]);
  });

  it("phase_history only grows: a rewritten entry differs from the newest checkpoint", async () => {
    const loc = stop("execute-retry");
    let was = "";
    editState(loc, (s) => {
      was = s.phase_history[1].entered_at;
      s.phase_history[1].entered_at = new Date(Date.parse(was) + 1).toISOString();
    });
    const moved = new Date(Date.parse(was) + 1).toISOString();
    const line = lineContaining(loc.workspace, STATE, `"entered_at": "${moved}"`);
    assert.deepEqual(found(await agloopSource.check(loc)), [`transition_not_allowed ${STATE}:${line}`]);
  });

  it("Recover from checkpoint refuses a state the contract forbids, writing nothing, and falls back", async () => {
    const loc = stop("execute");
    fs.rmSync(path.join(loc.dir, "state.json"));
    const logPath = path.join(loc.dir, "log.json");
    const log = fs
      .readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => !(l.includes('"action":"user_approved"') && l.includes('"phase":"critique"')))
      .join("\n");
    fs.writeFileSync(logPath, log);
    const cps = fs.readdirSync(path.join(loc.dir, "checkpoints")).sort();
    const toExecute = cps.filter((n) => n.startsWith("phase-transition-")).at(-1) ?? "";
    assert.equal(readJson(loc, `.agloop/checkpoints/${toExecute}`).current_phase, "execute");
    await assert.rejects(
      agloopSource.runAction!(loc, RECOVER_ACTION, [toExecute]),
      /Not recovered: the phase contract forbids the state in phase-transition-.*: phase_without_evidence: .*the user approved execution/,
    );
    assert.equal(fs.existsSync(path.join(loc.dir, "state.json")), false, "nothing written");
    assert.equal(fs.readFileSync(logPath, "utf8"), log, "nothing appended");
    const plan = await planRecovery(loc, undefined, NO_WAIT);
    assert.match(plan.checkpoint, /^pre-compact-/, "the gate's checkpoint, which the contract allows");
    assert.equal(plan.phase, "critique");
  });

  it("after a recovery the older history is not reported as shrunk", async () => {
    const loc = copiedLocation("agloop-torn");
    await agloopSource.runAction!(loc, RECOVER_ACTION, []);
    const codes = (await agloopSource.check(loc)).map((p) => p.code);
    assert.deepEqual(
      codes.filter((c) => ["phase_without_evidence", "transition_not_allowed", "reentry_unclear"].includes(c)),
      [],
    );
  });
});
