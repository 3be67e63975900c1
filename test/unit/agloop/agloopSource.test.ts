/**
 * The agloop source's views of a clean hook-script run: detection, the CLI summary (exact keys),
 * the tree (statuses, reveals, checkpoints newest first with diffs), the timeline from log.json,
 * and escaping of untrusted text in tooltips.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { taskNodes } from "../../../src/core/sources/agloop/tree/agloopTaskNodes";
import { sourceOfKind } from "../../../src/core/sources/sourceRegistry";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { AGLOOP_SUMMARY_KEYS, copiedLocation, fixtureLocation } from "../helpers/agloopFixtures";

/** Every node of a tree, depth first. */
function allNodes(nodes: readonly SourceTreeNode[]): SourceTreeNode[] {
  return nodes.flatMap((n) => [n, ...allNodes(n.children ?? [])]);
}

describe("agloop source", function () {
  this.timeout(30_000);
  const clean = fixtureLocation("agloop-clean");
  const state = JSON.parse(fs.readFileSync(path.join(clean.dir, "state.json"), "utf8"));
  const logLines = fs
    .readFileSync(path.join(clean.dir, "log.json"), "utf8")
    .split("\n")
    .filter((l) => l.trim());

  it("is registered and detects .agloop/ by state.json, plan.yaml or log.json", async () => {
    assert.equal(sourceOfKind("agloop"), agloopSource);
    const found = await agloopSource.detect(clean.workspace);
    assert.deepEqual(found, { kind: "agloop", workspace: clean.workspace, dir: clean.dir, relDir: ".agloop" });
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "agloop-empty-"));
    assert.equal(await agloopSource.detect(empty), null);
    fs.mkdirSync(path.join(empty, ".agloop"));
    assert.equal(await agloopSource.detect(empty), null, "an empty .agloop/ is no state");
    fs.writeFileSync(path.join(empty, ".agloop", "log.json"), "");
    assert.notEqual(await agloopSource.detect(empty), null);
  });

  it("summarize gives exactly the CLI's keys, checkpoints newest first", async () => {
    const s = await agloopSource.summarize(clean);
    assert.deepEqual(Object.keys(s), AGLOOP_SUMMARY_KEYS);
    assert.equal(s.kind, "agloop");
    assert.equal(s.path, ".agloop");
    assert.equal(s.feature, state.feature_name);
    assert.equal(s.phase, "execute");
    assert.equal(s.iteration, 1);
    assert.equal(s.current_task_id, "task-002");
    assert.deepEqual(
      s.tasks,
      state.tasks.map((t: Record<string, unknown>) => ({
        id: t.id,
        title: t.title,
        status: t.status,
        depends_on: t.depends_on,
      })),
    );
    assert.equal(s.log_entries, logLines.length);
    const names = fs.readdirSync(path.join(clean.dir, "checkpoints"));
    const cps = s.checkpoints as string[];
    assert.deepEqual([...cps].sort(), [...names].sort());
    assert.match(cps[0], /^reset-\d{4}-\d{2}-\d{2}T/, "the legacy reset checkpoint was written last");
    assert.match(cps[1], /^pre-compact-\d{8}-\d{6}\.json$/);
  });

  it("tree: phase and iteration, the current task, the four statuses, reveals and results", async () => {
    const tree = await agloopSource.tree(clean);
    const nodes = allNodes(tree);
    const ids = new Set(nodes.map((n) => n.id));
    assert.equal(ids.size, nodes.length, "node ids are unique");
    assert.ok(nodes.some((n) => n.label === "execute · iteration 1/3"));
    const current = nodes.find((n) => n.id === "agloop/current-task");
    assert.deepEqual(current?.target, { kind: "reveal", nodeId: "agloop/task/task-002" });
    const tasks = tree.find((n) => n.id === "agloop/tasks");
    assert.deepEqual(
      tasks?.children?.map((t) => [t.id, t.icon?.id]),
      [
        ["agloop/task/task-001", "pass-filled"],
        ["agloop/task/task-002", "play-circle"],
        ["agloop/task/task-003", "circle-large-outline"],
      ],
    );
    // As AutoDev's rows, for a 300 px sidebar: the id, then status, marks and title.
    const t2 = tasks?.children?.[1];
    assert.equal(t2?.label, "task-002");
    assert.match(t2?.description ?? "", /^in progress · current · \S/);
    const retried = taskNodes(
      [{ id: "task-007", status: "failed", title: "Retry me" }],
      "task-007",
      new Map(),
      () => null,
      {
        "task-007": 2,
      },
    );
    assert.deepEqual([retried[0].label, retried[0].description], ["task-007", "failed · retry 2 · current · Retry me"]);
    for (const n of nodes) {
      if (n.target?.kind === "reveal") assert.ok(ids.has(n.target.nodeId), `reveal target ${n.target.nodeId} exists`);
    }
    const t3deps = nodes.find((n) => n.id === "agloop/task/task-003/deps");
    assert.deepEqual(
      t3deps?.children?.map((c) => c.target),
      [
        { kind: "reveal", nodeId: "agloop/task/task-001" },
        { kind: "reveal", nodeId: "agloop/task/task-002" },
      ],
    );
    assert.equal(nodes.find((n) => n.id === "agloop/task/task-001/verification")?.label, "Verification: PASS");
    assert.equal(nodes.find((n) => n.id === "agloop/task/task-001/result/confirmation")?.description, "2/2 met");
    assert.equal(nodes.find((n) => n.id === "agloop/task/task-003/effort")?.label, "Effort: large");
    assert.equal(nodes.find((n) => n.id === "agloop/objections")?.description, "1 open of 2");
    assert.equal(nodes.find((n) => n.id === "agloop/compaction")?.description, "compacted 1×");
    assert.equal(nodes.find((n) => n.id === "agloop/phases")?.children?.at(-1)?.description, "ongoing");
    assert.equal(ids.has("agloop/stop-hook-active"), false, "the second stop reset stop_hook_active");
  });

  it("tree: checkpoints newest first, each a diff of its state (no _checkpoint) against state.json", async () => {
    const tree = await agloopSource.tree(clean);
    const cps = tree.find((n) => n.id === "agloop/checkpoints")?.children ?? [];
    const summary = await agloopSource.summarize(clean);
    assert.deepEqual(
      cps.map((c) => c.label),
      summary.checkpoints,
    );
    const pre = cps.find((c) => c.label.startsWith("pre-compact-"));
    assert.equal(pre?.description, "pre-compact · pre-compact event");
    assert.ok(pre?.target?.kind === "diff");
    if (pre?.target?.kind !== "diff") return;
    assert.deepEqual(pre.target.right, { kind: "file", file: ".agloop/state.json" });
    assert.equal(pre.target.left.kind, "text");
    if (pre.target.left.kind !== "text") return;
    const left = JSON.parse(pre.target.left.text);
    assert.equal("_checkpoint" in left, false);
    assert.equal(left.compaction_context.compaction_count, 1);
    const legacy = cps[0];
    assert.match(legacy.description ?? "", /older format/);
  });

  it("tree: stop_hook_active left true is a warning node", async () => {
    const tree = await agloopSource.tree(fixtureLocation("agloop-broken"));
    const warn = tree.find((n) => n.id === "agloop/stop-hook-active");
    assert.equal(warn?.icon?.id, "warning");
    assert.equal(tree[0].id, "agloop/stop-hook-active", "shown first");
  });

  it("timeline: one row per log line, with agent, action, phase, task and status", async () => {
    const rows = await agloopSource.timeline?.(clean);
    assert.equal(rows?.length, logLines.length);
    const first = JSON.parse(logLines[2]);
    const { fields, ...row } = rows![2];
    assert.deepEqual(row, {
      index: 3,
      time: first.timestamp,
      actor: first.agent,
      action: first.action,
      taskId: first.task_id,
      status: first.status,
      summary: `${first.phase} · ${first.output_summary || first.input_summary}`,
      file: ".agloop/log.json",
      line: 3,
    });
    // The details pane's fields: every field of the entry, in the protocol's order, the metadata as JSON.
    const expected = [
      ["time", first.timestamp],
      ["agent", first.agent],
      ["action", first.action],
      ["phase", first.phase],
      ["task", first.task_id],
      ["status", first.status],
      ["input", first.input_summary],
      ["output", first.output_summary],
      ["metadata", first.metadata ? JSON.stringify(first.metadata, null, 2) : null],
    ].filter((f) => f[1]);
    assert.deepEqual(
      fields?.map((f) => [f.name, f.value]),
      expected,
    );
  });

  it("untrusted text: Markdown, HTML and terminal escapes are neutralised in labels and tooltips", async () => {
    const loc = copiedLocation("agloop-clean");
    const p = path.join(loc.dir, "state.json");
    const s = JSON.parse(fs.readFileSync(p, "utf8"));
    s.tasks[0].title = "[click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> \u001b[31mred";
    fs.writeFileSync(p, JSON.stringify(s, null, 2));
    const node = allNodes(await agloopSource.tree(loc)).find((n) => n.id === "agloop/task/task-001");
    assert.ok(node?.tooltip?.includes("\\[click\\](command:workbench"), node?.tooltip);
    assert.doesNotMatch(node?.tooltip ?? "", /(^|[^\\])<img/, "the tag is escaped");
    assert.ok(!node?.label.includes("\u001b"));
  });
});
