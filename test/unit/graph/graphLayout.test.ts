// Layout of plan graphs with dagre (issue 23): every task placed inside the box without overlaps,
// cycles and self-dependencies laid out too, hostile ids kept away from graphlib's keys, and the
// cache keyed by structure only (a status change keeps the positions).
import { strict as assert } from "node:assert";
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from "../../../src/core/graph/graphLayout";
import { cachedLayout, graphViewsOf, structureKey } from "../../../src/core/graph/graphViews";
import { buildPlanGraph, GraphNode } from "../../../src/core/graph/planGraph";
import { statusLook } from "../../../src/core/graph/statusLook";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

function node(id: string, phase: string | null = null, status = "pending"): GraphNode {
  return {
    id,
    label: id,
    status,
    phase,
    done: status === "complete",
    blocked: status === "blocked",
    retries: 0,
    escalated: false,
    blockedReason: null,
    treeNodeId: null,
  };
}

describe("plan graph layout", function () {
  this.timeout(60_000);

  it("places every task inside the box, none overlapping, with a cycle, a self-loop and hostile ids", () => {
    const ids = ["__proto__", "constructor", "a", "b", "c", "hasOwnProperty"];
    const g = buildPlanGraph({
      kind: "t",
      path: ".t",
      nodes: ids.map((id, i) => node(id, i < 3 ? "p1" : "p2")),
      edges: [
        { from: "a", to: "b" },
        { from: "b", to: "a" },
        { from: "c", to: "c" },
        { from: "__proto__", to: "constructor" },
        { from: "constructor", to: "hasOwnProperty" },
      ],
      groups: [
        { id: "p1", label: "One" },
        { id: "p2", label: "Two" },
      ],
    });
    const l = layoutGraph(g);
    assert.deepEqual(
      l.nodes.map((n) => n.id),
      ids,
    );
    for (const n of l.nodes) {
      assert.ok(n.x - NODE_WIDTH / 2 >= 0 && n.x + NODE_WIDTH / 2 <= l.width, `${n.id} x ${n.x} in ${l.width}`);
      assert.ok(n.y - NODE_HEIGHT / 2 >= 0 && n.y + NODE_HEIGHT / 2 <= l.height, `${n.id} y ${n.y} in ${l.height}`);
    }
    for (let i = 0; i < l.nodes.length; i++) {
      for (let j = i + 1; j < l.nodes.length; j++) {
        const [p, q] = [l.nodes[i], l.nodes[j]];
        assert.ok(Math.abs(p.x - q.x) >= NODE_WIDTH || Math.abs(p.y - q.y) >= NODE_HEIGHT, `${p.id} overlaps ${q.id}`);
      }
    }
    assert.equal(l.edges.length, 5);
    assert.ok(l.edges.every((e) => e.points.length >= 2));
    assert.equal(l.groups.length, 2);
  });

  it("the structure key ignores statuses, so a status change reuses the layout", () => {
    const make = (status: string) =>
      buildPlanGraph({
        kind: "t",
        path: ".t",
        nodes: [node("a"), node("b", null, status)],
        edges: [{ from: "a", to: "b" }],
      });
    assert.equal(structureKey(make("pending")), structureKey(make("complete")));
    assert.notEqual(
      structureKey(make("pending")),
      structureKey(buildPlanGraph({ kind: "t", path: ".t", nodes: [node("a"), node("b")], edges: [] })),
    );
    const first = cachedLayout(make("pending"));
    assert.equal(cachedLayout(make("blocked")).layout, first.layout, "the same layout object comes from the cache");
  });

  it("graphViewsOf reads every source with a plan; looks follow the tree's icon language", async () => {
    const { views, errors } = await graphViewsOf(path.join(REPO_ROOT, "test/fixtures/python-small"));
    assert.deepEqual(errors, []);
    assert.deepEqual(
      views.map((v) => v.kind),
      ["autodev"],
    );
    assert.deepEqual(views[0].looks.blocked, {
      icon: "stop-circle",
      color: "autodevStatus.blocked",
      label: "blocked",
    });
    assert.deepEqual(statusLook({ status: "done", done: true, blocked: false }).icon, "pass-filled");
    assert.deepEqual(statusLook({ status: "failed", done: false, blocked: true }).icon, "stop-circle");
    assert.equal(statusLook({ status: "weird", done: false, blocked: false }).icon, "question");
  });
});
