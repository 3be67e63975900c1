// Round 4 of the hostile folders (issue 32), items 1, 2, 3 and 11: `graph` on a tampered or
// unreadable ledger, `graph` past its own caps, `report --out` aimed at state, and
// `verify --expect-head` when the anchored ledger is cut or gone. The CLI as a user runs it.
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildPlanGraph, GraphEdge, GraphNode, MAX_GRAPH_NODES } from "../../../src/core/graph/planGraph";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 64 << 20, timeout: 30_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** python-small with line 3 edited (in_progress → complete) and its hashes kept. */
function tampered(): string {
  const dir = copyFixture("python-small");
  const ledger = path.join(dir, ".autodev/plan-ledger.jsonl");
  const lines = fs.readFileSync(ledger, "utf8").split("\n");
  assert.match(lines[2], /"in_progress"/);
  lines[2] = lines[2].replace('"in_progress"', '"complete"');
  fs.writeFileSync(ledger, lines.join("\n"));
  return dir;
}

function node(id: string): GraphNode {
  return {
    id,
    label: id,
    status: "pending",
    phase: null,
    done: false,
    blocked: false,
    retries: 0,
    escalated: false,
    blockedReason: null,
    treeNodeId: null,
  };
}

describe("hostile round 4: graph of a ledger that does not verify (issue 32.1) @slow", function () {
  this.timeout(60_000);

  it("a hash-kept edit: exit 1 in every format, each says NOT VERIFIED", () => {
    const dir = tampered();
    assert.equal(cli("verify", dir).code, 1);
    for (const format of ["dot", "mermaid", "json", "text"]) {
      const r = cli("graph", dir, "--format", format);
      assert.equal(r.code, 1, `${format}: ${r.err}`);
      assert.match(r.out, format === "json" ? /"verified": false/ : /NOT verified/i, format);
    }
    const dot = cli("graph", dir, "--format", "dot").out;
    assert.match(dot, /label="autodev \.autodev — NOT VERIFIED/);
    const mermaid = cli("graph", dir, "--format", "mermaid").out;
    assert.match(mermaid, /^ {2}unverified\["NOT VERIFIED/m);
    const j = JSON.parse(cli("graph", dir, "--json").out);
    assert.deepEqual([j.ok, j.sources[0].verified], [false, false]);
  });

  it("the ledger a FIFO or a link out: exit 2 as verify, an empty graph marked unreadable", () => {
    const fifoDir = fs.mkdtempSync(path.join(os.tmpdir(), "graph-fifo-"));
    fs.mkdirSync(path.join(fifoDir, ".autodev"));
    assert.equal(spawnSync("mkfifo", [path.join(fifoDir, ".autodev/plan-ledger.jsonl")]).status, 0);
    const linkDir = copyFixture("python-small");
    const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "graph-outside-")), "ledger.jsonl");
    fs.renameSync(path.join(linkDir, ".autodev/plan-ledger.jsonl"), outside);
    fs.symlinkSync(outside, path.join(linkDir, ".autodev/plan-ledger.jsonl"));
    for (const dir of [fifoDir, linkDir]) {
      assert.equal(cli("verify", dir).code, 2);
      const m = cli("graph", dir, "--format", "mermaid");
      assert.equal(m.code, 2, m.err);
      assert.match(m.out, /NOT VERIFIED: the state could not be read/);
      assert.match(m.err, /NOT VERIFIED/);
      const j = JSON.parse(cli("graph", dir, "--json").out);
      assert.deepEqual(
        [j.ok, j.sources[0].verified, j.sources[0].unreadable, j.sources[0].nodes.length],
        [false, false, true, 0],
      );
    }
  });

  it("a verified ledger still exits 0 with ok: true and no mark", () => {
    const dir = copyFixture("python-small");
    const r = cli("graph", dir, "--format", "dot");
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.out, /NOT VERIFIED/);
    assert.equal(JSON.parse(cli("graph", dir, "--json").out).ok, true);
  });
});

describe("hostile round 4: graph past its caps (issue 32.2)", function () {
  this.timeout(60_000);

  it("2^24 + 1 distinct dependencies on missing tasks: no RangeError, the excess counted @slow", () => {
    const n = 2 ** 24 + 1;
    function* edges(): Generator<GraphEdge> {
      for (let i = 0; i < n; i++) yield { from: `gone${i}`, to: "a" };
    }
    const g = buildPlanGraph({ kind: "test", path: ".test", nodes: [node("a")], edges: edges() });
    assert.equal(g.dangling.length, 50_000);
    assert.ok(
      g.notes.some((s) => s.includes(`${n - 50_000} more dependencies name no task`)),
      g.notes.join("\n"),
    );
  });

  it("past the node cap, an edge to a task that exists but was cut is counted as cut, not as unknown", () => {
    const nodes = Array.from({ length: MAX_GRAPH_NODES + 5 }, (_, i) => node(`t${i}`));
    const last = `t${MAX_GRAPH_NODES + 4}`;
    const g = buildPlanGraph({
      kind: "test",
      path: ".test",
      nodes,
      edges: [
        { from: last, to: "t0" },
        { from: "t1", to: last },
        { from: "nowhere", to: "t0" },
      ],
    });
    assert.deepEqual(g.dangling, [{ from: "nowhere", to: "t0" }]);
    assert.ok(
      g.notes.some((s) => /^2 dependencies involve tasks past the 10000-task cap/.test(s)),
      g.notes.join("\n"),
    );
  });

  it("edges past the edge cap are counted in a note; repeats of kept edges are not", () => {
    const nodes = Array.from({ length: 400 }, (_, i) => node(`t${i}`));
    function* edges(): Generator<GraphEdge> {
      for (let i = 0; i < 400; i++) for (let j = 0; j < 200; j++) yield { from: `t${j}`, to: `t${i}` };
      yield { from: "t0", to: "t0" };
    }
    const g = buildPlanGraph({ kind: "test", path: ".test", nodes, edges: edges() });
    assert.equal(g.edges.length, 50_000);
    assert.ok(
      g.notes.some((s) => s.includes("(30000 more dependency entries")),
      g.notes.join("\n"),
    );
  });
});

describe("hostile round 4: report --out never lands in state (issue 32.3) @slow", function () {
  this.timeout(60_000);

  it("refuses --out inside .autodev/ (ledger, plan.json, evidence, through a link), nothing changes", () => {
    const dir = copyFixture("python-small");
    const before = fs.readFileSync(path.join(dir, ".autodev/plan-ledger.jsonl"));
    const plan = fs.readFileSync(path.join(dir, ".autodev/plan.json"));
    fs.symlinkSync(".autodev", path.join(dir, "lnk"));
    for (const out of [
      ".autodev/plan-ledger.jsonl",
      ".autodev/plan.json",
      ".autodev/evidence/new.md",
      "lnk/report.md",
      "sub/../.autodev/x.html",
    ]) {
      const r = cli("report", dir, "--out", path.join(dir, out));
      assert.equal(r.code, 2, `${out}: ${r.err}`);
      assert.match(r.err, /inside the state folder .*Nothing was written/, out);
    }
    assert.deepEqual(fs.readFileSync(path.join(dir, ".autodev/plan-ledger.jsonl")), before);
    assert.deepEqual(fs.readFileSync(path.join(dir, ".autodev/plan.json")), plan);
    assert.equal(cli("verify", dir).code, 0);
    assert.deepEqual(
      fs.readdirSync(path.join(dir, ".autodev")).filter((f) => f.endsWith(".tmp")),
      [],
    );
  });

  it("refuses another source's state folder and another workspace's .autodev/", () => {
    const dir = copyFixture("python-small");
    const other = copyFixture("python-small");
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/agloop-broken/.agloop"), path.join(dir, ".agloop"), {
      recursive: true,
    });
    for (const out of [path.join(dir, ".agloop/state.json"), path.join(other, ".autodev/plan.json")]) {
      const r = cli("report", dir, "--out", out);
      assert.equal(r.code, 2, `${out}: ${r.err}`);
    }
  });

  it("an existing 0600 report stays 0600; a new one is written beside the state", () => {
    const dir = copyFixture("python-small");
    const out = path.join(dir, "report.md");
    fs.writeFileSync(out, "old", { mode: 0o600 });
    fs.chmodSync(out, 0o600);
    const r = cli("report", dir, "--out", out);
    assert.equal(r.code, 0, r.err);
    assert.equal(fs.statSync(out).mode & 0o777, 0o600);
    assert.match(fs.readFileSync(out, "utf8"), /^# /);
  });
});

describe("hostile round 4: verify --expect-head on a cut or lost ledger (issue 32.11) @slow", function () {
  this.timeout(60_000);

  function anchored(): { dir: string; head: string } {
    const dir = copyFixture("python-small");
    const h = JSON.parse(cli("verify", dir, "--json").out).head;
    return { dir, head: `${h.seq}:${h.self_hash}` };
  }

  it("--json on a cut ledger: top-level ok is false with the anchor's, chain_ok true", () => {
    const { dir, head } = anchored();
    const ledger = path.join(dir, ".autodev/plan-ledger.jsonl");
    fs.writeFileSync(ledger, fs.readFileSync(ledger, "utf8").split("\n").slice(0, 5).join("\n") + "\n");
    const r = cli("verify", dir, "--expect-head", head, "--json");
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.deepEqual([j.ok, j.chain_ok, j.expect_head.ok, j.expect_head.verdict], [false, true, false, "truncated"]);
  });

  it("the ledger gone (config.json kept, or .autodev/ empty): exit 1, truncated", () => {
    for (const keep of [true, false]) {
      const { dir, head } = anchored();
      const state = path.join(dir, ".autodev");
      fs.rmSync(state, { recursive: true });
      fs.mkdirSync(state);
      if (keep) fs.writeFileSync(path.join(state, "config.json"), "{}\n");
      const r = cli("verify", dir, "--expect-head", head);
      assert.equal(r.code, 1, r.out + r.err);
      assert.match(r.out, /expect-head FAILED: truncated: the ledger ends at seq 0/);
      const j = JSON.parse(cli("verify", dir, "--expect-head", head, "--json").out);
      assert.deepEqual([j.ok, j.expect_head.verdict], [false, "truncated"]);
    }
  });
});
