/**
 * What hovers and pickers still showed as identifiers or without context (issue 22 item 9): a
 * task's retries beside AutoDev's limit on the row and in the hover (AutoDev's default when there
 * is no config.json, said so), statuses in words in the task picker and agloop's task hover, and
 * agloop's times (phase history, checkpoints) and AutoDev's lesson times (learned, rejected)
 * handed to the host as times, which shows them
 * relative and absolute, never as the raw ISO text with microseconds.
 */
import { fakeVscode } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as vscode from "vscode";
import { autodevRunView } from "../../../src/core/sources/autodev/run/runView";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { autodevNodeItem } from "../../../src/extension/sources/autodev/autodevTreeItems";
import type { AutodevNode } from "../../../src/extension/sources/autodev/autodevNodes";
import { planTree } from "../../../src/core/sources/autodev/tree/planTree";
import type { Plan } from "../../../src/core/sources/autodev/plan/schemas";
import { taskPickItem } from "../../../src/extension/sources/autodev/ledger/taskCommands";
import { nodeTooltip } from "../../../src/extension/sources/sourceTreeItems";
import { copyFixture } from "../fixtures";
import { copyFullFixture } from "../helpers/autodevOracle";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { readRunState, runPlanOf } from "../../../src/core/sources/autodev/run/runState";
import { runBottomNodes } from "../../../src/core/sources/autodev/tree/runTree";
import { fixtureLocation } from "../helpers/agloopFixtures";

function allNodes(nodes: readonly SourceTreeNode[]): SourceTreeNode[] {
  return nodes.flatMap((n) => [n, ...allNodes(n.children ?? [])]);
}

/** Markdown as a reader sees it: backslash escapes removed. */
const shown = (md: string) => md.replace(/\\(.)/g, "$1");

/** The item of a task with two retries in a folder whose run view says `run`. */
function retriedTaskItem(run: { retryLimit: number | null; retryLimitIsDefault: boolean } | null): vscode.TreeItem {
  const task = {
    id: "1.2",
    title: "Parser",
    status: "coded",
    retry_count: 2,
    escalated: false,
    description: "",
    acceptance: [],
    depends_on: [],
    files: [],
    blocked_reason: null,
    assigned_agent: null,
  };
  const plan = { phases: [{ id: "1", title: "P", tasks: [task] }], metadata: new Map() } as unknown as Plan;
  const node = planTree(plan, { workspace: "/ws", retry: run, lastChanges: new Map() })[0].children![0];
  const folder = { cwd: "/ws", folder: { name: "ws", uri: fakeVscode.Uri.file("/ws") } };
  return autodevNodeItem({ kind: "task", id: "t", folder, parent: {}, node, task } as unknown as AutodevNode, null);
}

describe("hover and picker limits and words", function () {
  this.timeout(30_000);

  it("AutoDev's retry limit: config.json's value, AutoDev's default (said so) when there is no config.json", async () => {
    const ws = copyFixture("python-small");
    const config = path.join(ws, ".autodev", "config.json");
    assert.equal(fs.existsSync(config), false);
    const none = await autodevRunView(ws, null);
    assert.deepEqual([none.retryLimit, none.retryLimitIsDefault], [3, true]);
    const full = fs.readFileSync(
      path.join(__dirname, "../../../../test/fixtures/python-full/workspace/.autodev/config.json"),
    );
    fs.writeFileSync(config, String(full).replace(/"qa_retry_limit": \d+/, '"qa_retry_limit": 5'));
    const own = await autodevRunView(ws, null);
    assert.deepEqual([own.retryLimit, own.retryLimitIsDefault], [5, false]);
  });

  it("a task's row and hover put the limit beside the count", () => {
    const item = retriedTaskItem({ retryLimit: 5, retryLimitIsDefault: false });
    assert.match(String(item.description), /^coded · retry 2\/5 · Parser$/);
    assert.match(item.accessibilityInformation?.label ?? "", /retry 2 of 5/);
    assert.match(shown((item.tooltip as vscode.MarkdownString).value), /^retries: 2 of 5 {2}$/m);
    const byDefault = shown(
      (retriedTaskItem({ retryLimit: 3, retryLimitIsDefault: true }).tooltip as vscode.MarkdownString).value,
    );
    assert.match(byDefault, /^retries: 2 of 3 \(AutoDev's default: there is no config\.json\) {2}$/m);
    const unusable = shown(
      (retriedTaskItem({ retryLimit: null, retryLimitIsDefault: false }).tooltip as vscode.MarkdownString).value,
    );
    assert.match(unusable, /^retries: 2 \(config\.json's qa_retry_limit is not usable\)/m);
    assert.match(
      String(retriedTaskItem(null).description),
      /· retry 2 ·/,
      "before the run view is read: the count alone",
    );
  });

  it("the task picker names statuses in words", () => {
    assert.deepEqual(taskPickItem({ id: "1.2", title: "Parser", status: "in_progress" }), {
      label: "1.2 Parser",
      description: "in progress",
    });
  });

  it("agloop's hovers: times as times (shown relative and absolute), statuses in words", async () => {
    const loc = fixtureLocation("agloop-clean");
    const nodes = allNodes(await agloopSource.tree(loc));
    const iso = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
    for (const n of nodes) assert.doesNotMatch(shown(n.tooltip ?? ""), iso, `${n.id}: no raw ISO time in the tooltip`);
    const phases = nodes.filter((n) => n.id.startsWith("agloop/phases/"));
    assert.ok(phases.length > 0 && phases.every((n) => n.tooltipTimes?.[0]?.label === "entered"), "phase times");
    const checkpoints = nodes.filter((n) => n.contextValue === "agloop.checkpoint");
    assert.ok(checkpoints.length > 0 && checkpoints.every((n) => n.tooltipTimes?.[0]?.label === "created"));
    const task = nodes.find((n) => n.id === "agloop/task/task-002")!;
    assert.match(shown(task.tooltip ?? ""), /Status: in progress/);
    const cp = checkpoints[0];
    const created = Date.parse(cp.tooltipTimes![0].time);
    const md = shown(nodeTooltip(cp, created + 3 * 3600_000).value);
    assert.match(md, /\n\ncreated: 3 hours ago \(.*\d{4}.*\)$/, md);
    assert.doesNotMatch(md, iso);
  });

  it("AutoDev's knowledge hovers: when a lesson was learned or rejected, as times", async () => {
    const { ws, home } = copyFullFixture();
    const { plan } = await loadPlan(ws);
    const nodes = allNodes(runBottomNodes(await readRunState(ws, runPlanOf(plan), { probe: false, home })));
    const lessons = nodes.filter((n) => n.id.startsWith("autodev|knowledge|") && n.children === undefined);
    const rejected = lessons.filter((n) => n.id.startsWith("autodev|knowledge|rejected|"));
    assert.ok(rejected.length > 0 && lessons.length > rejected.length, lessons.map((n) => n.id).join(" "));
    for (const n of lessons) {
      assert.doesNotMatch(shown(n.tooltip ?? ""), /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/, n.id);
      const label = rejected.includes(n) ? "rejected" : "learned";
      assert.equal(n.tooltipTimes?.[0]?.label, label, n.id);
      assert.match(shown(nodeTooltip(n).value), new RegExp(`\\n\\n${label}: .* \\(.*\\d{4}.*\\)$`), n.id);
    }
  });
});
