// `autodev-state graph`, `verify --expect-head` and `report` as a user runs them (dist/cli.js in a
// child process), on Python-written ledgers and on plans written by `init` with hostile titles.
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ledgerPath } from "../../../src/core/sources/autodev/autodevPaths";
import { REPO_ROOT, copyFixture } from "../fixtures";
import { PlanShape, initWith as initPlanWith, planTask as task } from "../../helpers/initPlan";

const CLI = path.join(REPO_ROOT, "dist/cli.js");
const SCRIPT = '<script>alert("x")</script><img src=x onerror=alert(1)>';

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** A workspace whose ledger `init` wrote from python-small's plan with `edit` applied. */
const initWith = (edit: (plan: PlanShape) => void): string => initPlanWith(cli, edit);

describe("autodev-state graph @slow", function () {
  this.timeout(60_000);

  it("--json on a plan with a cycle names the cycle; the critical path and blocked chain are there", () => {
    const dir = initWith((p) => (task(p, "2.1").depends_on = ["1.1", "1.2", "2.3"]));
    const r = cli("graph", dir, "--json");
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.sources.length, 1);
    const s = j.sources[0];
    assert.deepEqual([s.kind, s.path, s.verified], ["autodev", ".autodev", true]);
    assert.deepEqual(Object.keys(s.nodes[0]).slice(0, 4), ["id", "label", "status", "phase"]);
    assert.deepEqual(
      s.nodes.map((n: { id: string; phase: string }) => `${n.phase}/${n.id}`),
      ["1/1.1", "1/1.2", "1/1.3", "2/2.1", "2/2.2", "2/2.3"],
    );
    assert.ok(s.edges.some((e: { from: string; to: string }) => e.from === "2.3" && e.to === "2.1"));
    assert.deepEqual(s.cycles, [["2.1", "2.3"]]);
    assert.deepEqual(s.critical_path, ["1.1", "1.2", "2.1", "2.3"]);
    assert.deepEqual(s.blocked_chains, [{ root: "1.2", waiting: ["2.1", "2.3"] }]);
  });

  it("a mixed folder lists every source with a plan; --source keeps one; text names the cycle", () => {
    const dir = copyFixture("python-small");
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/agloop-broken/.agloop"), path.join(dir, ".agloop"), {
      recursive: true,
    });
    const j = JSON.parse(cli("graph", dir, "--json").out);
    assert.deepEqual(
      j.sources.map((s: { kind: string }) => s.kind),
      ["autodev", "agloop"],
    );
    const agloop = j.sources[1];
    assert.deepEqual(
      agloop.cycles.map((c: string[]) => [...c].sort()),
      [["task-004", "task-005"]],
    );
    const only = JSON.parse(cli("graph", dir, "--format", "json", "--source", "agloop").out);
    assert.deepEqual(
      only.sources.map((s: { kind: string }) => s.kind),
      ["agloop"],
    );
    const text = cli("graph", dir, "--source", "agloop");
    assert.match(text.out, /cycle: task-00[45] → task-00[45] → task-00[45]/);
    assert.equal(cli("graph", dir, "--format", "svg").code, 2);
  });

  it("--format dot and mermaid of a hostile title: escaped, one graph, no markup", () => {
    const dir = initWith((p) => (p.phases[0].tasks[0].title = `a"]; n1 -> n0 } ${SCRIPT}`));
    const dot = cli("graph", dir, "--format", "dot");
    assert.equal(dot.code, 0, dot.err);
    assert.equal(
      dot.out.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/[{}]/g)?.length,
      6,
      "3 braces pairs: graph + 2 clusters",
    );
    const mm = cli("graph", dir, "--format", "mermaid");
    assert.equal(mm.code, 0, mm.err);
    assert.doesNotMatch(mm.out, /<script|<img|"\]; n1/);
    assert.match(mm.out, /^flowchart LR\n/);
  });
});

describe("autodev-state verify --expect-head @slow", function () {
  this.timeout(60_000);
  const head = (dir: string) => JSON.parse(cli("verify", dir, "--json").out).head as { seq: number; self_hash: string };

  it("passes on the ledger it was taken from, and on that ledger grown by more entries", () => {
    const dir = copyFixture("python-small");
    const h = head(dir);
    const ok = cli("verify", dir, "--expect-head", `${h.seq}:${h.self_hash}`);
    assert.equal(ok.code, 0, ok.out + ok.err);
    assert.match(ok.out, /extends the anchored head/);
    const earlier = JSON.parse(cli("log", dir, "--json").out)[9];
    assert.equal(cli("verify", dir, "--expect-head", `${earlier.seq}:${earlier.self_hash}`).code, 0);
    assert.equal(cli("set-status", dir, "1.3", "in_progress").code, 0);
    assert.equal(cli("verify", dir, "--expect-head", `${h.seq}:${h.self_hash}`).code, 0);
  });

  it("fails on a truncated copy (which still verifies on its own)", () => {
    const dir = copyFixture("python-small");
    const h = head(dir);
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    fs.writeFileSync(ledgerPath(dir), lines.slice(0, 15).join("\n") + "\n");
    assert.equal(cli("verify", dir).code, 0, "the cut chain verifies by itself");
    const r = cli("verify", dir, "--expect-head", `${h.seq}:${h.self_hash}`);
    assert.equal(r.code, 1);
    assert.match(r.out, /truncated: the ledger ends at seq 15/);
    const j = JSON.parse(cli("verify", dir, "--json", "--expect-head", `${h.seq}:${h.self_hash}`).out);
    // `ok` is the whole verdict, the anchor included (issue 32.11); the chain alone is `chain_ok`.
    assert.deepEqual([j.ok, j.chain_ok, j.expect_head.ok, j.expect_head.verdict], [false, true, false, "truncated"]);
  });

  it("fails on a rewritten history (a valid chain with another hash at the anchored seq)", () => {
    const original = copyFixture("python-small");
    const h = head(original);
    // The same plan re-initialised: a chain that verifies, whose entries have other hashes (new timestamps).
    const dir = initWith(() => undefined);
    while (head(dir).seq < h.seq) {
      const r = cli("append", dir, "plan_tournament_complete", "--payload", '{"note": "filler"}');
      assert.equal(r.code, 0, r.err);
    }
    const now = head(dir);
    assert.equal(now.seq, h.seq);
    const r = cli("verify", dir, "--expect-head", `${h.seq}:${h.self_hash}`);
    assert.equal(r.code, 1);
    assert.ok(r.out.includes(`rewritten: entry ${h.seq} has hash ${now.self_hash}`), r.out);
  });

  it("a broken chain fails whatever the anchor; a malformed anchor is a usage error", () => {
    const dir = copyFixture("python-small");
    const h = head(dir);
    const text = fs
      .readFileSync(ledgerPath(dir), "utf8")
      .replace('"title": "Write README"', '"title": "Write READYOU"');
    fs.writeFileSync(ledgerPath(dir), text);
    const r = cli("verify", dir, "--expect-head", `${h.seq}:${h.self_hash}`);
    assert.equal(r.code, 1);
    assert.match(r.out, /not checked against/);
    for (const bad of ["21", "0:abcd", "x:abcd", "21:not-hex"]) {
      const u = cli("verify", dir, "--expect-head", bad);
      assert.equal(u.code, 2, bad);
      assert.match(u.err, /expected SEQ:HASH/);
    }
  });
});

describe("autodev-state report @slow", function () {
  this.timeout(60_000);

  it("--format json: ok, head, plan_id and every task's history from the ledger", () => {
    const dir = path.join(REPO_ROOT, "test/fixtures/python-small");
    const r = cli("report", dir, "--format", "json");
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j).slice(0, 4), ["ok", "head", "plan_id", "tasks"]);
    assert.equal(j.ok, true);
    assert.deepEqual(j.head, JSON.parse(cli("verify", dir, "--json").out).head);
    const t11 = j.tasks.find((t: { id: string }) => t.id === "1.1");
    assert.deepEqual([t11.status, t11.retry_count, t11.escalated], ["in_progress", 1, true]);
    const log = JSON.parse(cli("log", dir, "--json", "--task", "1.1").out).filter((e: { to: string | null }) => e.to);
    assert.deepEqual(
      t11.history.map((h: { seq: number; from: string; to: string; timestamp: string }) => [
        h.seq,
        h.from,
        h.to,
        h.timestamp,
      ]),
      log.map((e: { seq: number; from: string; to: string; timestamp: string }) => [e.seq, e.from, e.to, e.timestamp]),
    );
    assert.equal(j.tasks.find((t: { id: string }) => t.id === "1.2").blocked_reason, "waiting on 1.1");
  });

  it("--format html of a plan whose titles hold <script> has no live markup, a strict CSP and no external resource", () => {
    const dir = initWith((p) => {
      p.phases[0].title = SCRIPT;
      p.phases[0].tasks[0].title = SCRIPT;
      p.metadata.title = `</title>${SCRIPT}`;
    });
    const out = path.join(dir, "report.html");
    const r = cli("report", dir, "--out", out);
    assert.equal(r.code, 0, r.err);
    const html = fs.readFileSync(out, "utf8");
    assert.doesNotMatch(html, /<script|<img|javascript:/i);
    for (const tag of html.match(/<[^>]*>/g) ?? []) {
      assert.doesNotMatch(tag, /\son\w+\s*=|\b(src|href|action)\s*=/i, tag);
    }
    assert.ok(html.includes("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;"), "the title is shown, escaped");
    const tags = new Set([...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map((m) => m[1].toLowerCase()));
    const allowed =
      "html head meta title style body header main section h1 h2 h3 p ul li table thead tbody tr th td strong span code div";
    for (const t of tags) assert.ok(allowed.split(" ").includes(t), `unexpected element <${t}>`);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1] ?? "";
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'none'/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
    assert.ok(
      csp.includes(`'sha256-${createHash("sha256").update(style).digest("base64")}'`),
      "the CSP allows exactly the inline stylesheet",
    );
    assert.match(html, /@media print/);
  });

  it("a broken ledger still gets a report whose verdict says so (exit 1)", () => {
    const dir = copyFixture("python-small");
    const lines = fs.readFileSync(ledgerPath(dir), "utf8").split("\n");
    lines[16] = lines[16].replace('"session_id": "', '"session_id": "X');
    fs.writeFileSync(ledgerPath(dir), lines.join("\n"));
    for (const format of ["md", "html", "json"]) {
      const r = cli("report", dir, "--format", format);
      assert.equal(r.code, 1, `${format}: ${r.err}`);
      if (format === "json") {
        const j = JSON.parse(r.out);
        assert.equal(j.ok, false);
        assert.match(j.verdict, /^BROKEN: .*self_hash mismatch/);
        assert.equal(j.head.seq, 16, "the last good entry");
        assert.equal(j.plan_verified, false);
        assert.ok(j.tasks.length > 0, "the tail's plan is still shown");
      } else assert.match(r.out, /BROKEN/);
    }
  });
});
