/**
 * The editor's refresh of a source reads each state file once (issue 30): agloop's state.json was
 * read by `check`, `tree` and `waiting` in turn (3 opens, and the tree and Problems could come from
 * two versions of the file), engine_state's files by `check` and `tree` (2). The worker's refresh
 * takes problems, tree and wait from one read (`StateSource.readView`), and its answer equals what
 * the three return.
 */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { sourceOfKind } from "../../../src/core/sources/sourceRegistry";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";
import { OpenCounter } from "../../helpers/appendCounts";
import { copyFixture } from "../fixtures";

let id = 1;
async function refresh(cwd: string, kind: string): Promise<{ opens: number; answer: Record<string, unknown> }> {
  await handleRequest({ id: id++, type: "detect", cwd } as unknown as WorkerRequest, () => undefined);
  const file = kind === "agloop" ? path.join(".agloop", "state.json") : path.join("engine_state", "recognizers.jsonl");
  const counter = new OpenCounter(file);
  try {
    const answer = (await handleRequest(
      { id: id++, type: "refresh", cwd, kind } as unknown as WorkerRequest,
      () => undefined,
    )) as Record<string, unknown>;
    return { opens: counter.opens, answer };
  } finally {
    counter.dispose();
  }
}

describe("a refresh reads each state file once", function () {
  this.timeout(60_000);

  for (const [kind, fixture] of [
    ["agloop", "agloop-clean"],
    ["agloop", "agloop-broken"],
    ["engine_state", "engine-state-small"],
  ] as const) {
    it(`${kind} (${fixture}): one open, and the answer is check's, tree's and waiting's`, async () => {
      const ws = copyFixture(fixture);
      const { opens, answer } = await refresh(ws, kind);
      assert.equal(opens, 1, `the refresh opened the file ${opens} times`);
      const source = sourceOfKind(kind)!;
      const location = (await source.detect(ws))!;
      assert.deepEqual(answer.problems, await source.check(location));
      assert.deepEqual(answer.tree, await source.tree(location));
      assert.deepEqual(answer.waiting, source.waiting ? await source.waiting(location) : null);
    });
  }
});
