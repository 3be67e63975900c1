/**
 * A request the state worker does not answer fails with a clear error instead of hanging the
 * tree, and the worker is told to cancel it; a request whose folder keeps reporting progress (a
 * long verification) does not run out. Worker threads stand in for the state worker: one never
 * answers, one reports progress for a while and then answers.
 */
import "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { OutputLog } from "../../../src/extension/outputLog";
import { StateWorkerClient, WorkerTimeoutError } from "../../../src/extension/stateWorkerClient";

/** A worker script: `silent` never answers (it records what it was sent), `slow` reports progress, then answers. */
const SCRIPTS = {
  silent: `const { parentPort } = require("node:worker_threads");
parentPort.on("message", (m) => { if (m.type === "cancel") parentPort.postMessage({ kind: "progress", cwd: "cancelled:" + m.target, bytes: 0, total: 0 }); });`,
  slow: `const { parentPort } = require("node:worker_threads");
parentPort.on("message", (m) => {
  let n = 0;
  const t = setInterval(() => {
    parentPort.postMessage({ kind: "progress", cwd: m.cwd, bytes: ++n, total: 15 });
    if (n === 15) { clearInterval(t); parentPort.postMessage({ kind: "result", id: m.id, ok: true, result: "done" }); }
  }, 100);
});`,
};

describe("state worker requests have a time limit", function () {
  this.timeout(20_000);
  let dir = "";
  const clients: StateWorkerClient[] = [];

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "worker-timeout-"));
    for (const [name, text] of Object.entries(SCRIPTS)) fs.writeFileSync(path.join(dir, `${name}.js`), text);
  });

  after(() => {
    clients.forEach((c) => c.dispose());
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const client = (script: keyof typeof SCRIPTS, timeoutMs: number) => {
    const c = new StateWorkerClient(new OutputLog(), () => 1 << 20, path.join(dir, `${script}.js`), timeoutMs);
    clients.push(c);
    return c;
  };

  it("an unanswered request fails naming the request and the folder, and is cancelled in the worker", async () => {
    const c = client("silent", 300);
    const cancelled: string[] = [];
    c.onProgress((p) => cancelled.push(p.cwd));
    const cwd = path.join(dir, "my-project");
    const started = Date.now();
    const err = await c.request({ type: "detect", cwd, kinds: [] } as never).then(
      () => assert.fail("answered"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof WorkerTimeoutError, String(err));
    assert.match(err.message, /did not answer detect for my-project within 0\.3 s/);
    assert.ok(Date.now() - started < 10_000);
    for (let i = 0; i < 100 && cancelled.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(cancelled, ["cancelled:1"], "the worker was told to cancel request 1");
  });

  it("progress of the request's folder starts its time again", async () => {
    const c = client("slow", 1000);
    // 15 progress reports 100 ms apart: 1.5 s in all, longer than the limit, never 1 s without one
    // (the limit leaves room for the worker thread's start on a loaded machine).
    assert.equal(await c.request({ type: "detect", cwd: path.join(dir, "big"), kinds: [] } as never), "done");
  });
});
