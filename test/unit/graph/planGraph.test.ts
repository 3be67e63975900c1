// The plan-graph engine (issue 23): Tarjan components, cycles, the critical path of what is not done,
// blocked chains, hostile sizes, and DOT / Mermaid output that no title can inject syntax into.
import { strict as assert } from "node:assert";
import { analyzeGraph, longestPath } from "../../../src/core/graph/graphAnalysis";
import { cycleThrough, stronglyConnected } from "../../../src/core/graph/graphCycles";
import { graphToDot, graphToMermaid, mermaidLabel } from "../../../src/core/graph/graphText";
import { buildPlanGraph, GraphNode, MAX_GRAPH_NODES } from "../../../src/core/graph/planGraph";
import { findCycles } from "../../../src/core/sources/agloop/checks/dependencyGraph";
import { agloopGraphOf } from "../../../src/core/sources/agloop/agloopGraph";

function node(id: string, status = "pending", extra: Partial<GraphNode> = {}): GraphNode {
  const done = status === "complete" || status === "skipped" || status === "done";
  return {
    id,
    label: `Task ${id}`,
    status,
    phase: null,
    done,
    blocked: status === "blocked",
    retries: 0,
    escalated: false,
    blockedReason: null,
    treeNodeId: null,
    ...extra,
  };
}

function graph(nodes: GraphNode[], edges: [string, string][]) {
  return buildPlanGraph({ kind: "test", path: ".test", nodes, edges: edges.map(([from, to]) => ({ from, to })) });
}

describe("plan graph: components and cycles", () => {
  it("names each cycle in edge order and every task on one", () => {
    const g = graph(
      ["a", "b", "c", "d", "e", "f"].map((id) => node(id)),
      [
        ["a", "b"],
        ["b", "c"],
        ["c", "a"],
        ["c", "d"],
        ["e", "e"],
      ],
    );
    const a = analyzeGraph(g);
    assert.deepEqual(a.cycles, [["a", "b", "c"], ["e"]]);
    assert.deepEqual(a.inCycle, ["a", "b", "c", "e"]);
  });

  it("lists components sinks first and finds a shortest cycle through the first vertex", () => {
    const out = [[1], [2, 3], [0], [4], []];
    const comps = stronglyConnected(out);
    assert.deepEqual(comps, [[4], [3], [0, 1, 2]]);
    assert.deepEqual(cycleThrough([0, 1, 2], out), [0, 1, 2]);
  });

  it("a 200 000-task chain and a 200 000-task ring need no recursion @slow", () => {
    const n = 200_000;
    const chain = Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : []));
    assert.equal(stronglyConnected(chain).length, n);
    assert.equal(longestPath(chain, () => true).length, n);
    const ring = Array.from({ length: n }, (_, i) => [(i + 1) % n]);
    const comps = stronglyConnected(ring);
    assert.equal(comps.length, 1);
    assert.equal(cycleThrough(comps[0], ring).length, n);
  });

  it("agloop's findCycles reports one cycle per tangle with the edge that closes it", () => {
    const e = (from: string, to: string, i: number) => ({ from, to, path: ["tasks", i, "depends_on", 0] });
    const cycles = findCycles([e("x", "y", 0), e("y", "x", 1), e("y", "z", 2), e("z", "x", 3)]);
    assert.equal(cycles.length, 1);
    const ids = cycles[0].ids;
    assert.equal(ids[0], ids[ids.length - 1], "the first id is repeated at the end");
    assert.deepEqual([cycles[0].closing.from, cycles[0].closing.to], [ids[ids.length - 2], ids[0]]);
  });
});

describe("plan graph: critical path and blocked chains", () => {
  it("the critical path is the longest chain of unfinished tasks; finished ones do not count", () => {
    const g = graph(
      [node("1", "complete"), node("2"), node("3"), node("4"), node("5"), node("6", "skipped")],
      [
        ["1", "2"],
        ["2", "3"],
        ["3", "4"],
        ["1", "5"],
        ["5", "4"],
        ["6", "5"],
      ],
    );
    assert.deepEqual(analyzeGraph(g).criticalPath, ["2", "3", "4"]);
  });

  it("a cycle is condensed: the path goes through all of its tasks once", () => {
    const g = graph(
      ["s", "a", "b", "t"].map((id) => node(id)),
      [
        ["s", "a"],
        ["a", "b"],
        ["b", "a"],
        ["b", "t"],
      ],
    );
    assert.deepEqual(analyzeGraph(g).criticalPath, ["s", "a", "b", "t"]);
  });

  it("everything done: no critical path", () => {
    assert.deepEqual(analyzeGraph(graph([node("a", "complete")], [])).criticalPath, []);
  });

  it("blocked chains: each waiting task under the first blocked task it waits on", () => {
    const g = graph(
      [node("b1", "blocked"), node("b2", "blocked"), node("x"), node("y"), node("z", "complete"), node("w")],
      [
        ["b1", "x"],
        ["x", "y"],
        ["b2", "y"],
        ["b2", "w"],
        ["x", "z"],
      ],
    );
    assert.deepEqual(analyzeGraph(g).blockedChains, [
      { root: "b1", waiting: ["x", "y"] },
      { root: "b2", waiting: ["w"] },
    ]);
  });

  it("500 tasks in layers: the path is one task per layer, and the analysis is deterministic", () => {
    const nodes = Array.from({ length: 500 }, (_, i) => node(`t${i}`, i % 7 === 0 ? "complete" : "pending"));
    const edges: [string, string][] = [];
    for (let i = 10; i < 500; i++) edges.push([`t${i - 10}`, `t${i}`], [`t${i - 10 + ((i * 3) % 10)}`, `t${i}`]);
    const g = graph(nodes, edges);
    const a = analyzeGraph(g);
    assert.equal(a.cycles.length, 0);
    assert.ok(a.criticalPath.length >= 40, `path of ${a.criticalPath.length}`);
    for (let i = 1; i < a.criticalPath.length; i++) {
      assert.ok(
        g.edges.some((e) => e.from === a.criticalPath[i - 1] && e.to === a.criticalPath[i]),
        "consecutive path tasks are joined by an edge",
      );
    }
    assert.ok(a.criticalPath.every((id) => !g.nodes.find((n) => n.id === id)!.done));
    assert.deepEqual(analyzeGraph(g), a);
  });
});

describe("plan graph: normalisation of hostile input", () => {
  it("repeated ids and edges are dropped, unknown ends set aside, sizes capped", () => {
    const g = graph(
      [node("a"), node("a", "complete"), node("b")],
      [
        ["a", "b"],
        ["a", "b"],
        ["a", "ghost"],
      ],
    );
    assert.deepEqual(
      g.nodes.map((n) => [n.id, n.status]),
      [
        ["a", "pending"],
        ["b", "pending"],
      ],
    );
    assert.deepEqual(g.edges, [{ from: "a", to: "b" }]);
    assert.deepEqual(g.dangling, [{ from: "a", to: "ghost" }]);
    const big = buildPlanGraph({
      kind: "test",
      path: ".t",
      nodes: Array.from({ length: MAX_GRAPH_NODES + 5 }, (_, i) => node(`n${i}`)),
      edges: [],
    });
    assert.equal(big.nodes.length, MAX_GRAPH_NODES);
    assert.match(big.notes.join(" "), /only the first 10000 tasks/);
  });

  it("agloop: state.json tasks, plan-only tasks, depends_on and dag_edges ([from, to]: to depends on from)", () => {
    const state = {
      tasks: [
        { id: "task-001", title: "A", status: "done", depends_on: [] },
        { id: "task-002", title: "B", status: "failed", depends_on: ["task-001"] },
      ],
      retry_count: { "task-002": 2, "task-001": 1.5 },
    };
    const plan = { tasks: [{ id: "task-003", title: "C", depends_on: [] }], dag_edges: [["task-002", "task-003"]] };
    const g = agloopGraphOf(".agloop", state, plan);
    assert.deepEqual(
      g.nodes.map((n) => [n.id, n.status, n.done, n.blocked, n.retries]),
      [
        ["task-001", "done", true, false, 0],
        ["task-002", "failed", false, true, 2],
        ["task-003", "pending", false, false, 0],
      ],
    );
    assert.deepEqual(g.edges, [
      { from: "task-001", to: "task-002" },
      { from: "task-002", to: "task-003" },
    ]);
    assert.deepEqual(analyzeGraph(g).blockedChains, [{ root: "task-002", waiting: ["task-003"] }]);
  });
});

describe("plan graph: DOT and Mermaid escaping", () => {
  const EVIL =
    'x"]; evil [label="pwned"] } digraph { n9 -> n0 %%{init}%% `a|b` <script>alert(1)</script> #35; \\N\u001b[2J\u202e\nz';
  const g = buildPlanGraph({
    kind: "autodev",
    path: ".autodev",
    nodes: [node('1"1', "pending", { label: EVIL, phase: "p]1" }), node("2", 'bl"ocked];')],
    edges: [{ from: '1"1', to: "2" }],
    groups: [{ id: "p]1", label: `Phase ${EVIL}` }],
  });
  const a = analyzeGraph(g);

  it("DOT: every quoted string stays closed; ids are synthetic; no control character survives", () => {
    const dot = graphToDot(g, a);
    // Strip every well-formed quoted string; what is left must be the fixed skeleton only.
    const skeleton = dot.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    assert.doesNotMatch(skeleton, /evil|pwned|digraph \{ n9|script|alert/);
    assert.equal((skeleton.match(/digraph/g) ?? []).length, 1);
    assert.match(skeleton, /\n {2}n0 -> n1 \[penwidth=2.5\];\n/);
    // eslint-disable-next-line no-control-regex -- looking for raw control characters on purpose
    assert.doesNotMatch(dot, /[\u0000-\u0009\u000b-\u001f\u202e]/);
    assert.ok(dot.includes('\\"]; evil [label=\\"pwned\\"]'), "the title is there, escaped");
  });

  it("Mermaid: labels hold only letters, digits, spaces, a few safe signs and #code; entities", () => {
    const mm = graphToMermaid(g, a);
    const labels = [...mm.matchAll(/\["([^"]*)"\]/g)].map((m) => m[1]);
    assert.equal(labels.length, 3, mm);
    for (const l of labels) assert.match(l, /^[\p{L}\p{N} .,_\-/:()+=?!@'#;]*$/u);
    assert.doesNotMatch(mm, /<script|%%\{|`|\|/);
    assert.ok(mm.includes("#60;script#62;"), "the markup is spelled as entities");
    assert.match(mm, /:::other\n|:::other$/m, "an unknown status gets the fixed 'other' class");
    assert.equal(mermaidLabel("a#b"), '"a#35;b"');
  });

  it("labels say the status in words (readable without colour)", () => {
    const dot = graphToDot(
      graph([node("a", "blocked", { retries: 2, escalated: true })], []),
      analyzeGraph(graph([node("a", "blocked")], [])),
    );
    assert.match(dot, /blocked, retried 2×, escalated/);
  });
});
