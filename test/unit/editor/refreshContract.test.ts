/**
 * One refresh answers everything the editor shows of `.autodev/` (so Problems, the tree and the run
 * view change in the same tick, with no second request after a delay): the phase contract and the
 * problems on the state now — the problems `check` composes, also when the ledger did not change
 * (a delegation or config.json may have) — the run view and the last changes; the new findings
 * after an append by Python's way (an atomic replace); no contract on a broken ledger.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { appendEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import type { AutodevResults } from "../../../src/core/sources/autodev/worker/autodevRequests";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";

const FIXTURES = path.resolve(__dirname, "..", "..", "..", "..", "test", "fixtures");
let nextId = 1;

async function ask(cwd: string, type: "refresh"): Promise<AutodevResults["refresh"]> {
  const req = { id: nextId++, type: "source", kind: "autodev", cwd, request: { type } } as WorkerRequest;
  return (await handleRequest(req, () => undefined)) as AutodevResults["refresh"];
}

/** `check`'s problems for `cwd`. */
async function checked(cwd: string) {
  const location = (await autodevSource.detect(cwd))!;
  return (await autodevSource.check(location))
    .map((p) => ({ ...p, part: undefined }))
    .map(({ part: _part, ...rest }) => rest);
}

/** The refresh's problems as `check` states them (without the editor's Problems column). */
function plain(r: AutodevResults["refresh"]) {
  return r.problems.map(({ part: _part, ...p }) => p);
}

describe("one refresh brings the contract, the problems and the run view along", function () {
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

  it("answers check's problems, also when the ledger did not change", async () => {
    const first = await ask(cwd, "refresh");
    assert.equal(first.update.mode, "full");
    assert.ok(first.report.ok);
    assert.equal(first.contract.length, 1);
    assert.deepEqual(plain(first), await checked(cwd));
    assert.ok(first.run.top.length >= 0 && first.hasLedger);
    // config.json changes, the ledger does not: the same refresh reads it again.
    fs.writeFileSync(path.join(cwd, ".autodev", "config.json"), "{ not json");
    const again = await ask(cwd, "refresh");
    assert.equal(again.update.mode, "none");
    assert.deepEqual(plain(again), await checked(cwd));
    assert.ok(
      again.problems.some((p) => p.file === ".autodev/config.json" && p.part === "run"),
      JSON.stringify(again.problems),
    );
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
    assert.deepEqual(plain(after), await checked(cwd));
    assert.notDeepEqual(after.contract, before.contract);
    assert.notDeepEqual(after.problems, before.problems);
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
