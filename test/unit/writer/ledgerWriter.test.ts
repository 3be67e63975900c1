/**
 * Writing the ledger: entries we append verify in Python (the stdlib verifier
 * and the pydantic reference), plan.json is byte-identical to Python's, a
 * re-save of unchanged state is byte-identical, we refuse to append after a
 * corrupt tail and never glue an entry onto a line without its newline.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import {
  appendEntry,
  buildEntry,
  isoNow,
  planJsonText,
  readLastEntryHead,
} from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { loadPlan, verifyLedger } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import {
  LedgerCorruptError,
  InvalidTransitionError,
  PlanConcurrentModificationError,
  WriteRefusedError,
} from "../../../src/core/errors";
import { parsePyJson } from "../../../src/core/pyjson/pyJsonParse";
import { dumpsSorted } from "../../../src/core/pyjson/pyJsonDump";
import { ledgerEntryToPy, validateLedgerEntry } from "../../../src/core/sources/autodev/plan/schemas";
import { PyFloat, PyObject } from "../../../src/core/pyjson/pyValue";
import { ledgerPath, planPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";

const ROOT = REPO_ROOT;
const PY_VERIFY = path.join(ROOT, "test/python/tools/verify_ledger.py");
const PY_REF = path.join(ROOT, "test/python/oracles/ledger_reference.py");

function pythonVerifies(dir: string): string {
  const r = spawnSync("python3", [PY_VERIFY, ledgerPath(dir)], { encoding: "utf8" });
  assert.equal(r.status, 0, `python verifier: ${r.stdout}${r.stderr}`);
  const ref = JSON.parse(execFileSync("python3", [PY_REF, ledgerPath(dir)], { encoding: "utf8" }));
  assert.equal(ref.first, null, `pydantic reference: ${JSON.stringify(ref.first)}`);
  return r.stdout.trim();
}

describe("ledger writer", function () {
  this.timeout(60_000);

  it("isoNow matches Python's isoformat (microseconds, +00:00, no fraction at zero)", () => {
    assert.match(isoNow(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    assert.equal(isoNow(Date.UTC(2026, 10, 30, 1, 2, 3, 0)), "2026-11-30T01:02:03+00:00");
    assert.equal(isoNow(Date.UTC(2026, 10, 30, 1, 2, 3, 45) + 0.678), "2026-11-30T01:02:03.045678+00:00");
  });

  it("loads Python's plan and re-writes plan.json byte-identically; the re-dumped ledger lines are identical too", async () => {
    for (const name of ["python-small", "python-evidence"]) {
      const dir = copyFixture(name);
      const { plan } = await loadPlan(dir);
      assert.equal(planJsonText(plan!), fs.readFileSync(planPath(dir), "utf8"));
      for (const line of fs.readFileSync(ledgerPath(dir), "utf8").split("\n").filter(Boolean)) {
        const v = validateLedgerEntry(parsePyJson(line));
        assert.ok(v.ok);
        assert.equal(dumpsSorted(ledgerEntryToPy(v.value)), line);
      }
    }
  });

  it("every PlanManager mutation writes entries Python verifies, with exactly one audit entry then a snapshot @slow", async () => {
    const dir = copyFixture("python-small");
    const pm = new PlanManager(dir, { sessionId: "sess-ts-☃" });
    const before = (await verifyLedger(dir)).report.entries;
    await pm.updateTaskStatus("1.3", "in_progress");
    await pm.updateTaskStatus("1.3", "blocked", new Map([["blocked_reason", "needs <input> ✓ \u{1F600}"]]));
    await pm.markTaskRetry("1.3");
    await pm.markEscalated("1.3");
    await pm.ledgerAppend(
      "impl_tournament_complete",
      new Map<string, never>([
        ["score", new PyFloat(0.1) as never],
        ["big", (2n ** 70n) as never],
      ]),
    );
    const res = await verifyLedger(dir);
    assert.equal(res.report.ok, true, JSON.stringify(res.report.errors));
    assert.equal(res.report.entries, before + 9);
    const ops: string[] = [];
    await verifyLedger(dir, { onEntry: (s) => ops.push(s.op) });
    assert.deepEqual(ops.slice(before), [
      "update_task_status",
      "snapshot",
      "update_task_status",
      "snapshot",
      "update_task_status",
      "snapshot",
      "update_task_status",
      "snapshot",
      "impl_tournament_complete",
    ]);
    assert.match(pythonVerifies(dir), new RegExp(`^OK ${before + 9} `));
    const task = (await pm.getTask("1.3"))!;
    assert.equal(task.status, "blocked");
    assert.equal(task.blocked_reason, "needs <input> ✓ \u{1F600}");
    assert.equal(Number(task.retry_count), 1);
    assert.equal(task.escalated, true);
    assert.equal(planJsonText((await loadPlan(dir)).plan!), fs.readFileSync(planPath(dir), "utf8"));
    assert.equal(fs.statSync(ledgerPath(dir)).mode & 0o777, 0o600, "the ledger is 0600 like Python's temp-file rename");
  });

  it("refuses a forbidden transition without touching the ledger", async () => {
    const dir = copyFixture("python-small");
    const bytes = fs.readFileSync(ledgerPath(dir));
    await assert.rejects(
      new PlanManager(dir, { sessionId: "s" }).updateTaskStatus("2.2", "complete"),
      InvalidTransitionError,
    );
    await assert.rejects(
      new PlanManager(dir, { sessionId: "s" }).updateTaskStatus("nope", "in_progress"),
      PlanConcurrentModificationError,
    );
    assert.ok(fs.readFileSync(ledgerPath(dir)).equals(bytes));
  });

  it("refuses to append after a malformed last line, and after a broken chain", async () => {
    const dir = copyFixture("python-small");
    fs.appendFileSync(ledgerPath(dir), '{"seq": 22, "op": "snap');
    const bytes = fs.readFileSync(ledgerPath(dir));
    await assert.rejects(
      readLastEntryHead(dir),
      (e: Error) => e instanceof LedgerCorruptError && /Manual recovery required/.test(e.message),
    );
    await assert.rejects(
      new PlanManager(dir, { sessionId: "s" }).updateTaskStatus("1.3", "in_progress"),
      LedgerCorruptError,
    );
    assert.ok(fs.readFileSync(ledgerPath(dir)).equals(bytes));
  });

  it("does not glue a new entry onto a last line that lacks its newline", async () => {
    const dir = copyFixture("python-small");
    const text = fs.readFileSync(ledgerPath(dir), "utf8");
    fs.writeFileSync(ledgerPath(dir), text.replace(/\n$/, ""));
    await appendEntry(dir, "impl_tournament_complete", new Map(), "s");
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    assert.equal(lines.length, 23);
    assert.equal(lines[22], "");
    assert.equal((await verifyLedger(dir)).report.ok, true);
    pythonVerifies(dir);
  });

  it("treats a missing .autodev/ as a clean slate and initializes a plan Python can load @slow", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fresh-"));
    assert.equal((await verifyLedger(dir)).report.ok, true);
    assert.equal((await loadPlan(dir)).plan, null);
    const plan = (await loadPlan(copyFixture("python-small"))).plan!;
    const pm = new PlanManager(dir, { sessionId: "init" });
    await pm.initPlan(plan);
    await assert.rejects(pm.initPlan(plan), PlanConcurrentModificationError);
    assert.match(pythonVerifies(dir), /^OK 2 /);
    const ref = JSON.parse(execFileSync("python3", [PY_REF, ledgerPath(dir)], { encoding: "utf8" }));
    assert.equal(ref.load.plan_id, "p-small");
  });

  it("buildEntry hashes what a reader re-derives (pydantic's JSON-mode dump): NaN in a payload still verifies", async () => {
    const head = { seq: 0, selfHash: "", missingFinalNewline: false };
    const { line } = buildEntry(
      head,
      "impl_tournament_complete",
      new Map([["x", new PyFloat(Number.NaN)]]) as PyObject,
      "s",
      "2026-01-01T00:00:00+00:00",
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nan-"));
    fs.mkdirSync(path.join(dir, ".autodev"));
    fs.writeFileSync(ledgerPath(dir), line);
    assert.equal((await verifyLedger(dir)).report.ok, true);
    const ref = JSON.parse(execFileSync("python3", [PY_REF, ledgerPath(dir)], { encoding: "utf8" }));
    assert.equal(ref.first, null);
  });

  it("refuses writes when read-only and through a .autodev link that leaves the workspace", async () => {
    const dir = copyFixture("python-small");
    await assert.rejects(
      new PlanManager(dir, { sessionId: "s", readOnly: true }).updateTaskStatus("1.3", "in_progress"),
      WriteRefusedError,
    );
    const outside = copyFixture("python-small");
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "ws-"));
    fs.symlinkSync(path.join(outside, ".autodev"), path.join(ws, ".autodev"));
    await assert.rejects(
      new PlanManager(ws, { sessionId: "s" }).updateTaskStatus("1.3", "in_progress"),
      (e: Error) => e instanceof WriteRefusedError && /outside the workspace/.test(e.message),
    );
    // Nor read (issue 11, item 8): a .autodev/ that resolves outside the workspace is an error, trusted or not.
    await assert.rejects(verifyLedger(ws), /the ledger .*resolves to .*outside the workspace/);
  });
});
