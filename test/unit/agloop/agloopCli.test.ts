/**
 * `autodev-state check` and `sources` on agloop folders made by running real hook scripts: the
 * codes of a broken folder, exit codes, and the agloop summary shape.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";
import { AGLOOP_SUMMARY_KEYS } from "../helpers/agloopFixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe("autodev-state CLI on agloop folders @slow", function () {
  this.timeout(60_000);

  it("check --json on the broken folder gives every state, plan, log and checkpoint code (exit 1)", () => {
    const r = cli("check", path.join(REPO_ROOT, "test/fixtures/agloop-broken"), "--json");
    assert.equal(r.code, 1, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.ok, false);
    assert.equal(j.sources.length, 1);
    const s = j.sources[0];
    assert.deepEqual([s.kind, s.path, s.ok], ["agloop", ".agloop", false]);
    const codes = new Set(
      s.problems.map(
        (p: { file: string; code: string }) => `${p.file.replace(/checkpoints\/.*/, "checkpoints/*")} ${p.code}`,
      ),
    );
    for (const code of [
      "schema_version",
      "missing_field",
      "invalid_enum",
      "iteration_range",
      "task_id_format",
      "duplicate_task_id",
      "unknown_dependency",
      "unknown_current_task",
      "missing_acceptance_criteria",
      "retry_count_invalid",
      "feature_name_too_long",
      "stray_in_progress",
      "phase_history_order",
      "stop_hook_active",
      "dependency_cycle",
    ]) {
      assert.ok(codes.has(`.agloop/state.json ${code}`), `state.json ${code}`);
    }
    for (const code of [
      "plan_id_format",
      "timestamp_order",
      "dag_edge_unknown_task",
      "dependency_cycle",
      "plan_state_mismatch",
    ]) {
      assert.ok(codes.has(`.agloop/plan.yaml ${code}`), `plan.yaml ${code}`);
    }
    for (const code of ["invalid_json", "log_field_missing", "summary_too_long"]) {
      assert.ok(codes.has(`.agloop/log.json ${code}`), `log.json ${code}`);
    }
    assert.ok(codes.has(".agloop/checkpoints/* invalid_checkpoint"));
    for (const p of s.problems) {
      assert.deepEqual(
        Object.keys(p).filter((k) => k !== "column"),
        ["file", "line", "severity", "code", "message"],
      );
      assert.ok(p.line === null || (Number.isInteger(p.line) && p.line > 0));
    }
  });

  it("check --json on the torn folder: state.json invalid_json, plan.yaml invalid_yaml", () => {
    const r = cli("check", path.join(REPO_ROOT, "test/fixtures/agloop-torn"), "--json");
    assert.equal(r.code, 1, r.err);
    const codes = JSON.parse(r.out).sources[0].problems.map(
      (p: { file: string; code: string }) => `${p.file} ${p.code}`,
    );
    assert.ok(codes.includes(".agloop/state.json invalid_json"));
    assert.ok(codes.includes(".agloop/plan.yaml invalid_yaml"));
  });

  it("check on the clean folder exits 0; sources --json gives the agloop summary", () => {
    const dir = path.join(REPO_ROOT, "test/fixtures/agloop-clean");
    const c = cli("check", dir, "--json");
    assert.equal(c.code, 0, c.out + c.err);
    assert.deepEqual(JSON.parse(c.out), {
      ok: true,
      sources: [{ kind: "agloop", path: ".agloop", ok: true, problems: [] }],
    });
    const r = cli("sources", dir, "--json");
    assert.equal(r.code, 0, r.err);
    const [s] = JSON.parse(r.out);
    assert.deepEqual(Object.keys(s), AGLOOP_SUMMARY_KEYS);
    assert.deepEqual(
      [s.kind, s.phase, s.iteration, s.current_task_id, s.tasks.length],
      ["agloop", "execute", 1, "task-002", 3],
    );
    assert.deepEqual(Object.keys(s.contract).slice(0, 4), ["phase", "task", "evidence", "reentry"]);
    assert.equal(s.contract.phase, "execute");
    assert.equal(s.contract.reentry.startsWith("a restart resumes task-002 in execute, iteration 1"), true);
  });
});
