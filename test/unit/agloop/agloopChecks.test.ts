/**
 * agloop checks on fixtures written by running a real agloop install's hook scripts: every code
 * of the protocol at the file and line of the offending value (lines found by text search in the
 * fixture, not by the code under test), and a clean run that has no problem at all.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import type { SourceProblem } from "../../../src/core/sources/stateSource";
import { elementLine, fixtureLocation, lineContaining } from "../helpers/agloopFixtures";

const STATE = ".agloop/state.json";
const PLAN = ".agloop/plan.yaml";
const LOG = ".agloop/log.json";

/** The problems of `code` as "file:line". */
function at(problems: readonly SourceProblem[], code: string): string[] {
  return problems.filter((p) => p.code === code).map((p) => `${p.file}:${p.line}`);
}

describe("agloop checks", function () {
  this.timeout(30_000);

  it("a clean run of the hook scripts has no problem", async () => {
    const problems = await agloopSource.check(fixtureLocation("agloop-clean"));
    assert.deepEqual(problems, []);
  });

  describe("agloop-broken", () => {
    const loc = fixtureLocation("agloop-broken");
    const ws = loc.workspace;
    let problems: readonly SourceProblem[] = [];
    before(async () => {
      problems = await agloopSource.check(loc);
    });
    const line = (rel: string, needle: string, n = 1): string => `${rel}:${lineContaining(ws, rel, needle, n)}`;

    it("state.json: schema codes at the offending value's line", () => {
      assert.deepEqual(at(problems, "schema_version"), [line(STATE, '"$schema": "agloop-state-v2"')]);
      assert.deepEqual(at(problems, "feature_name_too_long"), [line(STATE, '"feature_name": "Search Search')]);
      assert.deepEqual(at(problems, "iteration_range"), [line(STATE, '"iteration": 5')]);
      assert.deepEqual(at(problems, "task_id_format"), [line(STATE, '"id": "task-1"')]);
      assert.deepEqual(at(problems, "missing_acceptance_criteria"), [line(STATE, '"acceptance_criteria": []')]);
      assert.deepEqual(
        at(problems, "invalid_enum").sort(),
        [line(STATE, '"complexity_level": "huge"'), line(STATE, '"status": "blocked"')].sort(),
      );
      assert.deepEqual(at(problems, "retry_count_invalid"), [
        line(STATE, '"task-002": -1'),
        line(STATE, '"task-003": 1.5'),
      ]);
    });

    it("state.json: a missing field points at its object (the root for last_action)", () => {
      const missing = problems.filter((p) => p.code === "missing_field");
      assert.deepEqual(
        missing.map((p) => `${p.file}:${p.line}`),
        [`${STATE}:1`],
      );
      assert.match(missing[0].message, /last_action is missing/);
    });

    it("state.json: ids, dependencies, current task and cycles", () => {
      assert.deepEqual(at(problems, "duplicate_task_id"), [line(STATE, '"id": "task-002"', 2)]);
      const depsOfDuplicate = lineContaining(ws, STATE, '"depends_on": [', 5);
      assert.deepEqual(at(problems, "unknown_dependency"), [`${STATE}:${elementLine(depsOfDuplicate, 0)}`]);
      assert.equal(lineContaining(ws, STATE, '"task-099"'), elementLine(depsOfDuplicate, 0));
      assert.deepEqual(at(problems, "unknown_current_task"), [line(STATE, '"current_task_id": "task-042"')]);
      const cycle = problems.filter((p) => p.code === "dependency_cycle" && p.file === STATE);
      assert.equal(cycle.length, 1);
      assert.match(cycle[0].message, /task-004 → task-005 → task-004|task-005 → task-004 → task-005/);
    });

    it("state.json: warnings (stray in_progress, phase order, stop_hook_active left true)", () => {
      const stray = problems.filter((p) => p.code === "stray_in_progress");
      assert.deepEqual(
        stray.map((p) => p.severity),
        ["warning", "warning"],
      );
      assert.deepEqual(
        stray.map((p) => `${p.file}:${p.line}`),
        [line(STATE, '"status": "in_progress"', 1), line(STATE, '"status": "in_progress"', 2)],
      );
      assert.deepEqual(at(problems, "phase_history_order"), [
        line(STATE, '"phase": "plan"', 1).replace(/:(\d+)$/, (_, n) => `:${Number(n) + 1}`),
      ]);
      assert.deepEqual(at(problems, "stop_hook_active"), [line(STATE, '"stop_hook_active": true')]);
      assert.equal(problems.find((p) => p.code === "stop_hook_active")?.severity, "warning");
    });

    it("plan.yaml: plan id, timestamps, DAG edges, cycle and the state mismatch", () => {
      assert.deepEqual(at(problems, "plan_id_format"), [line(PLAN, 'plan_id: "plan-2026-11-30"')]);
      assert.deepEqual(at(problems, "timestamp_order"), [line(PLAN, "updated_at:")]);
      assert.deepEqual(at(problems, "dag_edge_unknown_task"), [line(PLAN, '"task-077"')]);
      assert.deepEqual(at(problems, "dependency_cycle").filter((p) => p.startsWith(PLAN)).length, 1);
      const mismatch = problems.filter((p) => p.code === "plan_state_mismatch");
      assert.ok(mismatch.every((p) => p.severity === "warning"));
      assert.ok(at(problems, "plan_state_mismatch").includes(line(PLAN, 'id: "task-006"')), "task only in the plan");
      assert.ok(
        mismatch.some((p) => /"task-1"/.test(p.message)),
        "task only in state.json",
      );
    });

    it("log.json: a torn line, a missing field and a long summary at the entry's line", () => {
      assert.deepEqual(at(problems, "invalid_json"), [line(LOG, '"agent": "executor", "action": ')]);
      assert.deepEqual(at(problems, "log_field_missing"), [line(LOG, '"action":"task_started"')]);
      assert.deepEqual(at(problems, "summary_too_long"), [line(LOG, '"output_summary":"xxxx')]);
      assert.equal(problems.find((p) => p.code === "summary_too_long")?.severity, "warning");
    });

    it("checkpoints: the torn one is a warning; the legacy one is accepted", () => {
      const cps = problems.filter((p) => p.code === "invalid_checkpoint");
      assert.equal(cps.length, 1);
      assert.equal(cps[0].severity, "warning");
      assert.match(cps[0].file, /^\.agloop\/checkpoints\/phase-transition-\d{8}-\d{6}\.json$/);
    });

    it("problems are sorted by file then line", () => {
      const keys = problems.map((p) => [p.file, p.line ?? 0] as const);
      const sorted = [...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]);
      assert.deepEqual(keys, sorted);
    });
  });

  it("agloop-torn: a half-written state.json is invalid_json after the retries; bad YAML is invalid_yaml", async () => {
    const loc = fixtureLocation("agloop-torn");
    const problems = await agloopSource.check(loc);
    const state = problems.find((p) => p.file === STATE);
    assert.equal(state?.code, "invalid_json");
    const lines = fs.readFileSync(path.join(loc.workspace, STATE), "utf8").split("\n").length;
    assert.equal(state?.line, lines, "the error is at the cut (the last line)");
    const yaml = problems.filter((p) => p.code === "invalid_yaml");
    assert.equal(yaml.length, 1);
    assert.ok(
      (yaml[0].line ?? 0) >= lineContaining(loc.workspace, PLAN, 'title: "unterminated'),
      "at or after the unterminated string",
    );
    assert.equal(problems.filter((p) => p.code === "invalid_checkpoint").length, 1);
  });
});
