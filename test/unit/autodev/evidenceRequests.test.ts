// The evidence the editor shows, asked of the state worker (the host reads no evidence file):
// each `evidence*` request answered by the worker's dispatcher and carried as the worker carries
// it (a structured clone, PyFloats revived) gives what the core views give read in place; and
// the refusals (a file that leaves the workspace, an evidence folder linked out of it) come back
// as reasons, nothing read.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { evidenceMarkdown } from "../../../src/core/sources/autodev/evidence/evidenceSummary";
import { readEvidence, readPatchSource } from "../../../src/core/sources/autodev/evidence/evidenceStore";
import { readTournament } from "../../../src/core/sources/autodev/evidence/tournamentStore";
import { reviveClone } from "../../../src/core/sources/autodev/plan/planTransfer";
import type { AutodevResults } from "../../../src/core/sources/autodev/worker/autodevRequests";
import type { EvidenceRequest } from "../../../src/core/sources/autodev/worker/evidenceRequests";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";

const FIXTURES = join(resolve(__dirname, "../../../.."), "test/fixtures");

/** One evidence request about `cwd`, answered by the worker's dispatcher and cloned as across the thread. */
async function ask<R extends EvidenceRequest>(cwd: string, request: R): Promise<AutodevResults[R["type"]]> {
  const req = { id: 1, type: "source", kind: "autodev", cwd, request } as unknown as WorkerRequest;
  return reviveClone(structuredClone(await handleRequest(req, () => undefined))) as AutodevResults[R["type"]];
}

describe("evidence through the state worker", () => {
  const cwd = join(FIXTURES, "python-evidence");
  let dir = "";

  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = "";
  });

  it("a bundle's readable view is what the core gives read in place, tournament and diff included", async () => {
    for (const [task, kind] of [
      ["1.1", "tournament"],
      ["1.1", "developer"],
      ["plan", "explore"],
    ]) {
      const view = await ask(cwd, { type: "evidenceBundle", taskId: task, kind });
      const item = await readEvidence(cwd, task, kind);
      assert.ok(item?.ok && view.item?.ok, `${task}-${kind} read`);
      const tournament =
        item.evidence.kind === "tournament" ? await readTournament(cwd, item.evidence.tournament_id) : null;
      assert.equal(kind === "tournament", view.tournament !== null, "a tournament bundle brings its tournament");
      assert.equal(kind === "explore", view.diffFiles === null, "a bundle with a diff brings its files");
      const inPlace = evidenceMarkdown(item.evidence, { file: item.file, diffFiles: view.diffFiles, tournament });
      assert.equal(
        evidenceMarkdown(view.item.evidence, {
          file: view.item.file,
          diffFiles: view.diffFiles,
          tournament: view.tournament,
        }),
        inPlace,
      );
    }
    assert.deepEqual(await ask(cwd, { type: "evidenceBundle", taskId: "9.9", kind: "review" }), {
      item: null,
      diffFiles: null,
      tournament: null,
    });
  });

  it("a diff rebuilt, a .patch parsed, a raw file's bytes and the task list", async () => {
    const diff = await ask(cwd, { type: "evidenceDiff", taskId: "1.1", source: "patch" });
    assert.ok(diff?.ok, "the .patch rebuilt");
    const text = await readPatchSource(cwd, "1.1", "patch");
    assert.equal(diff.text, text?.ok ? text.text : null);
    assert.ok(diff.files.length > 0 && diff.files.every((f) => typeof f.before === "string"));
    assert.equal(await ask(cwd, { type: "evidenceDiff", taskId: "plan", source: "patch" }), null, "no patch: null");
    const patch = await ask(cwd, { type: "evidencePatch", taskId: "1.2" });
    assert.ok(patch.found?.ok && patch.files !== null && patch.parseError === null);
    const raw = await ask(cwd, { type: "evidenceRaw", file: "1.2-review.json" });
    assert.ok(raw.ok);
    assert.deepEqual(Buffer.from(raw.data), fs.readFileSync(join(cwd, ".autodev/evidence/1.2-review.json")));
    const tasks = await ask(cwd, { type: "evidenceTasks" });
    assert.ok(tasks.ok);
    assert.deepEqual(
      tasks.tasks.map(([id]) => id),
      ["1.1", "1.2", "2.1", "plan"],
    );
  });

  it("refuses what leaves the workspace: a referenced path, a raw file, an evidence folder linked out", async () => {
    assert.equal(await ask(cwd, { type: "referencedFile", rel: "README.md" }), null);
    assert.match((await ask(cwd, { type: "referencedFile", rel: "../x" }))!, /leaves the workspace/);
    assert.match((await ask(cwd, { type: "referencedFile", rel: "/etc/passwd" }))!, /absolute or leaves/);
    const raw = await ask(cwd, { type: "evidenceRaw", file: "../plan.json" });
    assert.equal(raw.ok, false, "a raw file outside .autodev/evidence/");
    dir = fs.mkdtempSync(join(tmpdir(), "evidence-requests-"));
    const outside = join(dir, "outside");
    fs.cpSync(join(cwd, ".autodev/evidence"), outside, { recursive: true });
    fs.mkdirSync(join(dir, "ws/.autodev"), { recursive: true });
    fs.symlinkSync(outside, join(dir, "ws/.autodev/evidence"));
    const ws = join(dir, "ws");
    const linked = await ask(ws, { type: "evidenceRaw", file: "1.2-review.json" });
    assert.ok(!linked.ok && /outside the workspace/.test(linked.error), JSON.stringify(linked));
    const listed = await ask(ws, { type: "evidenceTasks" });
    assert.ok(!listed.ok && /outside the workspace/.test(listed.error));
    const bundle = await ask(ws, { type: "evidenceBundle", taskId: "1.2", kind: "review" });
    assert.equal(bundle.item, null, "the bundle in a linked-out folder is not read");
  });
});
