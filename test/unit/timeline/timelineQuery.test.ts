// The timeline view model (src/core/timeline/timelineQuery.ts): status-change derivation, filters,
// snapshot folding, grouping by session and day, paging, jump/anchor rows, facets, chain states,
// and its speed and memory on 100,000 entries.
import * as assert from "node:assert/strict";
import type { TimelineEntryRow, TimelineFilter, TimelineQuery } from "../../../src/protocolTimeline";
import type { TimelineIndexEntry } from "../../../src/core/timeline/timelineTypes";
import { EMPTY_FILTER, TimelineIndex, chainStateAt, matchesFilter } from "../../../src/core/timeline/timelineQuery";
import { deriveChange, isChange } from "../../../src/core/timeline/timelineChange";
import { ledgerRowOf } from "../../../src/core/sources/autodev/timeline/ledgerTimeline";
import { LEDGER_TIMELINE_FEATURES } from "../../../src/core/sources/autodev/timeline/ledgerTimelineWords";
import { textMatcher } from "../../../src/core/timeline/timelineText";
import { changeWords } from "../../../src/core/timeline/timelineWords";
import { LEDGER_WORDS } from "../../../src/core/sources/autodev/timeline/ledgerTimelineWords";
import { LocalDays } from "../../../src/core/timeline/timelineDays";
import { EntrySummary } from "../../../src/core/sources/autodev/ledger/verifyTypes";

type Partial2 = Partial<EntrySummary> & Pick<EntrySummary, "op">;

const F = LEDGER_TIMELINE_FEATURES;

/** Ledger entries with consecutive seqs, one minute apart from 2026-03-01T10:00Z unless given. */
function raw(specs: Partial2[]): EntrySummary[] {
  return specs.map((s, i) => ({
    seq: i + 1,
    line: i + 1,
    start: i * 100,
    end: i * 100 + 99,
    timestamp: new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString().replace("Z", "+00:00"),
    sessionId: "s1",
    selfHash: `${(i + 1).toString(16).padStart(4, "0")}beef`,
    taskId: null,
    fromStatus: null,
    toStatus: null,
    retryCount: null,
    escalated: false,
    chain: "ok",
    ...s,
  }));
}

/** The same entries as the ledger timeline's neutral rows. */
function entries(specs: Partial2[]): TimelineIndexEntry[] {
  return raw(specs).map(ledgerRowOf);
}

/** A timeline index over ledger rows. */
function ledgerIndex(rows: readonly TimelineIndexEntry[], generation = 1): TimelineIndex {
  return new TimelineIndex(rows, generation, F);
}

const status = (taskId: string, from: string, to: string, extra: Partial<EntrySummary> = {}): Partial2 => ({
  op: "update_task_status",
  taskId,
  fromStatus: from,
  toStatus: to,
  ...extra,
});
const snap = (extra: Partial<EntrySummary> = {}): Partial2 => ({ op: "snapshot", ...extra });
const q = (filter: Partial<TimelineFilter> = {}, foldSnapshots = true, timeZone = "UTC"): TimelineQuery => ({
  filter: { ...EMPTY_FILTER, ...filter },
  foldSnapshots,
  timeZone,
});
const noTitles = () => null;
const all: { offset: number; limit: number; anchorRowId: number | null; locateRowId: number | null; facets: boolean } =
  {
    offset: 0,
    limit: 500,
    anchorRowId: null,
    locateRowId: null,
    facets: false,
  };

function pageOf(
  index: TimelineIndex,
  query: TimelineQuery,
  req: Partial<typeof all> = {},
  titleOf: (id: string) => string | null = noTitles,
) {
  return index.page(query, { ...all, ...req }, titleOf, 1, null);
}
const seqs = (rows: readonly { kind: string }[]) =>
  rows.filter((r): r is TimelineEntryRow => r.kind === "entry").map((r) => r.rowId);

describe("timeline view model", () => {
  describe("status-change derivation", () => {
    it("classifies every kind of entry", () => {
      const es = entries([
        { op: "init_plan" },
        snap(),
        status("1", "pending", "in_progress"),
        status("1", "coded", "coded"),
        { op: "append_evidence", taskId: "1" },
        { op: "impl_tournament_complete", taskId: "1" },
        { op: "mark_complete", taskId: "1", fromStatus: "tested", toStatus: "complete" },
        { op: "update_task_status", taskId: "9" },
        { op: "update_plan" },
      ]);
      assert.deepEqual(
        es.map((e) => deriveChange(e, F)),
        ["changed", "snapshot", "status", "same-status", "noted", "noted", "status", "noted", "changed"],
      );
    });

    it("a retry and an escalation are what they are, not coded → coded", () => {
      const specs = [
        status("1", "coded", "coded", { retryCount: 2 }),
        status("1", "coded", "coded", { escalated: true }),
        status("1", "coded", "in_progress", { retryCount: 3 }),
        status("1", "coded", "coded"),
      ];
      const es = entries(specs);
      assert.deepEqual(
        es.map((e) => deriveChange(e, F)),
        ["retry", "escalated", "status", "same-status"],
      );
      assert.deepEqual(
        raw(specs).map((e) => changeWords(LEDGER_WORDS, e)),
        ["retry 2", "escalated", "coded → in progress · retry 3", "coded (unchanged)"],
      );
      assert.deepEqual(
        es.map((e) => isChange(deriveChange(e, F))),
        [true, true, true, false],
      );
    });
  });

  describe("filters", () => {
    const es = entries([
      { op: "init_plan" },
      snap(),
      status("1.1", "pending", "in_progress"),
      snap(),
      status("1.2", "pending", "blocked", { sessionId: "s2" }),
      snap({ sessionId: "s2" }),
      status("1.1", "in_progress", "in_progress"),
      { op: "append_evidence", taskId: "1.1" },
    ]);
    const titles = (id: string) => (id === "1.2" ? "Add Config Loader" : null);
    const match = (f: Partial<TimelineFilter>) =>
      es
        .filter((e) => matchesFilter(e, { ...EMPTY_FILTER, ...f }, textMatcher(f.text ?? ""), titles, F))
        .map((e) => e.id);

    it("by op, task, session and resulting status", () => {
      assert.deepEqual(match({ actions: ["snapshot"] }), [2, 4, 6]);
      assert.deepEqual(match({ actions: ["init_plan", "append_evidence"] }), [1, 8]);
      assert.deepEqual(match({ taskId: "1.1" }), [3, 7, 8]);
      assert.deepEqual(match({ actor: "s2" }), [5, 6]);
      assert.deepEqual(match({ status: "blocked" }), [5]);
      assert.deepEqual(match({ status: "in_progress", taskId: "1.1" }), [3, 7]);
    });

    it("changes only keeps status and plan changes", () => {
      assert.deepEqual(match({ changesOnly: true }), [1, 3, 5]);
    });

    it("free text over op, task title, session, hash prefix and #seq", () => {
      assert.deepEqual(match({ text: "config loader" }), [5]);
      assert.deepEqual(match({ text: "EVIDENCE" }), [8]);
      assert.deepEqual(match({ text: "0005be" }), [5]);
      assert.deepEqual(match({ text: "#7" }), [7]);
      assert.deepEqual(match({ text: "s2" }), [5, 6]);
    });

    it("free text matches the words rows show: status labels, retry and escalation marks, notes (issue 22 item 4)", () => {
      const shown = entries([
        { op: "init_plan" },
        status("3.2", "in_progress", "auto_gated"),
        status("3.2", "coded", "coded", { escalated: true }),
        status("3.2", "coded", "coded", { retryCount: 2 }),
        { op: "append_evidence", taskId: "3.2" },
        { op: "update_plan" },
      ]);
      const find = (text: string) =>
        shown.filter((e) => matchesFilter(e, { ...EMPTY_FILTER, text }, textMatcher(text), titles, F)).map((e) => e.id);
      assert.deepEqual(find("escalat"), [3]);
      assert.deepEqual(find("in progress"), [2]);
      assert.deepEqual(find("in_progress"), [2], "the status as written still matches");
      assert.deepEqual(find("auto-gated"), [2]);
      assert.deepEqual(find("retry 2"), [4]);
      assert.deepEqual(find("evidence recorded"), [5]);
      assert.deepEqual(find("plan created"), [1]);
      assert.deepEqual(find("plan replaced"), [6]);
      assert.deepEqual(find("unknown"), [], "no word a row does not show");
    });
  });

  describe("rows, folding and grouping", () => {
    it("folds a snapshot into the entry it follows, newest first, with one group header", () => {
      const index = ledgerIndex(
        entries([
          { op: "init_plan" },
          snap(),
          status("1", "pending", "in_progress"),
          snap(),
          status("1", "in_progress", "coded"),
        ]),
      );
      const p = pageOf(index, q());
      assert.equal(p.total, 4);
      // Three rows shown, two snapshots folded into them: the counts add up to what is seen.
      assert.equal(p.matched, 3);
      assert.equal(p.folded, 2);
      assert.equal(p.rows[0].kind, "group");
      assert.deepEqual(seqs(p.rows), [5, 3, 1]);
      const r3 = p.rows[2] as TimelineEntryRow;
      assert.deepEqual(r3.snapshot && r3.snapshot.rowId, 4);
      assert.equal((p.rows[1] as TimelineEntryRow).snapshot, null);
      const unfolded = pageOf(index, q({}, false));
      assert.deepEqual(seqs(unfolded.rows), [5, 4, 3, 2, 1]);
      assert.equal(unfolded.total, 6);
      assert.deepEqual([unfolded.matched, unfolded.folded], [5, 0]);
      // A task filter: its entries are the rows, the snapshots after them folded (counted apart, not as rows).
      const task = pageOf(index, q({ taskId: "1" }));
      assert.deepEqual(seqs(task.rows), [5, 3]);
      assert.deepEqual([task.matched, task.folded], [2, 1]);
    });

    it("does not fold a snapshot of another session, after a snapshot, or with a broken chain", () => {
      const index = ledgerIndex(
        entries([
          { op: "init_plan" },
          snap({ sessionId: "other" }),
          snap({ sessionId: "other" }),
          status("1", "pending", "coded"),
          snap({ chain: "self_hash_mismatch" }),
        ]),
      );
      assert.deepEqual(seqs(pageOf(index, q()).rows), [5, 4, 3, 2, 1]);
    });

    it("folds the snapshot even when a task filter hides it on its own", () => {
      const index = ledgerIndex(
        entries([
          { op: "init_plan" },
          status("1", "pending", "coded"),
          snap(),
          status("2", "pending", "coded"),
          snap(),
        ]),
      );
      const p = pageOf(index, q({ taskId: "1" }));
      assert.deepEqual(seqs(p.rows), [2]);
      assert.equal((p.rows[1] as TimelineEntryRow).snapshot?.rowId, 3);
    });

    it("starts a group when the session or the local day changes", () => {
      const at = (h: number, m: number) => new Date(Date.UTC(2026, 2, 1, h, m)).toISOString();
      const next = (h: number, m: number) => new Date(Date.UTC(2026, 2, 2, h, m)).toISOString();
      const es = entries([
        { op: "init_plan", timestamp: at(23, 0) },
        status("1", "pending", "coded", { timestamp: at(23, 30) }),
        status("1", "coded", "tested", { timestamp: next(0, 30) }),
        status("1", "tested", "complete", { timestamp: next(1, 0), sessionId: "s2" }),
      ]);
      const index = ledgerIndex(es);
      const groups = (tz: string) =>
        pageOf(index, q({}, true, tz))
          .rows.filter((r) => r.kind === "group")
          .map((g) => (g.kind === "group" ? `${g.actor} ${g.day} ${g.entries}` : ""));
      assert.deepEqual(groups("UTC"), ["s2 2026-03-02 1", "s1 2026-03-02 1", "s1 2026-03-01 2"]);
      assert.deepEqual(groups("America/New_York"), ["s2 2026-03-01 1", "s1 2026-03-01 3"]);
      assert.deepEqual(groups("Not/AZone"), groups("UTC"));
    });
  });

  describe("paging, jump and anchor", () => {
    const n = 1000;
    const es = entries(
      Array.from({ length: n }, (_, i) =>
        i % 2 === 1 ? snap() : status(String(i % 7), "pending", i % 3 ? "coded" : "tested"),
      ),
    );
    const index = ledgerIndex(es, 7);

    it("pages cover the display rows exactly once, newest first", () => {
      const first = pageOf(index, q());
      const headers = first.rows.filter((r) => r.kind === "group").length;
      assert.equal(headers, 2, "1000 minutes from 10:00 UTC span two days");
      assert.equal(first.total, n / 2 + headers);
      const seen: number[] = [];
      for (let offset = 0; offset < first.total; offset += 64) {
        seen.push(...seqs(pageOf(index, q(), { offset, limit: 64 }).rows));
      }
      assert.deepEqual(
        seen,
        Array.from({ length: n / 2 }, (_, i) => n - 1 - 2 * i),
      );
      assert.equal(first.generation, 7);
      assert.equal(pageOf(index, q(), { offset: first.total, limit: 10 }).rows.length, 0);
    });

    it("locates a seq (a folded snapshot lands on its entry) and reports hidden ones as null", () => {
      const p = pageOf(index, q(), { limit: 0, locateRowId: 999, anchorRowId: 998 });
      assert.equal(p.rows.length, 0);
      assert.equal(p.located, 1);
      assert.equal(p.anchorRow, 2);
      assert.equal(pageOf(index, q(), { limit: 0, locateRowId: 1000 }).located, 1);
      assert.equal(pageOf(index, q({ status: "tested" }), { limit: 0, locateRowId: 3 }).located, null);
      assert.equal(pageOf(index, q(), { limit: 0, locateRowId: 5000 }).located, null);
    });

    it("an append shifts the old rows by the rows inserted above them", () => {
      const full = entries([
        { op: "init_plan" },
        status("1", "pending", "coded"),
        snap(),
        status("1", "coded", "tested"),
        snap(),
      ]);
      const live = full.slice(0, 3);
      const li = ledgerIndex(live);
      const before = pageOf(li, q(), { anchorRowId: 1 });
      live.push(...full.slice(3));
      const after = pageOf(li, q(), { anchorRowId: 1 });
      assert.equal(after.total - before.total, 1);
      assert.equal(after.anchorRow! - before.anchorRow!, 1);
      assert.deepEqual(seqs(after.rows), [4, 2, 1]);
    });

    it("facets count ops, resulting statuses, sessions and tasks", () => {
      const f = pageOf(index, q(), { limit: 0, facets: true }).facets!;
      assert.deepEqual(f.actions, [
        { value: "snapshot", count: 500 },
        { value: "update_task_status", count: 500 },
      ]);
      assert.deepEqual(
        f.statuses.map((s) => s.value),
        ["coded", "tested"],
      );
      assert.deepEqual(f.actors, [{ value: "s1", count: 1000 }]);
      assert.equal(f.tasks.length, 7);
    });
  });

  describe("local days", () => {
    it("finds the local day across DST switches with a few Intl calls", () => {
      const ny = new LocalDays("America/New_York");
      const fmt = new Intl.DateTimeFormat("en-CA", {
        timeZone: "America/New_York",
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      });
      for (let ms = Date.UTC(2026, 2, 1); ms < Date.UTC(2026, 11, 31); ms += 3_600_000 * 7 + 60_000 * 13) {
        assert.equal(ny.dayOf(ms), fmt.format(new Date(ms)), new Date(ms).toISOString());
      }
      assert.equal(new LocalDays("Asia/Kolkata").dayOf(Date.UTC(2026, 0, 1, 18, 45)), "2026-01-02");
      assert.equal(new LocalDays("Bogus/Zone").zone, "UTC");
    });
  });

  describe("chain state", () => {
    const e = entries([{ op: "init_plan" }, status("1", "pending", "coded", { chain: "prev_hash_mismatch" }), snap()]);
    it("ok before the break, broken at it, unverified after it", () => {
      const brk = { index: 1, kind: "prev_hash_mismatch", here: true };
      assert.deepEqual(
        e.map((x, i) => chainStateAt(x, i, brk)),
        ["ok", "broken", "unverified"],
      );
      assert.deepEqual(
        e.map((x, i) => chainStateAt({ ...x, chainProblem: "ok" }, i, { index: 1, kind: "invalid_json", here: false })),
        ["ok", "unverified", "unverified"],
      );
      const p = ledgerIndex(e).page(q({}, false), all, noTitles, 1, brk);
      assert.equal(p.brokenRowId, 2);
      assert.deepEqual(
        p.rows
          .filter((r): r is TimelineEntryRow => r.kind === "entry")
          .map((r) => `${r.rowId}:${r.chain?.state}:${r.chain?.problem}`),
        ["3:unverified:null", "2:broken:prev_hash_mismatch", "1:ok:null"],
      );
    });
  });

  describe("100,000 entries", function () {
    this.timeout(60_000);
    it("builds a filtered view in well under a second and pages in milliseconds", () => {
      const N = 100_000;
      const ops = [
        "update_task_status",
        "snapshot",
        "append_evidence",
        "update_task_status",
        "snapshot",
        "impl_tournament_complete",
      ];
      const big: EntrySummary[] = [];
      for (let i = 0; i < N; i++) {
        const op = ops[i % ops.length];
        big.push({
          seq: i + 1,
          line: i + 1,
          start: i * 300,
          end: i * 300 + 299,
          op,
          sessionId: `sess-${Math.floor(i / 5000)}`,
          timestamp: new Date(Date.UTC(2026, 0, 1) + i * 30_000).toISOString().replace("Z", "+00:00"),
          selfHash: i.toString(16).padStart(64, "0"),
          taskId: op === "snapshot" ? null : `${1 + (i % 20)}.${1 + (i % 25)}`,
          fromStatus: op === "update_task_status" ? "pending" : null,
          toStatus: op === "update_task_status" ? "in_progress" : null,
          retryCount: null,
          escalated: false,
          chain: "ok",
        });
      }
      const index = ledgerIndex(big.map(ledgerRowOf));
      let t = performance.now();
      const first = pageOf(index, q(), { limit: 200, facets: true });
      const buildMs = performance.now() - t;
      t = performance.now();
      for (let k = 0; k < 100; k++) pageOf(index, q(), { offset: k * 600, limit: 200 });
      const pageMs = (performance.now() - t) / 100;
      t = performance.now();
      const filtered = pageOf(index, q({ text: "7.1" }), { limit: 200 });
      const textMs = performance.now() - t;
      console.log(
        `      100k: first page ${buildMs.toFixed(0)} ms (view + facets), page ${pageMs.toFixed(2)} ms, text filter ${textMs.toFixed(0)} ms; ${first.total} rows`,
      );
      assert.ok(first.total > 60_000 && first.total < 70_000);
      assert.ok(filtered.matched > 0);
    });
  });
});
