// Round 4 of the hostile folders (issue 32), items 10 and 12: `append` held to the contract and
// the state machine `set-status` enforces, and `check` seeing the dependency faults `graph` sees.
// The CLI as a user runs it, on python-small (written by Python AutoDev) and on plans `init` wrote.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ledgerPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";
import { PlanShape, initWith as initPlanWith, planTask as task } from "../../helpers/initPlan";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 30_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

const append = (dir: string, op: string, payload: object, ...more: string[]) =>
  cli("append", dir, op, "--payload", JSON.stringify(payload), ...more);

/** A workspace whose ledger `init` wrote from python-small's plan with `edit` applied. */
const initWith = (edit: (plan: PlanShape) => void): string => initPlanWith(cli, edit);

describe("hostile round 4: append goes through set-status's checks (issue 32.10) @slow", function () {
  this.timeout(60_000);

  it("a status without its evidence, blocked without a reason: refused as set-status refuses, ledger unchanged", () => {
    const dir = copyFixture("python-small");
    assert.equal(append(dir, "update_task_status", { task_id: "1.3", status: "in_progress" }).code, 0);
    const before = fs.readFileSync(ledgerPath(dir));
    for (const status of ["coded"]) {
      const r = append(dir, "update_task_status", { task_id: "1.3", status });
      assert.equal(r.code, cli("set-status", dir, "1.3", status).code, status);
      assert.equal(r.code, 4, r.err);
      assert.match(r.err, /refusing to move task 1\.3 to 'coded': .*1\.3-developer\.json is missing/);
    }
    const blocked = append(dir, "update_task_status", { task_id: "1.3", status: "blocked" });
    assert.equal(blocked.code, 4);
    assert.match(blocked.err, /no blocked_reason is given/);
    assert.deepEqual(fs.readFileSync(ledgerPath(dir)), before);
  });

  it("ops AutoDev never writes (mark_complete, mark_blocked, append_evidence) need --force; forced, still checked", () => {
    const dir = copyFixture("python-small");
    const before = fs.readFileSync(ledgerPath(dir));
    for (const [op, payload] of [
      ["mark_complete", { task_id: "1.3" }],
      ["mark_blocked", { task_id: "2.2", reason: "x" }],
      ["append_evidence", { task_id: "1.3", path: ".autodev/evidence/x.json" }],
    ] as const) {
      const r = append(dir, op, payload);
      assert.equal(r.code, 2, `${op}: ${r.err}`);
      assert.match(r.err, /AutoDev's own code never writes it.*--force appends it anyway/);
    }
    // Forced, a status change still meets the state machine: pending → complete and skipped → blocked are no edges.
    assert.equal(append(dir, "mark_complete", { task_id: "1.3" }, "--force").code, 4);
    assert.equal(append(dir, "mark_blocked", { task_id: "2.2", reason: "x" }, "--force").code, 4);
    assert.deepEqual(fs.readFileSync(ledgerPath(dir)), before);
  });

  it("payload keys AutoDev never writes, a jump in retry_count, escalated false: refused unless --force", () => {
    const dir = copyFixture("python-small");
    const before = fs.readFileSync(ledgerPath(dir));
    for (const extra of [{ retry_count: 99 }, { retry_count: 2, status: "coded" }, { escalated: false }, { x: 1 }]) {
      const r = append(dir, "update_task_status", { task_id: "1.1", status: "in_progress", ...extra });
      assert.equal(r.code, 2, `${JSON.stringify(extra)}: ${r.err}`);
      assert.match(r.err, /refusing to append update_task_status for task 1\.1/);
    }
    assert.deepEqual(fs.readFileSync(ledgerPath(dir)), before);
    // What AutoDev's mark_task_retry writes passes: retry_count one more, status unchanged.
    assert.equal(append(dir, "update_task_status", { task_id: "1.1", status: "in_progress", retry_count: 2 }).code, 0);
  });

  it("an allowed status change by append leaves plan.json in step (snapshotted, as set-status does)", () => {
    const dir = copyFixture("python-small");
    const r = append(dir, "update_task_status", { task_id: "1.3", status: "in_progress" });
    assert.equal(r.code, 0, r.err);
    const plan = JSON.parse(fs.readFileSync(path.join(dir, ".autodev/plan.json"), "utf8")) as PlanShape;
    assert.equal((task(plan, "1.3") as unknown as { status: string }).status, "in_progress");
    const v = JSON.parse(cli("verify", dir, "--json").out);
    assert.equal(v.ok, true);
    assert.deepEqual(
      v.warnings.filter((w: { kind: string }) => w.kind.startsWith("plan_json")),
      [],
    );
  });
});

describe("hostile round 4: check sees the dependency faults graph sees (issue 32.12) @slow", function () {
  this.timeout(60_000);

  it("a missing task, a self-dependency, a 2-cycle, a repeated id: each in check, as in graph", () => {
    const dir = initWith((p) => {
      task(p, "1.3").depends_on = ["9.9"];
      task(p, "2.2").depends_on = ["2.2"];
      task(p, "2.1").depends_on = ["2.3"];
      task(p, "2.3").depends_on = ["2.1"];
      p.phases[1].tasks.push(
        { ...task(p, "1.2"), id: "dup", title: "one" },
        { ...task(p, "1.2"), id: "dup", title: "two" },
      );
    });
    const g = JSON.parse(cli("graph", dir, "--json").out).sources[0];
    assert.deepEqual(g.duplicate_ids, ["dup"]);
    const r = cli("check", dir, "--json");
    const problems = (
      JSON.parse(r.out).sources[0].problems as { code: string; severity: string; message: string }[]
    ).filter((p) => ["unknown_dependency", "dependency_cycle", "duplicate_task_id"].includes(p.code));
    const said = problems.map((p) => `${p.severity} ${p.code}: ${p.message}`).join("\n");
    assert.match(said, /warning unknown_dependency: task "1\.3" depends on "9\.9", which is not a task of the plan/);
    assert.match(said, /warning dependency_cycle: task "2\.2" depends on itself/);
    assert.match(said, /warning dependency_cycle: the plan's dependencies form a cycle: "2\.1" → "2\.3" → "2\.1"/);
    assert.match(said, /error duplicate_task_id: task id "dup" is used by more than one task/);
    assert.equal(r.code, 1, "a repeated id is an error");
    assert.equal(g.dangling_edges.length, problems.filter((p) => p.code === "unknown_dependency").length);
    assert.equal(g.cycles.length, problems.filter((p) => p.code === "dependency_cycle").length);
  });

  it("set-status on a repeated id is refused, naming the count; nothing is written", () => {
    const dir = initWith((p) => {
      p.phases[1].tasks.push(
        { ...task(p, "1.3"), id: "dup", title: "one" },
        { ...task(p, "1.3"), id: "dup", title: "two" },
      );
    });
    const before = fs.readFileSync(ledgerPath(dir));
    const r = cli("set-status", dir, "dup", "in_progress");
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /task id "dup" is used by 2 tasks of the plan; a write would reach only the first/);
    assert.equal(append(dir, "update_task_status", { task_id: "dup", status: "in_progress" }).code, 2);
    assert.deepEqual(fs.readFileSync(ledgerPath(dir)), before);
  });

  it("python-small (as Python wrote it) has no dependency finding", () => {
    const j = JSON.parse(cli("check", copyFixture("python-small"), "--json").out);
    const codes = (j.sources[0].problems as { code: string }[]).map((p) => p.code);
    assert.deepEqual(
      codes.filter((c) => ["unknown_dependency", "dependency_cycle", "duplicate_task_id"].includes(c)),
      [],
    );
  });
});
