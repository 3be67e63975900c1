// The plan diff of the timeline's details pane (src/core/sources/autodev/timeline/timelinePlanDiff.ts): tasks added and
// removed, status / retries / escalation and other field changes, phases, caps.
import * as assert from "node:assert/strict";
import { PyObject, PyValue } from "../../../src/core/pyjson/pyValue";
import { Plan, validatePlan } from "../../../src/core/sources/autodev/plan/schemas";
import {
  DIFF_FIELDS,
  diffValueText,
  isEmptyDiff,
  planDiff,
} from "../../../src/core/sources/autodev/timeline/timelinePlanDiff";

function task(id: string, fields: Record<string, PyValue> = {}): PyObject {
  return new Map<string, PyValue>([
    ["id", id],
    ["phase_id", id.split(".")[0]],
    ["title", `Task ${id}`],
    ["description", ""],
    ...Object.entries(fields),
  ]);
}

function plan(phases: Record<string, PyObject[]>, planId = "p1"): Plan {
  const raw = new Map<string, PyValue>([
    ["plan_id", planId],
    ["spec_hash", "h"],
    ["created_at", "2026-01-01T00:00:00+00:00"],
    ["updated_at", "2026-01-01T00:00:00+00:00"],
    [
      "phases",
      Object.entries(phases).map(
        ([id, tasks]) =>
          new Map<string, PyValue>([
            ["id", id],
            ["title", `Phase ${id}`],
            ["tasks", tasks],
          ]),
      ),
    ],
  ]);
  const res = validatePlan(raw);
  if (!res.ok) throw new Error(res.error);
  return res.value;
}

describe("timeline plan diff", () => {
  it("reports status, retries, escalation and blocked reason changes per task", () => {
    const before = plan({ "1": [task("1.1"), task("1.2", { status: "in_progress" })] });
    const after = plan({
      "1": [
        task("1.1", { status: "coded", retry_count: 2, escalated: true }),
        task("1.2", { status: "blocked", blocked_reason: "waiting" }),
      ],
    });
    const d = planDiff(before, after, 7);
    assert.equal(d.baseSeq, 7);
    assert.deepEqual(d.added, []);
    assert.deepEqual(d.removed, []);
    assert.deepEqual(d.changed, [
      {
        taskId: "1.1",
        title: "Task 1.1",
        fields: [
          { field: "status", from: "pending", to: "coded" },
          { field: "retry_count", from: "0", to: "2" },
          { field: "escalated", from: "false", to: "true" },
        ],
      },
      {
        taskId: "1.2",
        title: "Task 1.2",
        fields: [
          { field: "status", from: "in_progress", to: "blocked" },
          { field: "blocked_reason", from: "—", to: "waiting" },
        ],
      },
    ]);
    assert.equal(isEmptyDiff(d), false);
  });

  it("reports tasks and phases added and removed, and a replaced plan", () => {
    const before = plan({ "1": [task("1.1"), task("1.2")] });
    const after = plan({ "1": [task("1.1")], "2": [task("2.1", { status: "pending" })] }, "p2");
    const d = planDiff(before, after, 3);
    assert.deepEqual(d.added, [{ taskId: "2.1", title: "Task 2.1", status: "pending" }]);
    assert.deepEqual(d.removed, [{ taskId: "1.2", title: "Task 1.2", status: "pending" }]);
    assert.deepEqual(d.phasesAdded, ["2: Phase 2"]);
    assert.deepEqual(d.phasesRemoved, []);
    assert.equal(d.planReplaced, true);
  });

  it("an identical plan (a snapshot) is an empty diff; no plan before means all added", () => {
    const p = plan({ "1": [task("1.1"), task("1.2")] });
    assert.ok(isEmptyDiff(planDiff(p, plan({ "1": [task("1.1"), task("1.2")] }), 1)));
    const first = planDiff(null, p, null);
    assert.deepEqual(
      first.added.map((t) => t.taskId),
      ["1.1", "1.2"],
    );
    assert.equal(first.planReplaced, false);
    assert.ok(isEmptyDiff(planDiff(null, null, null)));
  });

  it("compares acceptance as met counts and lists as text", () => {
    const crit = (met: boolean) =>
      new Map<string, PyValue>([
        ["id", "a"],
        ["description", "d"],
        ["met", met],
      ]);
    const d = planDiff(
      plan({ "1": [task("1.1", { acceptance: [crit(false)], depends_on: [] })] }),
      plan({ "1": [task("1.1", { acceptance: [crit(true)], depends_on: ["1.0"] })] }),
      1,
    );
    assert.deepEqual(d.changed[0].fields, [
      { field: "acceptance", from: "0/1 met", to: "1/1 met" },
      { field: "depends_on", from: "(none)", to: "1.0" },
    ]);
    assert.ok(DIFF_FIELDS.includes("retry_count"));
  });

  it("caps every list and counts the rest", () => {
    const many = Array.from({ length: 30 }, (_, i) => task(`1.${i}`));
    const d = planDiff(plan({ "1": [] }), plan({ "1": many }), 1, 10);
    assert.equal(d.added.length, 10);
    assert.equal(d.omitted, 20);
  });

  it("shows values as short text", () => {
    assert.equal(diffValueText(null), "—");
    assert.equal(diffValueText(12n ** 30n), (12n ** 30n).toString());
    assert.equal(diffValueText("x".repeat(400)).length, 301);
    assert.equal(diffValueText(["a", "b"]), "a, b");
  });
});
