/**
 * A refresh that read new bytes brings the phase contract on the new state along (so Problems
 * shows an append's contract findings with the tree, without a second request after a delay): the
 * same answer as the `contract` request, nothing when the ledger did not change, the new findings
 * after an append by Python's way (an atomic replace), and none on a broken ledger.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { appendEntry } from "../../src/core/sources/autodev/ledger/ledgerWriter";
import type { AutodevResults } from "../../src/core/sources/autodev/worker/autodevRequests";
import { handleRequest } from "../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../src/core/worker/workerProtocol";

const FIXTURES = path.resolve(__dirname, "..", "..", "..", "test", "fixtures");
let nextId = 1;

async function ask<T extends "refresh" | "contract">(cwd: string, type: T): Promise<AutodevResults[T]> {
  const req = { id: nextId++, type: "source", kind: "autodev", cwd, request: { type } } as WorkerRequest;
  return (await handleRequest(req, () => undefined)) as AutodevResults[T];
}

describe("refresh brings the phase contract along", function () {
  this.timeout(60_000);
  let cwd = "";
  beforeEach(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), "refresh-contract-"));
    fs.cpSync(path.join(FIXTURES, "python-small"), cwd, { recursive: true });
  });
  afterEach(async () => {
    await handleRequest({ id: nextId++, type: "dispose", cwd }, () => undefined);
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it("answers as the contract request does, and not at all when nothing changed", async () => {
    const first = await ask(cwd, "refresh");
    assert.equal(first.update.mode, "full");
    assert.ok(first.report.ok);
    assert.equal(first.contract?.length, 1);
    assert.deepEqual(first.contract, await ask(cwd, "contract"));
    const again = await ask(cwd, "refresh");
    assert.equal(again.update.mode, "none");
    assert.equal(again.contract, undefined);
  });

  it("after an append, holds the contract of the new state", async () => {
    const before = await ask(cwd, "refresh");
    const plan = before.plan!;
    const task = plan.phases[0].tasks[0];
    // pending → complete skips the state machine: a finding the contract reports at the new line.
    const status = task.status === "complete" ? "pending" : "complete";
    const payload = new Map([
      ["task_id", task.id],
      ["status", status],
    ]);
    await appendEntry(cwd, "update_task_status", payload, "sess-test");
    const after = await ask(cwd, "refresh");
    assert.equal(after.update.mode, "append");
    assert.deepEqual(after.contract, await ask(cwd, "contract"));
    assert.notDeepEqual(after.contract, before.contract);
  });

  it("is empty on a broken ledger", async () => {
    await ask(cwd, "refresh");
    const file = path.join(cwd, ".autodev", "plan-ledger.jsonl");
    fs.appendFileSync(file, '{"seq": 999, "not": "an entry"}\n');
    const broken = await ask(cwd, "refresh");
    assert.equal(broken.report.ok, false);
    assert.deepEqual(broken.contract, []);
  });
});
