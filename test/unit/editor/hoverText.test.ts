/**
 * The words of hovers and pickers (issue 22 item 9): times relative then absolute (Python's
 * microseconds parse), code spans without escapes inside, ledger ops and status changes in words,
 * and each task's last change found from the end of the ledger.
 */
import "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import { absoluteTime, parseTime, relativeTime, whenText } from "../../../src/extension/text/dateText";
import { codeSpan } from "../../../src/extension/sources/autodev/autodevTreeItems";
import { actionWords, changeWords } from "../../../src/core/timeline/timelineWords";
import { LEDGER_WORDS } from "../../../src/core/sources/autodev/timeline/ledgerTimelineWords";
import { lastChanges } from "../../../src/core/sources/autodev/timeline/taskLastChange";
import type { EntrySummary } from "../../../src/core/sources/autodev/ledger/verifyTypes";
import type { Plan } from "../../../src/core/sources/autodev/plan/schemas";

describe("hover and picker words", () => {
  const now = Date.parse("2026-12-01T12:00:00Z");

  it("times: how long ago, then the date in the local zone; Python's microseconds parse", () => {
    assert.equal(parseTime("2026-11-30T02:42:58.762360+00:00"), Date.parse("2026-11-30T02:42:58.762Z"));
    assert.equal(relativeTime("2026-12-01T11:59:30Z", now), "just now");
    assert.equal(relativeTime("2026-12-01T09:00:00Z", now), "3 hours ago");
    assert.equal(relativeTime("2026-11-27T12:00:00Z", now), "4 days ago");
    assert.match(absoluteTime("2026-11-30T02:42:58.762360+00:00"), /2026/);
    assert.doesNotMatch(whenText("2026-11-30T02:42:58.762360+00:00", now), /762360|T02/);
    assert.match(whenText("2026-12-01T09:00:00Z", now), /^3 hours ago \(.+2026.+\)$/);
    assert.equal(whenText("not a time", now), "not a time");
  });

  it("code spans hold the text as it is, with a fence longer than any backticks in it", () => {
    assert.equal(codeSpan("plan-units-2026-11"), "`plan-units-2026-11`");
    assert.equal(codeSpan("a`b"), "``a`b``");
    assert.equal(codeSpan("`x`"), "`` `x` ``");
    assert.equal(codeSpan("two\nlines"), "`two lines`");
  });

  it("ops and status changes in words, never identifiers", () => {
    assert.equal(actionWords(LEDGER_WORDS, "update_task_status"), "status change");
    assert.equal(actionWords(LEDGER_WORDS, "init_plan"), "plan created", "the timeline's word for it");
    assert.equal(actionWords(LEDGER_WORDS, "some_new_op"), "some new op");
    const e = { fromStatus: "in_progress", toStatus: "coded", retryCount: null, escalated: false };
    assert.equal(changeWords(LEDGER_WORDS, e), "in progress → coded");
    assert.equal(
      changeWords(LEDGER_WORDS, { ...e, fromStatus: "coded", retryCount: 2, escalated: true }),
      "retry 2 · escalated",
    );
    assert.equal(changeWords(LEDGER_WORDS, { ...e, toStatus: null }), "");
  });

  it("each task's last change is its newest entry with a status", () => {
    const entry = (seq: number, taskId: string | null, toStatus: string | null): EntrySummary =>
      ({
        seq,
        line: seq,
        taskId,
        fromStatus: "pending",
        toStatus,
        retryCount: null,
        escalated: false,
        timestamp: `2026-11-30T0${seq}:00:00Z`,
        sessionId: "s",
      }) as unknown as EntrySummary;
    const plan = { phases: [{ tasks: [{ id: "1.1" }, { id: "1.2" }, { id: "1.3" }] }] } as unknown as Plan;
    const entries = [
      entry(1, null, null),
      entry(2, "1.1", "in_progress"),
      entry(3, "1.2", "coded"),
      entry(4, "1.1", "coded"),
      entry(5, "1.1", null),
    ];
    const map = new Map(lastChanges(entries, plan));
    assert.deepEqual([...map.keys()].sort(), ["1.1", "1.2"]);
    assert.equal(map.get("1.1")?.seq, 4);
    assert.equal(map.get("1.2")?.toStatus, "coded");
    assert.deepEqual(lastChanges(entries, null), []);
  });
});
