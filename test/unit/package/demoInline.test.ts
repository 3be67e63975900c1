/**
 * The demo's inline-mode and knowledge files are derived from what the real AutoDev 0.1.1 wrote in
 * the recorded run (test/fixtures/autodev-real-run): the renderers, given the recorded step's own
 * inputs (its task in plan.json, its patch, its lessons, its times), give back the recorded
 * delegation, inline-state.json and knowledge.jsonl byte for byte; the demo's files are the same
 * renderers with the demo's task, and read back as AutoDev's models.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  DEMO_INLINE_FIXTURES,
  delegationTemplate,
  renderReviewDelegation,
  renderSuspendState,
} from "../../../src/sample/demoInline";
import { DemoLesson, injectLessons, jsonlText } from "../../../src/sample/demoKnowledge";
import { createDemoWorkspace, demoAssetsDir } from "../../../src/sample/demoWorkspace";
import { DEMO_REVIEW_WAIT } from "../../../src/sample/demoScript";
import { readDelegation } from "../../../src/core/sources/autodev/inline/delegationFile";
import { readInlineState } from "../../../src/core/sources/autodev/inline/inlineState";
import { readKnowledge } from "../../../src/core/sources/autodev/knowledge/knowledgeReader";
import { readConfig } from "../../../src/core/sources/autodev/config/configReader";
import { REPO_ROOT } from "../fixtures";

const RUN = path.join(REPO_ROOT, "test/fixtures/autodev-real-run");
const STEP = path.join(RUN, "12-1.2-reviewer-waiting/workspace/.autodev");
const read = (file: string) => fs.readFileSync(file, "utf8");

interface RecordedTask {
  id: string;
  title: string;
  description: string;
  files: string[];
}

describe("demo inline state and knowledge, derived from the recorded AutoDev run", function () {
  this.timeout(60_000);

  it("renders the recorded reviewer delegation back from its own task, patch, lessons and time", () => {
    const real = read(path.join(STEP, "delegations/1.2-reviewer.md"));
    const plan = JSON.parse(read(path.join(STEP, "plan.json"))) as { phases: Array<{ tasks: RecordedTask[] }> };
    const task = plan.phases.flatMap((p) => p.tasks).find((t) => t.id === "1.2")!;
    const lessons = read(path.join(STEP, "knowledge.jsonl"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as DemoLesson);
    const config = JSON.parse(read(path.join(STEP, "config.json"))) as {
      knowledge: { max_inject_count: number; denylist_roles: string[] };
    };
    const created = Date.parse("2026-12-01T10:39:13Z");
    const rendered = renderReviewDelegation(delegationTemplate(real), {
      taskId: task.id,
      title: task.title,
      description: task.description,
      files: task.files,
      diff: read(path.join(STEP, "evidence/1.2.patch")),
      lessons: injectLessons(lessons, "reviewer", config.knowledge, created),
      createdAtMs: created,
    });
    assert.equal(rendered, real);
    assert.deepEqual(injectLessons([], "explorer", config.knowledge, created), [], "a denylisted role gets none");
  });

  it("renders the recorded inline-state.json back from its values (model_dump_json(indent=2), no final newline)", () => {
    const real = read(path.join(STEP, "inline-state.json"));
    const rendered = renderSuspendState(real, {
      sessionId: "sess-ef045461d137",
      taskId: "1.2",
      role: "reviewer",
      suspendedAtMs: Date.parse("2026-12-01T10:39:13.224Z") + 0.314,
    });
    assert.equal(rendered, real);
  });

  it("writes knowledge.jsonl lines as _write_jsonl does (the finished run's file round-trips byte for byte)", () => {
    const real = read(path.join(RUN, "22-run-complete/workspace/.autodev/knowledge.jsonl"));
    assert.equal(
      jsonlText(
        real
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as object),
      ),
      real,
    );
    assert.throws(() => jsonlText([{ confidence: 1 }]), /Python writes a float/);
  });

  it("ships the recorded files the demo derives from in dist/demo/autodev-real-run/", () => {
    for (const [name, fixture] of Object.entries(DEMO_INLINE_FIXTURES)) {
      const shipped = path.join(demoAssetsDir(path.join(REPO_ROOT, "dist")), "autodev-real-run", name);
      assert.ok(fs.readFileSync(shipped).equals(fs.readFileSync(path.join(REPO_ROOT, fixture))), name);
    }
  });

  describe("the generated demo", () => {
    let ws: string;
    before(async () => {
      ws = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-demo-inline-"));
      await createDemoWorkspace(ws);
    });
    after(() => fs.rmSync(ws, { recursive: true, force: true }));

    it("waits on the reviewer of its first task in flight, with the delegation AutoDev would have written", async () => {
      const inline = await readInlineState(ws);
      assert.deepEqual(inline.errors, []);
      const w = inline.waiting!;
      assert.deepEqual(
        [w.taskId, w.role, w.step, w.delegationExists, w.response.state],
        [DEMO_REVIEW_WAIT.task, "reviewer", "reviewer", true, "missing"],
      );
      const d = await readDelegation(ws, w.delegationPath);
      assert.ok(d.ok);
      assert.deepEqual(
        [d.delegation.taskId, d.delegation.role, d.delegation.responsePath],
        [w.taskId, "reviewer", w.responsePath],
      );
      assert.match(
        d.delegation.envelope ?? "",
        /^TASK: 1\.3\nAGENT: reviewer\nACTION: review\nFILES:\n {2}- src\/units\/aliases\.py/,
      );
      assert.equal(d.delegation.lessons.length, 4, "every swarm lesson (max_inject_count 5) was injected");
      assert.ok(
        fs.statSync(path.join(ws, ".autodev/responses")).isDirectory(),
        "AutoDev makes responses/ for the answer",
      );
    });

    it("has swarm lessons and a rejected lesson that read as AutoDev's KnowledgeEntry and RejectedLesson", async () => {
      const k = await readKnowledge(ws, await readConfig(ws), { home: ws });
      assert.deepEqual([k.skipped, k.errors], [[], []]);
      assert.equal(k.swarm.length, 4);
      assert.deepEqual(
        k.rejected.map((r) => r.text),
        ["Round every result to two decimals."],
      );
      const d = await readDelegation(ws, ".autodev/delegations/1.3-reviewer.md");
      assert.ok(d.ok);
      // inject_block raised applied_count of the lessons it put into the delegation.
      assert.deepEqual(
        d.delegation.lessons.map((l) => k.swarm.find((e) => e.text === l.text)?.applied_count),
        [7, 5, 4, 1],
      );
    });
  });
});
