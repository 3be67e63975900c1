/**
 * Source timelines through the worker's source-neutral requests: a fake source's rows
 * become timeline pages with the ledger timeline's filters (action → op,
 * actor → session), carry their summary, give details and their file:line;
 * and AutoDev's own source lists its ledger entries.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { DistributiveOmit, WorkerRequest } from "../../../src/core/worker/workerProtocol";
import { registerSourceForTest } from "../../../src/core/sources/sourceRegistry";
import { SourceTimelineRow, StateSource } from "../../../src/core/sources/stateSource";
import { autodevSource } from "../../../src/core/sources/autodev/autodevSource";
import { EMPTY_FILTER } from "../../../src/core/timeline/timelineQuery";
import { LOG_TIMELINE_FEATURES } from "../../../src/core/timeline/logTimelineFeatures";
import type { TimelineEntryDetail, TimelineEntryRow, TimelinePage } from "../../../src/protocolTimeline";
import { REPO_ROOT } from "../fixtures";

const ROWS: SourceTimelineRow[] = [
  {
    index: 1,
    time: "2026-01-01T10:00:00Z",
    actor: "coordinator",
    action: "phase_change",
    taskId: null,
    status: null,
    summary: "plan → execute",
    file: ".fake/log.json",
    line: 2,
  },
  {
    index: 2,
    time: "2026-01-01T10:05:00Z",
    actor: "executor",
    action: "task_done",
    taskId: "T-1",
    status: "complete",
    summary: "wrote a.ts",
    file: ".fake/log.json",
    line: 3,
  },
  {
    index: 3,
    time: "2026-01-01T10:09:00Z",
    actor: "verifier",
    action: "verify",
    taskId: "T-1",
    status: "passed",
    summary: "all criteria met",
    file: ".fake/log.json",
    line: 4,
  },
];

const fake: StateSource = {
  kind: "fake-timeline",
  displayName: "Fake",
  async detect(workspace) {
    return fs.existsSync(path.join(workspace, ".fake"))
      ? { kind: "fake-timeline", workspace, dir: path.join(workspace, ".fake"), relDir: ".fake" }
      : null;
  },
  watchGlobs: () => [".fake/**"],
  check: async () => [],
  summarize: async () => ({}),
  tree: async () => [],
  timeline: async () => ROWS,
};

let nextId = 1;
/** One request through the worker's dispatcher, in this thread (so a test-registered source is seen). */
function handleSourceRequest(req: DistributiveOmit<WorkerRequest, "id">): Promise<unknown> {
  return handleRequest({ ...req, id: nextId++ } as WorkerRequest, () => undefined);
}

function query(filter: Partial<typeof EMPTY_FILTER> = {}) {
  return {
    query: { filter: { ...EMPTY_FILTER, ...filter }, foldSnapshots: true, timeZone: "UTC" },
    offset: 0,
    limit: 50,
    anchorRowId: null,
    locateRowId: null,
    facets: true,
  };
}

function entries(page: TimelinePage): TimelineEntryRow[] {
  return page.rows.filter((r): r is TimelineEntryRow => r.kind === "entry");
}

describe("source timelines in the worker", () => {
  let dir: string;
  let unregister: () => void;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "srctl-"));
    fs.mkdirSync(path.join(dir, ".fake"));
    unregister = registerSourceForTest(fake);
  });
  after(() => unregister());

  it("detects the source with its timeline, refreshes it and pages its rows newest first with summaries", async () => {
    const found = (await handleSourceRequest({ type: "detect", cwd: dir })) as {
      kind: string;
      hasTimeline: boolean;
    }[];
    assert.deepEqual(
      found.map((d) => [d.kind, d.hasTimeline]),
      [["fake-timeline", true]],
    );
    const snap = (await handleSourceRequest({ type: "refresh", cwd: dir, kind: "fake-timeline" })) as {
      timelineRows: number;
    };
    assert.equal(snap.timelineRows, 3);
    const page = (await handleSourceRequest({
      type: "timelinePage",
      cwd: dir,
      kind: "fake-timeline",
      ...query(),
    })) as TimelinePage;
    assert.deepEqual(
      entries(page).map((r) => [r.rowId, r.action, r.actor, r.taskId, r.toStatus, r.summary]),
      [
        [3, "verify", "verifier", "T-1", "passed", "all criteria met"],
        [2, "task_done", "executor", "T-1", "complete", "wrote a.ts"],
        [1, "phase_change", "coordinator", null, null, "plan → execute"],
      ],
    );
    assert.deepEqual(page.facets?.actions.map((f) => f.value).sort(), ["phase_change", "task_done", "verify"]);
    // Three agents taking turns on one day: one day header, not one per agent (a source without features is a log).
    assert.deepEqual(
      page.rows.filter((r) => r.kind === "group").map((g) => (g.kind === "group" ? [g.day, g.actor, g.entries] : [])),
      [["2026-01-01", "", 3]],
    );
  });

  it("filters by action, actor and task like the ledger timeline", async () => {
    const byOp = (await handleSourceRequest({
      type: "timelinePage",
      cwd: dir,
      kind: "fake-timeline",
      ...query({ actions: ["task_done"] }),
    })) as TimelinePage;
    assert.deepEqual(
      entries(byOp).map((r) => r.rowId),
      [2],
    );
    const byActor = (await handleSourceRequest({
      type: "timelinePage",
      cwd: dir,
      kind: "fake-timeline",
      ...query({ actor: "verifier" }),
    })) as TimelinePage;
    assert.deepEqual(
      entries(byActor).map((r) => r.rowId),
      [3],
    );
    const byTask = (await handleSourceRequest({
      type: "timelinePage",
      cwd: dir,
      kind: "fake-timeline",
      ...query({ taskId: "T-1" }),
    })) as TimelinePage;
    assert.deepEqual(
      entries(byTask).map((r) => r.rowId),
      [3, 2],
    );
    // Find searches the summary a row shows (issue 22 item 4).
    const bySummary = (await handleSourceRequest({
      type: "timelinePage",
      cwd: dir,
      kind: "fake-timeline",
      ...query({ text: "criteria MET" }),
    })) as TimelinePage;
    assert.deepEqual(
      entries(bySummary).map((r) => r.rowId),
      [3],
    );
  });

  it("gives a row's details and its file and line", async () => {
    const detail = (await handleSourceRequest({
      type: "timelineDetail",
      cwd: dir,
      kind: "fake-timeline",
      rowId: 2,
    })) as TimelineEntryDetail;
    assert.equal(detail.row.summary, "wrote a.ts");
    assert.equal(detail.file, ".fake/log.json");
    // A row that names no fields of its own gets the default ones: who, what, which task, status, summary.
    assert.deepEqual(
      detail.fields.map((f) => [f.name, f.value]),
      [
        ["time", "2026-01-01T10:05:00Z"],
        ["agent", "executor"],
        ["action", "task_done"],
        ["task", "T-1"],
        ["status", "complete"],
        ["summary", "wrote a.ts"],
      ],
    );
    assert.deepEqual(
      [detail.chain, detail.record, detail.planChange],
      [null, null, null],
      "a log's details carry none of the opt-in parts",
    );
    assert.deepEqual(await handleSourceRequest({ type: "timelineRef", cwd: dir, kind: "fake-timeline", rowId: 3 }), {
      rowId: 3,
      file: ".fake/log.json",
      line: 4,
      copy: {},
    });
    assert.equal(
      await handleSourceRequest({ type: "timelineDetail", cwd: dir, kind: "fake-timeline", rowId: 99 }),
      null,
    );
  });

  it("a source's own words decide what its rows did, what they say and what find and 'changes only' match", async () => {
    const worded: StateSource = {
      ...fake,
      kind: "fake-worded",
      detect: async (workspace) => ({
        kind: "fake-worded",
        workspace,
        dir: path.join(workspace, ".fake"),
        relDir: ".fake",
      }),
      timelineFeatures: {
        ...LOG_TIMELINE_FEATURES,
        groupByActor: true,
        words: {
          ...LOG_TIMELINE_FEATURES.words,
          actions: { phase_change: { icon: "milestone", words: "phase moved on", change: true } },
          statuses: { passed: { icon: "check", color: "charts.green", label: "verified" } },
        },
      },
    };
    const off = registerSourceForTest(worded);
    try {
      await handleSourceRequest({ type: "refresh", cwd: dir, kind: "fake-worded" });
      const ask = async (filter: Partial<typeof EMPTY_FILTER>) =>
        entries(
          (await handleSourceRequest({
            type: "timelinePage",
            cwd: dir,
            kind: "fake-worded",
            ...query(filter),
          })) as TimelinePage,
        );
      const rows = await ask({});
      assert.deepEqual(
        rows.map((r) => [r.rowId, r.change, r.note, r.chain, r.retry, r.snapshot]),
        [
          [3, "status", "", null, null, null],
          [2, "status", "", null, null, null],
          [1, "changed", "phase moved on", null, null, null],
        ],
      );
      // Find matches the words the rows show, in the source's own words: its status label and its action's words.
      assert.deepEqual(
        (await ask({ text: "verified" })).map((r) => r.rowId),
        [3],
      );
      assert.deepEqual(
        (await ask({ text: "phase moved" })).map((r) => r.rowId),
        [1],
      );
      // The same words in the plain log (no words of its own) match nothing.
      const plain = (await handleSourceRequest({
        type: "timelinePage",
        cwd: dir,
        kind: "fake-timeline",
        ...query({ text: "verified" }),
      })) as TimelinePage;
      assert.equal(plain.matched, 0);
      // An action the source counts as a change stays under "changes only".
      assert.deepEqual(
        (await ask({ changesOnly: true })).map((r) => r.rowId),
        [3, 2, 1],
      );
      // Grouped by actor, as its features say: one header per agent's run.
      const page = (await handleSourceRequest({
        type: "timelinePage",
        cwd: dir,
        kind: "fake-worded",
        ...query(),
      })) as TimelinePage;
      assert.equal(page.rows.filter((r) => r.kind === "group").length, 3);
    } finally {
      off();
    }
  });

  it("refuses an unknown kind with a clear error", async () => {
    await assert.rejects(
      handleSourceRequest({ type: "refresh", cwd: dir, kind: "nope" }),
      /no state source of kind "nope"/,
    );
  });

  it("AutoDev's source lists its ledger entries as rows (op, session, status change)", async () => {
    const loc = await autodevSource.detect(path.join(REPO_ROOT, "test/fixtures/python-small"));
    assert.ok(loc);
    const rows = await autodevSource.timeline!(loc);
    assert.equal(rows.length, 21);
    const change = rows.find((r) => r.status !== null)!;
    assert.equal(change.file, ".autodev/plan-ledger.jsonl");
    assert.match(change.summary, /→/);
    assert.equal(rows[0].action, "init_plan");
  });
});
