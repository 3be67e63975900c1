// The language-model tools' answers (issue 23): the verified state an agent reads, bounded.
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { boundedJson, checkAnswer, statusAnswer, taskAnswer } from "../../../src/core/agentTools/agentAnswers";
import { REPO_ROOT } from "../fixtures";

const RUN = path.join(REPO_ROOT, "test/fixtures/autodev-real-run");
const blocked = { name: "calc", path: path.join(RUN, "14-1.2-blocked", "workspace") };
const agloop = { name: "agloop-broken", path: path.join(REPO_ROOT, "test/fixtures/agloop-broken") };

describe("language-model tool answers", function () {
  this.timeout(60_000);

  it("status: the real run's blocked, escalated 1.2, the verified head and the next step", async () => {
    const j = JSON.parse(await statusAnswer([blocked], {}));
    const s = j.state_folders[0];
    assert.deepEqual([s.folder, s.kind, s.ledger_ok], ["calc", "autodev", true]);
    const t = s.tasks.find((x: { id: string }) => x.id === "1.2");
    assert.deepEqual([t.status, t.escalated, t.retry_count], ["blocked", true, 4]);
    assert.match(t.blocked_reason, /escalated: reviewer NEEDS_CHANGES/);
    assert.equal(typeof s.next.resume, "string");
    assert.ok(s.head.seq > 0);
  });

  it("task: 1.2 with its history from the ledger and its evidence in a line each", async () => {
    const j = JSON.parse(await taskAnswer([blocked], { taskId: "1.2" }));
    const t = j.tasks[0];
    assert.equal(t.id, "1.2");
    assert.ok(
      t.history.some((h: { escalated?: boolean }) => h.escalated),
      "the escalation is in the history",
    );
    assert.ok(
      t.evidence.some((e: string) => /^review /.test(e)),
      t.evidence.join(" | "),
    );
    const none = JSON.parse(await taskAnswer([blocked], { taskId: "9.9" }));
    assert.deepEqual(none.tasks, []);
  });

  it("check: problems with file and line; agloop tasks come from the graph", async () => {
    const j = JSON.parse(await checkAnswer([agloop], {}));
    assert.equal(j.ok, false);
    const cycle = j.state_folders[0].problems.find((p: { code: string }) => p.code === "dependency_cycle");
    assert.ok(cycle.file.startsWith(".agloop/") && cycle.line > 0);
    const t = JSON.parse(await taskAnswer([agloop], { taskId: "task-004", source: "agloop" }));
    assert.deepEqual(t.tasks[0].depends_on, ["task-005"]);
    await assert.rejects(statusAnswer([agloop], { folder: "nope" }), /no workspace folder named "nope"/);
  });

  it("answers are bounded: long lists are cut with a count, then the text", () => {
    const big = { items: Array.from({ length: 10_000 }, (_, i) => ({ i, text: "x".repeat(50) })) };
    const text = boundedJson(big, 24_000);
    assert.ok(text.length <= 24_000);
    // Still JSON: the first items as they were, then one line counting the rest (shown + counted = all).
    const items = (JSON.parse(text) as { items: unknown[] }).items;
    const shown = items.slice(0, -1);
    const more = /^… (\d+) more not shown$/.exec(String(items.at(-1)));
    assert.ok(more, `the last item counts the rest: ${JSON.stringify(items.at(-1))}`);
    assert.ok(shown.length > 0 && shown.length < big.items.length);
    assert.deepEqual(shown, big.items.slice(0, shown.length));
    assert.equal(shown.length + Number(more[1]), big.items.length);
    assert.ok(boundedJson({ s: "y".repeat(100_000) }, 5_000).length <= 5_000);
  });
});
