// The run report's core (issue 23): the streamed JSON is the document, the history caps hold on
// long ledgers, and the anchored-head verdicts.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { HistoryTracker, collectRunReport } from "../../../src/core/sources/autodev/report/reportCollect";
import { reportJsonChunks, reportToJson } from "../../../src/core/sources/autodev/report/reportJson";
import { reportMarkdownChunks } from "../../../src/core/sources/autodev/report/reportMarkdown";
import { MAX_HISTORY_PER_TASK, MAX_HISTORY_TOTAL } from "../../../src/core/sources/autodev/report/reportTypes";
import { judgeAnchor, parseAnchoredHead } from "../../../src/core/sources/autodev/report/anchoredHead";
import type { EntrySummary } from "../../../src/core/sources/autodev/ledger/verifyTypes";
import { REPO_ROOT } from "../fixtures";

function change(seq: number, taskId: string): EntrySummary {
  return {
    seq,
    line: seq,
    start: 0,
    end: 0,
    op: "update_task_status",
    timestamp: "2026-01-01T00:00:00+00:00",
    sessionId: "s",
    selfHash: "h",
    taskId,
    fromStatus: "in_progress",
    toStatus: "coded",
    retryCount: null,
    escalated: false,
    chain: "ok",
  };
}

describe("run report: collection and rendering", function () {
  this.timeout(60_000);

  it("the streamed JSON and Markdown are the whole documents", async () => {
    const r = await collectRunReport(path.join(REPO_ROOT, "test/fixtures/python-evidence"));
    assert.equal(r.ok, true);
    assert.equal([...reportJsonChunks(r)].join(""), JSON.stringify(reportToJson(r), null, 2) + "\n");
    // The Markdown against what Python wrote: a plan-table row and a section per task of its plan.json.
    const md = [...reportMarkdownChunks(r)].join("").replace(/\\(.)/g, "$1"); // Markdown escapes undone
    const plan = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, "test/fixtures/python-evidence/.autodev/plan.json"), "utf8"),
    ) as { phases: { tasks: { id: string; title: string; status: string }[] }[] };
    const planTasks = plan.phases.flatMap((p) => p.tasks);
    assert.ok(planTasks.length > 0);
    for (const t of planTasks) {
      assert.ok(md.includes(`| ${t.id} ${t.title} | ${t.status} |`), `${t.id}: plan row in\n${md}`);
      assert.ok(md.includes(`### ${t.id} ${t.title}\n\n- Status: **${t.status}**`), `${t.id}: task section`);
    }
    const tasks = r.phases.flatMap((p) => p.tasks);
    assert.ok(
      tasks.some((t) => t.evidence.length > 0 && t.diffs.length > 0),
      "evidence and diffs are summarised",
    );
    assert.ok(tasks.some((t) => t.diffs.some((d) => d.ok && d.files > 0)));
  });

  it("history keeps the latest changes of a task, and a fair share when many tasks are long", () => {
    const one = new HistoryTracker();
    for (let i = 1; i <= 3 * MAX_HISTORY_PER_TASK; i++) one.see(change(i, "a"));
    const a = one.of("a");
    assert.equal(a.changes.length, MAX_HISTORY_PER_TASK);
    assert.equal(a.omitted, 2 * MAX_HISTORY_PER_TASK);
    assert.equal(a.changes[a.changes.length - 1].seq, 3 * MAX_HISTORY_PER_TASK, "the latest is kept");
    const many = new HistoryTracker();
    const tasks = 1000;
    for (let i = 0; i < 400_000; i++) many.see(change(i + 1, `t${i % tasks}`));
    let kept = 0;
    for (let t = 0; t < tasks; t++) kept += many.of(`t${t}`).changes.length;
    assert.ok(kept <= MAX_HISTORY_TOTAL, `${kept} changes kept`);
    assert.equal(many.of("t7").omitted + many.of("t7").changes.length, 400);
  });
});

describe("anchored head", () => {
  it("parses SEQ:HASH and judges extends / truncated / rewritten / unverified", () => {
    const p = parseAnchoredHead(" 21:956761017E3CB2AA ");
    assert.deepEqual(p, { ok: true, head: { seq: 21, selfHash: "956761017e3cb2aa" } });
    for (const bad of ["", "21", "0:ab", "-1:ab", "1:xyz", "1:ab:cd", "99999999999999999:ab"]) {
      assert.equal(parseAnchoredHead(bad).ok, false, bad);
    }
    const head = { seq: 21, selfHash: "abcd" };
    assert.equal(judgeAnchor(head, true, 30, "ABCD").kind, "extends");
    assert.match(judgeAnchor(head, true, 15, null).message, /^truncated: the ledger ends at seq 15/);
    assert.match(judgeAnchor(head, true, 21, "ffff").message, /^rewritten: entry 21 has hash ffff/);
    assert.equal(judgeAnchor(head, false, 21, "abcd").kind, "unverified");
  });
});
