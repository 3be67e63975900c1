/**
 * The `autodev-state` CLI as a user runs it (the built dist/cli.js in a child
 * process): JSON shapes, exit codes 0–4, messages that say what to do.
 */
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ledgerPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe("autodev-state CLI @slow", function () {
  this.timeout(60_000);

  it("verify --json on a Python ledger: ok, entries, head", () => {
    const r = cli("verify", path.join(REPO_ROOT, "test/fixtures/python-evidence"), "--json");
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual({ ok: j.ok, entries: j.entries, errors: j.errors }, { ok: true, entries: 39, errors: [] });
    assert.match(j.head.self_hash, /^[0-9a-f]{16}$/);
    assert.equal(j.head.seq, 39);
  });

  it("verify exits 1 on a tampered ledger, errors[0] at the right line", () => {
    const dir = copyFixture("python-small");
    const text = fs
      .readFileSync(ledgerPath(dir), "utf8")
      .replace('"title": "Write README"', '"title": "Write READYOU"');
    fs.writeFileSync(ledgerPath(dir), text);
    const r = cli("verify", dir, "--json");
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.equal(j.ok, false);
    assert.deepEqual([j.errors[0].kind, j.errors[0].line, j.errors[0].seq], ["self_hash_mismatch", 1, 1]);
    assert.equal(j.head, null);
  });

  it("replay --at, load and status --json", () => {
    const dir = path.join(REPO_ROOT, "test/fixtures/python-small");
    const at = JSON.parse(cli("replay", dir, "--at", "4", "--json").out);
    assert.equal(at.entries, 4);
    assert.equal(at.plan.phases[0].tasks[0].status, "in_progress");
    const load = JSON.parse(cli("load", dir, "--json").out);
    assert.equal(load.entries, 21);
    assert.deepEqual(Object.keys(load.plan), [
      "plan_id",
      "spec_hash",
      "phases",
      "metadata",
      "created_at",
      "updated_at",
      "content_hash",
    ]);
    const status = JSON.parse(cli("status", dir, "--json").out);
    assert.equal(status.tasks.length, 6);
    assert.deepEqual(
      [status.tasks[0].evidence, status.tasks[0].patch],
      [1, true],
      "bundles as list_evidence counts them; the patch apart",
    );
    assert.equal(status.totals.by_status.blocked, 1);
  });

  it("log filters by task and op", () => {
    const rows = JSON.parse(
      cli(
        "log",
        path.join(REPO_ROOT, "test/fixtures/python-small"),
        "--json",
        "--task",
        "1.1",
        "--op",
        "update_task_status",
      ).out,
    );
    assert.ok(rows.length >= 4);
    assert.ok(rows.every((r: { task_id: string; op: string }) => r.task_id === "1.1" && r.op === "update_task_status"));
    assert.deepEqual([rows[0].from, rows[0].to], ["pending", "in_progress"]);
  });

  it("writes: set-status, retry, escalate, append; exit 4 for a forbidden edge, 2 for bad input", () => {
    const dir = copyFixture("python-small");
    assert.equal(cli("set-status", dir, "1.3", "in_progress").code, 0);
    assert.equal(cli("set-status", dir, "1.3", "blocked", "--reason", "waiting").code, 0);
    assert.equal(cli("retry", dir, "1.3").code, 0);
    assert.equal(cli("escalate", dir, "1.3").code, 0);
    assert.equal(cli("append", dir, "plan_tournament_complete", "--payload", '{"winner": "A"}').code, 0);
    const bad = cli("set-status", dir, "1.3", "complete");
    assert.equal(bad.code, 4);
    assert.match(bad.err, /invalid task transition 'blocked' -> 'complete'.*ledger was not changed/);
    assert.equal(cli("set-status", dir, "1.3", "done").code, 2);
    assert.equal(
      cli("append", dir, "update_task_status", "--payload", '{"task_id": "9.9", "status": "coded"}').code,
      2,
    );
    assert.equal(cli("append", dir, "snapshot", "--payload", "{}").code, 2);
    assert.equal(cli("append", dir, "bogus", "--payload", "{}").code, 2);
    assert.equal(cli("frobnicate").code, 2);
    const v = JSON.parse(cli("verify", dir, "--json").out);
    assert.equal(v.ok, true);
    assert.equal(v.entries, 21 + 9);
    const py = spawnSync("python3", [path.join(REPO_ROOT, "test/python/tools/verify_ledger.py"), ledgerPath(dir)], {
      encoding: "utf8",
    });
    assert.equal(py.status, 0, py.stdout);
  });

  it("exits 3 with the ledger untouched while a Python process holds .autodev/.lock", async () => {
    const dir = copyFixture("python-small");
    const holder = spawn("python3", [
      "-c",
      "import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT|os.O_TRUNC, 0o644); fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); time.sleep(30)",
      path.join(dir, ".autodev/.lock"),
    ]);
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    try {
      const before = fs.readFileSync(ledgerPath(dir));
      const r = cli("set-status", dir, "1.3", "in_progress", "--lock-timeout", "0.5");
      assert.equal(r.code, 3, r.err);
      assert.match(r.err, /could not acquire \.autodev\/\.lock within 0\.5s/);
      assert.ok(fs.readFileSync(ledgerPath(dir)).equals(before));
    } finally {
      holder.kill("SIGKILL");
    }
  });
});
