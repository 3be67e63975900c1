/**
 * The run target opener's read-only artifacts are read by the state worker (`stateFileText`), not
 * on the extension host: a file of `.autodev/` comes back as text; anything else — a path out of
 * `.autodev/`, a `..` step, a link out of the workspace — is refused with the reason, and nothing
 * outside the folder is read.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";
import { copyFullFixture } from "../helpers/autodevOracle";

let id = 1;
function stateFileText(cwd: string, rel: string): Promise<unknown> {
  const request = { type: "stateFileText", rel, maxBytes: 1 << 20 };
  return handleRequest(
    { id: id++, type: "source", cwd, kind: "autodev", request } as unknown as WorkerRequest,
    () => undefined,
  );
}

describe("a run target's artifact is read by the worker, confined to .autodev/", function () {
  this.timeout(30_000);

  it("reads a file of .autodev/ and refuses every other path", async () => {
    const { ws } = copyFullFixture();
    const config = fs.readFileSync(path.join(ws, ".autodev", "config.json"), "utf8");
    assert.deepEqual(await stateFileText(ws, ".autodev/config.json"), {
      kind: "ok",
      text: config,
      bytes: Buffer.byteLength(config),
    });
    assert.deepEqual(await stateFileText(ws, ".autodev/nothing-here.json"), { kind: "missing" });
    fs.writeFileSync(path.join(path.dirname(ws), "secret.txt"), "SECRET");
    for (const rel of ["README.md", ".autodev/../../secret.txt", "../secret.txt"]) {
      const r = (await stateFileText(ws, rel)) as { kind: string; error?: string };
      assert.equal(r.kind, "error", `${rel}: ${JSON.stringify(r)}`);
      assert.match(r.error ?? "", /is not a file of \.autodev\//);
    }
    fs.symlinkSync(path.join(path.dirname(ws), "secret.txt"), path.join(ws, ".autodev", "linked.txt"));
    const linked = (await stateFileText(ws, ".autodev/linked.txt")) as { kind: string; text?: string };
    assert.equal(linked.kind, "error", JSON.stringify(linked));
    assert.equal(linked.text, undefined);
  });
});
