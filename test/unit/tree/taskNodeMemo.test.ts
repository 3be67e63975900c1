/**
 * The plan tree built with a {@link TaskNodeMemo} (the worker's refresh reuses the nodes of tasks
 * that did not change) must be exactly the tree a fresh build makes, after every kind of change a
 * plan or what its nodes show can go through; and it must actually reuse the unchanged tasks.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { benchPlan } from "../../../bench/benchPlan";
import { PyFloat } from "../../../src/core/pyjson/pyValue";
import { SeededRandom } from "../../../src/core/seededRandom";
import type { Plan, Task } from "../../../src/core/sources/autodev/plan/schemas";
import { PlanTreeContext, TaskNodeMemo, planTree } from "../../../src/core/sources/autodev/tree/planTree";
import type { TaskChange } from "../../../src/core/sources/autodev/worker/autodevRequests";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { setL10nBundle } from "../../../src/core/text/coreL10n";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { PlanManager } from "../../../src/core/sources/autodev/ledger/planManager";
import { autodevWorker } from "../../../src/core/sources/autodev/worker/autodevWorker";
import type { RefreshResult } from "../../../src/core/sources/autodev/worker/autodevRequests";
import { copyFixture } from "../fixtures";
import { withTask, type MutableTask } from "../helpers/planEdits";

const change = (seq: number, toStatus: string): TaskChange => ({
  seq,
  line: seq,
  fromStatus: "pending",
  toStatus,
  retryCount: null,
  escalated: false,
  timestamp: "2026-12-03T06:00:00+00:00",
  sessionId: "sess",
});

const delegation = (taskId: string, note: string): SourceTreeNode => ({
  id: `autodev|task|${taskId}|inline`,
  label: "Delegations",
  description: note,
  icon: { id: "mail" },
});

describe("plan tree: the task-node memo", () => {
  const plan0 = benchPlan(new SeededRandom(7), { phases: 4, tasksPerPhase: 8, descriptionWords: 6 });
  const ids = plan0.phases.flatMap((p) => p.tasks.map((t) => t.id));
  const withDeps = plan0.phases.flatMap((p) => p.tasks).find((t) => t.depends_on.length > 0)!;
  const baseCtx: PlanTreeContext = {
    workspace: "/ws",
    retry: { retryLimit: 3, retryLimitIsDefault: false },
    lastChanges: new Map(),
  };
  let memo: TaskNodeMemo;
  /** Builds with the memo and afresh; asserts they are equal; returns the memo's reuse count. */
  const same = (plan: Plan, ctx: PlanTreeContext = baseCtx): number => {
    const memoized = planTree(plan, { ...ctx, memo });
    assert.deepStrictEqual(memoized, planTree(plan, ctx));
    return memo.reused;
  };

  beforeEach(() => {
    memo = new TaskNodeMemo();
    setL10nBundle(undefined);
    assert.equal(same(plan0), 0, "the first build has nothing to reuse");
  });
  after(() => setL10nBundle(undefined));

  it("reuses every node of an unchanged plan, read again into new objects", () => {
    assert.equal(same(structuredClone(plan0)), ids.length);
  });

  it("rebuilds the task whose status changed (and the tasks that depend on it), nothing else", () => {
    const dep = withDeps.depends_on[0];
    const dependents = ids.filter((id) =>
      plan0.phases.some((p) => p.tasks.some((t) => t.id === id && t.depends_on.includes(dep))),
    );
    const plan1 = withTask(plan0, dep, (t) => (t.status = "complete"));
    assert.equal(same(plan1), ids.length - 1 - dependents.length);
    // Back to what it was: the nodes of the build before are not resurrected by mistake.
    assert.equal(same(plan0), ids.length - 1 - dependents.length);
  });

  it("a change to any field of a task gives the fresh tree", () => {
    const id = withDeps.id;
    const edits: Array<[string, (t: MutableTask) => void]> = [
      ["title", (t) => (t.title = "a new title")],
      ["description", (t) => (t.description = "now *with* markdown")],
      ["status", (t) => (t.status = "blocked")],
      ["retry_count", (t) => (t.retry_count = 2)],
      ["retry_count beyond 2^53", (t) => (t.retry_count = 2n ** 60n)],
      ["escalated", (t) => (t.escalated = !t.escalated)],
      ["assigned_agent", (t) => (t.assigned_agent = "qa")],
      ["blocked_reason", (t) => (t.blocked_reason = "waiting on review")],
      ["blocked_reason empty", (t) => (t.blocked_reason = "")],
      ["acceptance met", (t) => (t.acceptance = t.acceptance.map((c, i) => ({ ...c, met: i === 0 ? !c.met : c.met })))],
      ["acceptance added", (t) => (t.acceptance = [...t.acceptance, { id: "x", description: "new", met: false }])],
      ["depends_on", (t) => (t.depends_on = [...t.depends_on, "no-such-task"])],
      ["files", (t) => (t.files = [...t.files, "../outside.py"])],
      ["evidence_bundle", (t) => (t.evidence_bundle = ".autodev/evidence/x.json")],
      ["metadata", (t) => (t.metadata = new Map([["score", new PyFloat(2)]]))],
      ["phase_id", (t) => (t.phase_id = "elsewhere")],
    ];
    for (const [what, edit] of edits) {
      const plan1 = withTask(plan0, id, edit);
      assert.doesNotThrow(() => same(plan1), what);
      same(plan0);
    }
  });

  it("follows a dependency's title and status, tasks added, removed, moved and duplicated", () => {
    const dep = withDeps.depends_on[0];
    same(withTask(plan0, dep, (t) => (t.title = "renamed dependency")));
    const removed = {
      ...plan0,
      phases: plan0.phases.map((p) => ({ ...p, tasks: p.tasks.filter((t) => t.id !== dep) })),
    };
    same(removed); // the dependent now shows "not in the plan"
    const extra = { ...structuredClone(plan0.phases[0].tasks[0]), id: "new-task", title: "Added" } as Task;
    const added = {
      ...plan0,
      phases: plan0.phases.map((p, i) => (i === 1 ? { ...p, tasks: [extra, ...p.tasks] } : p)),
    };
    same(added);
    const moved = { ...plan0, phases: [...plan0.phases].reverse() };
    same(moved);
    const dup = {
      ...plan0,
      phases: plan0.phases.map((p, i) => (i === 0 ? { ...p, tasks: [...p.tasks, p.tasks[0]] } : p)),
    };
    const tree = planTree(dup, { ...baseCtx, memo });
    assert.deepStrictEqual(tree, planTree(dup, baseCtx));
    const first = tree[0].children!;
    assert.notEqual(first[0], first[first.length - 1], "a duplicated task is not one node object twice");
  });

  it("follows the retry limit, the last changes, the extras, the folder and the language", () => {
    const id = ids[3];
    const retried = withTask(plan0, id, (t) => (t.retry_count = 1));
    same(retried);
    same(retried, { ...baseCtx, retry: { retryLimit: 5, retryLimitIsDefault: false } });
    same(retried, { ...baseCtx, retry: null });
    same(retried, { ...baseCtx, retry: { retryLimit: Number.NaN, retryLimitIsDefault: false } });
    same(plan0, { ...baseCtx, lastChanges: new Map([[id, change(10, "coded")]]) });
    assert.equal(same(plan0, { ...baseCtx, lastChanges: new Map([[id, change(12, "coded")]]) }), ids.length - 1);
    const extras = (note: string) => (t: string) => (t === id ? [delegation(t, note)] : []);
    same(plan0, { ...baseCtx, extras: extras("1") });
    assert.equal(same(plan0, { ...baseCtx, extras: extras("2 · 1 stale") }), ids.length - 1);
    same(plan0, { ...baseCtx, workspace: "/elsewhere" });
    assert.equal(same(plan0), 0, "back in the first folder: built afresh");
    assert.equal(same(plan0), ids.length);
    setL10nBundle({ "depends on {0}": "hängt ab von {0}", met: "erfüllt" });
    assert.equal(same(plan0), 0, "a new language rebuilds every node");
  });

  it("a reset to an earlier plan (time travel, a rewritten history) gives that plan's fresh tree", () => {
    let plan = plan0;
    const history: Plan[] = [plan];
    for (const [i, id] of ids.slice(0, 6).entries()) {
      plan = withTask(plan, id, (t) => ((t.status = i % 2 ? "coded" : "in_progress"), (t.title = `${t.title} ${i}`)));
      history.push(plan);
      same(plan);
    }
    for (const earlier of [history[2], history[0], history[5]]) same(earlier);
  });
});

describe("the worker's refresh: the memoized tree is the tree a fresh read shows", function () {
  this.timeout(60_000);
  let ws: string;
  let pm: PlanManager;
  const context = () => ({ requestId: 1, signal: new AbortController().signal, progress: () => undefined });
  /** The worker's refresh (its memo kept from the refresh before) against `autodevSource.tree` afresh. */
  const refreshEqualsFresh = async (what: string) => {
    const r = (await autodevWorker.handle(ws, { type: "refresh" }, context())) as RefreshResult;
    const fresh = await autodevSource.tree({
      kind: "autodev",
      workspace: ws,
      dir: path.join(ws, ".autodev"),
      relDir: ".autodev",
    });
    assert.deepStrictEqual(r.tree, fresh, what);
    return r;
  };
  const edit = async (id: string, change: (t: MutableTask) => void) => {
    const plan = (await pm.load())!;
    await pm.save(withTask(plan, id, change));
  };

  beforeEach(() => {
    ws = copyFixture("python-small");
    pm = new PlanManager(ws, { sessionId: "sess-memo-test" });
  });
  afterEach(() => {
    autodevWorker.dispose?.(ws);
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it("across status changes, retries, title edits, added and removed tasks, evidence and a reset", async () => {
    await refreshEqualsFresh("the first read");
    const ledger = path.join(ws, ".autodev", "plan-ledger.jsonl");
    const planJson = path.join(ws, ".autodev", "plan.json");
    const saved = [fs.readFileSync(ledger), fs.readFileSync(planJson)];
    await pm.updateTaskStatus("1.2", "in_progress");
    await refreshEqualsFresh("a status change and its snapshot");
    await pm.markTaskRetry("1.2");
    await refreshEqualsFresh("a retry");
    await edit("1.3", (t) => (t.title = "A new *title*"));
    await refreshEqualsFresh("a title edit");
    const plan = (await pm.load())!;
    const extra = { ...structuredClone(plan.phases[1].tasks[0]), id: "2.9", title: "Added", depends_on: ["1.2"] };
    await pm.save({ ...plan, phases: plan.phases.map((p, i) => (i === 1 ? { ...p, tasks: [...p.tasks, extra] } : p)) });
    await refreshEqualsFresh("a task added");
    const less = (await pm.load())!;
    await pm.save({
      ...less,
      phases: less.phases.map((p) => ({ ...p, tasks: p.tasks.filter((t) => t.id !== "1.2") })),
    });
    await refreshEqualsFresh("a task removed (its dependent shows it missing)");
    fs.rmSync(path.join(ws, ".autodev", "evidence"), { recursive: true, force: true });
    await refreshEqualsFresh("the evidence removed");
    await edit("1.1", (t) => (t.evidence_bundle = ".autodev/evidence/none.json"));
    await refreshEqualsFresh("an evidence bundle changed");
    // A rewritten history: the ledger and plan.json as they were before all of it.
    fs.writeFileSync(ledger, saved[0]);
    fs.writeFileSync(planJson, saved[1]);
    const r = await refreshEqualsFresh("the ledger reset to its first state");
    assert.equal(r.plan?.phases[0].tasks[1].status, JSON.parse(saved[1].toString()).phases[0].tasks[1].status);
  });
});
