// One word list (issue 33): every AutoDev op and task status, and agloop's outcomes, read the same
// on every surface — the Plan tree, the hovers and pickers (the core words they call), the timeline's
// rows, the view the webview gets and the timeline's find, the CLI's `log`, the run report and the
// language-model tools — in English, and in a stand-in translation the host would hand over
// (every surface in the editor and its worker translates through the same bundle).
import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { LEDGER_OPS, TASK_STATUSES } from "../../../src/core/sources/autodev/plan/planConstants";
import { LEDGER_TIMELINE_FEATURES, LEDGER_WORDS } from "../../../src/core/sources/autodev/timeline/ledgerTimelineWords";
import { ledgerRowOf } from "../../../src/core/sources/autodev/timeline/ledgerTimeline";
import type { EntrySummary } from "../../../src/core/sources/autodev/ledger/verifyTypes";
import { AGLOOP_TIMELINE_FEATURES } from "../../../src/core/sources/agloop/agloopManifest";
import { planTree } from "../../../src/core/sources/autodev/tree/planTree";
import { taskStatusLabel } from "../../../src/core/sources/taskStatusIcons";
import { EMPTY_FILTER, TimelineIndex } from "../../../src/core/timeline/timelineQuery";
import { actionWords, changeWords, localizedFeatures, statusWord } from "../../../src/core/timeline/timelineWords";
import { setL10nBundle } from "../../../src/core/text/coreL10n";
import { reportToMarkdown } from "../../../src/core/sources/autodev/report/reportMarkdown";
import { collectRunReport } from "../../../src/core/sources/autodev/report/reportCollect";
import { autodevTaskDetail } from "../../../src/core/sources/autodev/report/agentDetails";
import type { TimelineEntryRow } from "../../../src/core/timeline/timelineTypes";
import type { TimelineFeatures } from "../../../src/core/timeline/timelineFeatureTypes";
import type { Plan } from "../../../src/core/sources/autodev/plan/schemas";
import { REPO_ROOT } from "../fixtures";

/** A stand-in translation of every word of the tables ("plan created" → "«plan created»"). */
function fakeBundle(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of Object.values(LEDGER_WORDS.actions)) out[a.words] = `«${a.words}»`;
  for (const s of Object.values(LEDGER_WORDS.statuses)) out[s.label] = `«${s.label}»`;
  for (const s of Object.values(AGLOOP_TIMELINE_FEATURES.words.statuses)) out[s.label] = `«${s.label}»`;
  out["retry {0}"] = "«retry» {0}";
  out["escalated"] = "«escalated»";
  out["{0} → {1}"] = "{0} ⇒ {1}";
  return out;
}

/** One ledger entry of `op` (a status for the status ops). */
function entry(seq: number, op: string, to: string | null, extra: Partial<EntrySummary> = {}): EntrySummary {
  return {
    seq,
    line: seq,
    start: 0,
    end: 0,
    op,
    timestamp: `2026-03-01T10:${String(seq).padStart(2, "0")}:00+00:00`,
    sessionId: "s1",
    selfHash: `${seq}`.padStart(8, "0"),
    taskId: to === null ? null : "1.1",
    fromStatus: to === null ? null : "pending",
    toStatus: to,
    retryCount: null,
    escalated: false,
    chain: "ok",
    ...extra,
  };
}

const STATUS_OPS = new Set(["update_task_status", "mark_blocked", "mark_complete"]);

/** Every op once (a status op without a status change is its note), then every status once. */
function ledger(): EntrySummary[] {
  const out: EntrySummary[] = [];
  for (const op of LEDGER_OPS) out.push(entry(out.length + 1, op, null));
  for (const s of TASK_STATUSES) out.push(entry(out.length + 1, "update_task_status", s));
  out.push(entry(out.length + 1, "update_task_status", "coded", { fromStatus: "coded", retryCount: 2 }));
  out.push(entry(out.length + 1, "update_task_status", "coded", { fromStatus: "coded", escalated: true }));
  return out;
}

function timelineRows(features: TimelineFeatures, es: EntrySummary[], text = "") {
  const index = new TimelineIndex(es.map(ledgerRowOf), 1, features);
  const page = index.page(
    { filter: { ...EMPTY_FILTER, text }, foldSnapshots: false, timeZone: "UTC" },
    { offset: 0, limit: 500, anchorRowId: null, locateRowId: null, facets: false },
    () => null,
    0,
    null,
  );
  return page.rows.filter((r): r is TimelineEntryRow => r.kind === "entry");
}

function planWith(status: string): Plan {
  return {
    plan_id: "p",
    phases: [
      { id: "1", title: "One", tasks: [{ id: "1.1", title: "T", status, depends_on: [], files: [], acceptance: [] }] },
    ],
  } as unknown as Plan;
}

for (const locale of ["en", "a stand-in translation"]) {
  describe(`one word list, every surface (${locale})`, () => {
    before(() => setL10nBundle(locale === "en" ? {} : fakeBundle()));
    after(() => setL10nBundle({}));
    const tr = (m: string) => (locale === "en" ? m : `«${m}»`);

    it("every op: the timeline row's note, the view, the hovers' words and the find agree", () => {
      const es = ledger().slice(0, LEDGER_OPS.length);
      const view = localizedFeatures(LEDGER_TIMELINE_FEATURES).words;
      const rows = new Map(timelineRows(LEDGER_TIMELINE_FEATURES, es).map((r) => [r.action, r]));
      for (const op of LEDGER_OPS) {
        const word = tr(LEDGER_WORDS.actions[op].words);
        assert.equal(actionWords(LEDGER_WORDS, op), word, `hover/picker word of ${op}`);
        assert.equal(view.actions[op].words, word, `the webview's word of ${op}`);
        if (!STATUS_OPS.has(op)) assert.equal(rows.get(op)!.note, word, `timeline note of ${op}`);
        const found = timelineRows(LEDGER_TIMELINE_FEATURES, es, word).map((r) => r.action);
        assert.ok(found.includes(op), `find "${word}" finds the ${op} row (found ${found.join(", ")})`);
      }
    });

    it("every status: the tree, the view, the change words, the find agree", () => {
      const view = localizedFeatures(LEDGER_TIMELINE_FEATURES).words;
      const es = ledger();
      for (const s of TASK_STATUSES) {
        const word = tr(LEDGER_WORDS.statuses[s].label);
        assert.equal(taskStatusLabel(s), word, `tree label of ${s}`);
        const task = planTree(planWith(s), { workspace: "/ws", retry: null, lastChanges: new Map() })[0].children?.[0];
        assert.equal(task?.description?.split(" · ")[0], word, `tree node of a ${s} task`);
        assert.equal(view.statuses[s].label, word, `the webview's label of ${s}`);
        assert.equal(statusWord(LEDGER_WORDS, s), word);
        const moved = changeWords(LEDGER_WORDS, { fromStatus: null, toStatus: s, retryCount: null, escalated: false });
        assert.ok(moved.endsWith(word), `change words "${moved}" end with ${word}`);
        const found = timelineRows(LEDGER_TIMELINE_FEATURES, es, word).map((r) => r.toStatus);
        assert.ok(found.includes(s), `find "${word}" finds the ${s} row`);
      }
      const marks = timelineRows(LEDGER_TIMELINE_FEATURES, es, tr("escalated")).map((r) => r.rowId);
      assert.deepEqual(marks, [es.length], "find matches the escalation mark as rows show it");
      const retry = locale === "en" ? "retry 2" : "«retry» 2";
      assert.deepEqual(
        timelineRows(LEDGER_TIMELINE_FEATURES, es, retry).map((r) => r.rowId),
        [es.length - 1],
      );
    });

    it("agloop's outcomes: the view and the find agree", () => {
      const view = localizedFeatures(AGLOOP_TIMELINE_FEATURES).words;
      for (const [s, w] of Object.entries(AGLOOP_TIMELINE_FEATURES.words.statuses)) {
        assert.equal(view.statuses[s].label, tr(w.label));
        assert.equal(statusWord(AGLOOP_TIMELINE_FEATURES.words, s), tr(w.label));
      }
    });
  });
}

describe("one word list: the CLI, the report and the language-model tools use the same words (English)", function () {
  this.timeout(60_000);
  const dir = path.join(REPO_ROOT, "test/fixtures/python-small");

  it("the CLI's log says what each entry did with the words of the table", () => {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist/cli.js"), "log", dir, "--json"], {
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const rows = JSON.parse(r.stdout) as Array<{
      op: string;
      from: string | null;
      to: string | null;
      retry_count: number | null;
      escalated: boolean;
      change: string | null;
    }>;
    assert.ok(rows.some((x) => x.to === "in_progress"));
    for (const x of rows) {
      const want = changeWords(LEDGER_WORDS, {
        fromStatus: x.from,
        toStatus: x.to,
        retryCount: x.retry_count,
        escalated: x.escalated,
      });
      assert.equal(x.change, want || null);
    }
    assert.ok(
      rows.some((x) => x.change?.includes("in progress")),
      "a status as the tree names it",
    );
  });

  it("the report's history and the tools' task detail name statuses as the tree does", async () => {
    const md = reportToMarkdown(await collectRunReport(dir));
    assert.match(md, /\| pending → in progress \|/);
    assert.doesNotMatch(md, /→ in_progress/);
    const detail = (await autodevTaskDetail(
      { kind: "autodev", workspace: dir, dir: path.join(dir, ".autodev"), relDir: ".autodev" },
      "1.1",
    ))!;
    const history = detail.history as Array<{ change: string }>;
    assert.ok(
      history.some((h) => h.change === "pending → in progress"),
      JSON.stringify(history),
    );
  });
});
