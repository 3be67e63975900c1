// `report` and `graph` against what the real Python AutoDev said about its own state, at every
// step of a real inline-mode run (test/fixtures/autodev-real-run/: AutoDev's CLI driven end to
// end, with `PlanManager.load`, `read_entries` and `list_evidence` recorded beside each snapshot).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");
const RUN = path.join(REPO_ROOT, "test/fixtures/autodev-real-run");

interface Recorded {
  load: {
    plan_id: string;
    tasks: {
      id: string;
      status: string;
      retry_count: number;
      escalated: boolean;
      blocked_reason: string | null;
      depends_on: string[];
      phase_id: string;
    }[];
  } | null;
  ledger: {
    count: number;
    entries: { seq: number; self_hash: string; op: string; task_id: string | null; status: string | null }[];
  };
  evidence: Record<string, { count: number; kinds: string[] }>;
}

function json(...args: string[]): { code: number; doc: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.ok(r.stdout, `${args.join(" ")}: ${r.stderr}`);
  return { code: r.status ?? -1, doc: JSON.parse(r.stdout) as Record<string, unknown> };
}

const steps = fs
  .readdirSync(RUN)
  .filter((s) => /^\d\d-/.test(s))
  .map((s) => ({ step: s, answers: JSON.parse(fs.readFileSync(path.join(RUN, s, "autodev-answers.json"), "utf8")) }))
  .filter((s) => (s.answers.recorded as Recorded).load !== null && (s.answers.recorded as Recorded).ledger.count > 0);

describe("report and graph agree with Python AutoDev at every step of a real run @slow", function () {
  this.timeout(120_000);

  it("there are steps with a plan to compare", () => assert.ok(steps.length >= 10, `${steps.length} steps`));

  for (const { step, answers } of steps) {
    const rec = answers.recorded as Recorded;
    it(`${step}: head, tasks, history, evidence counts and the graph`, () => {
      const ws = path.join(RUN, step, "workspace");
      const { code, doc } = json("report", ws, "--format", "json");
      assert.equal(code, 0);
      const last = rec.ledger.entries[rec.ledger.entries.length - 1];
      assert.deepEqual(doc.head, { seq: last.seq, self_hash: last.self_hash });
      assert.equal(doc.plan_id, rec.load!.plan_id);
      const tasks = doc.tasks as {
        id: string;
        history: { seq: number; to: string }[];
        evidence: unknown[];
        [k: string]: unknown;
      }[];
      const pick = (t: Record<string, unknown>) =>
        ["id", "phase_id", "status", "retry_count", "escalated", "blocked_reason", "depends_on"].map((k) => t[k]);
      assert.deepEqual(tasks.map(pick), rec.load!.tasks.map(pick));
      for (const t of tasks) {
        const changes = rec.ledger.entries.filter((e) => e.task_id === t.id && e.status !== null);
        assert.deepEqual(
          t.history.map((h) => [h.seq, h.to]),
          changes.map((e) => [e.seq, e.status]),
          `${t.id}'s history`,
        );
        assert.equal(t.evidence.length, rec.evidence[t.id]?.count ?? 0, `${t.id}'s evidence`);
      }
      const graph = json("graph", ws, "--json").doc as {
        sources: {
          nodes: { id: string; status: string }[];
          edges: { from: string; to: string }[];
          cycles: unknown[];
        }[];
      };
      const g = graph.sources[0];
      assert.deepEqual(
        g.nodes.map((n) => [n.id, n.status]),
        rec.load!.tasks.map((t) => [t.id, t.status]),
      );
      assert.deepEqual(
        g.edges.map((e) => `${e.from}>${e.to}`).sort(),
        rec.load!.tasks.flatMap((t) => t.depends_on.map((d) => `${d}>${t.id}`)).sort(),
      );
      assert.deepEqual(g.cycles, []);
    });
  }

  it("14-1.2-blocked: 2.1 waits on the blocked, escalated 1.2", () => {
    const g = (
      json("graph", path.join(RUN, "14-1.2-blocked", "workspace"), "--json").doc as {
        sources: { blocked_chains: unknown; critical_path: string[] }[];
      }
    ).sources[0];
    assert.deepEqual(g.blocked_chains, [{ root: "1.2", waiting: ["2.1"] }]);
    assert.deepEqual(g.critical_path, ["1.2", "2.1"]);
  });

  it("verify --expect-head: each step's head holds in every later step's ledger, and is cut off in earlier ones", () => {
    const heads = steps.map(({ step, answers }) => {
      const e = (answers.recorded as Recorded).ledger.entries;
      return { step, head: `${e[e.length - 1].seq}:${e[e.length - 1].self_hash}`, seq: e[e.length - 1].seq };
    });
    const [first, mid, last] = [heads[0], heads[Math.floor(heads.length / 2)], heads[heads.length - 1]];
    const verify = (step: string, anchor: string) =>
      spawnSync(process.execPath, [CLI, "verify", path.join(RUN, step, "workspace"), "--expect-head", anchor], {
        encoding: "utf8",
      });
    assert.equal(verify(last.step, first.head).status, 0);
    assert.equal(verify(last.step, mid.head).status, 0);
    const cut = verify(first.step, last.head);
    assert.equal(cut.status, 1);
    assert.match(cut.stdout, new RegExp(`truncated: the ledger ends at seq ${first.seq}`));
  });
});
