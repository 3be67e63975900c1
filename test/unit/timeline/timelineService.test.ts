// The timeline's worker side (src/core/sources/autodev/timeline/ledgerTimelineService.ts, reached through the worker's
// handleRequest): pages over real fixtures, details read from the entry's byte range with the plan
// diff, live appends, a tampered ledger's chain states, and the hostile fixture (written by the
// core's writer; the committed copy must be exactly what the generator writes).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { TimelineEntryRow, TimelinePage, TimelineQuery } from "../../../src/protocolTimeline";
import { appendEntry } from "../../../src/core/sources/autodev/ledger/ledgerWriter";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import { WorkerMessage, WorkerRequest, WorkerResults } from "../../../src/core/worker/workerProtocol";
import { EMPTY_FILTER } from "../../../src/core/timeline/timelineQuery";
import { HOSTILE_SESSIONS, HOSTILE_TASK_ID, writeHostileFixture } from "./timelineHostileFixture";

const ROOT = path.resolve(__dirname, "..", "..", "..", "..");
const FIXTURES = path.join(ROOT, "test", "fixtures");
let nextId = 1;

async function ask<T extends WorkerRequest["type"]>(
  req: Omit<Extract<WorkerRequest, { type: T }>, "id">,
): Promise<WorkerResults[T]> {
  return (await handleRequest({ ...req, id: nextId++ } as WorkerRequest, () => undefined)) as WorkerResults[T];
}

function copyFixture(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `autodev-timeline-${name}-`));
  fs.cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

const query = (filter: Partial<TimelineQuery["filter"]> = {}, foldSnapshots = true): TimelineQuery => ({
  filter: { ...EMPTY_FILTER, ...filter },
  foldSnapshots,
  timeZone: "UTC",
});
const page = (
  cwd: string,
  q = query(),
  extra: Partial<{
    offset: number;
    limit: number;
    anchorRowId: number | null;
    locateRowId: number | null;
    facets: boolean;
  }> = {},
): Promise<TimelinePage> =>
  ask<"timelinePage">({
    type: "timelinePage",
    cwd,
    kind: "autodev",
    query: q,
    offset: 0,
    limit: 500,
    anchorRowId: null,
    locateRowId: null,
    facets: false,
    ...extra,
  });
const entryRows = (p: TimelinePage) => p.rows.filter((r): r is TimelineEntryRow => r.kind === "entry");

describe("timeline worker service", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const fixture = async (name: string) => {
    const dir = copyFixture(name);
    dirs.push(dir);
    await ask<"source">({ type: "source", kind: "autodev", cwd: dir, request: { type: "refresh" } });
    return dir;
  };

  it("pages the Python-written fixture: snapshots folded, one session group, status changes known by replay", async () => {
    const cwd = await fixture("python-small");
    const p = await page(cwd, query(), { facets: true });
    assert.equal(p.entries, 21);
    assert.equal(p.rows[0].kind, "group");
    const rows = entryRows(p);
    assert.deepEqual(
      rows.map((r) => r.rowId),
      [20, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1],
    );
    const r3 = rows.find((r) => r.rowId === 3)!;
    assert.deepEqual(
      [r3.taskId, r3.fromStatus, r3.toStatus, r3.change, r3.chain?.state, r3.snapshot?.rowId],
      ["1.1", "pending", "in_progress", "status", "ok", 4],
    );
    assert.equal(r3.taskTitle, "Create hello module");
    assert.equal(rows.find((r) => r.rowId === 20)!.snapshot?.rowId, 21);
    assert.ok(p.facets!.actions.some((o) => o.value === "update_task_status"));
    const unfolded = await page(cwd, query({}, false));
    assert.equal(entryRows(unfolded).length, 21);
    const blocked = await page(cwd, query({ status: "blocked" }));
    assert.deepEqual(
      entryRows(blocked).map((r) => r.rowId),
      [13],
    );
  });

  it("details: the payload from the entry's bytes, prev_hash, and what changed in the plan", async () => {
    const cwd = await fixture("python-small");
    const d3 = (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 3 }))!;
    assert.match(d3.record!.text, /"task_id": "1\.1"/);
    assert.deepEqual([d3.record!.chars, d3.record!.truncated], [d3.record!.text.length, false]);
    assert.equal(
      d3.chain!.prevHash,
      entryRows(await page(cwd, query({}, false))).find((r) => r.rowId === 2)!.chain?.hash,
    );
    assert.deepEqual(d3.planChange!.diff!.changed, [
      {
        taskId: "1.1",
        title: "Create hello module",
        fields: [{ field: "status", from: "pending", to: "in_progress" }],
      },
    ]);
    const d7 = (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 7 }))!;
    assert.deepEqual(d7.planChange!.diff!.changed[0].fields, [{ field: "retry_count", from: "0", to: "1" }]);
    const d17 = (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 17 }))!;
    assert.deepEqual(
      d17.planChange!.diff!.changed[0].fields.map((f) => f.field),
      ["escalated"],
    );
    const snap = (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 4 }))!;
    assert.equal(
      snap.planChange!.diff!.changed.length +
        snap.planChange!.diff!.added.length +
        snap.planChange!.diff!.removed.length,
      0,
    );
    assert.deepEqual(
      (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 19 }))!.planChange,
      { diff: null, error: null },
      "an entry that does not touch the plan has the part, with nothing in it",
    );
    const plan = (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 20 }))!;
    assert.equal(plan.planChange!.diff!.baseSeq, 19);
    assert.equal(await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 99 }), null);
    const ref = (await ask<"timelineRef">({ type: "timelineRef", cwd, kind: "autodev", rowId: 3 }))!;
    assert.deepEqual([ref.file, ref.line, ref.copy.prev_hash], [".autodev/plan-ledger.jsonl", 3, d3.chain!.prevHash]);
  });

  it("live appends grow the same generation and shift the old rows", async () => {
    const cwd = await fixture("python-small");
    const before = await page(cwd, query(), { anchorRowId: 3 });
    await appendEntry(
      cwd,
      "update_task_status",
      new Map([
        ["task_id", "1.3"],
        ["status", "in_progress"],
      ]),
      "sess-live",
    );
    await appendEntry(
      cwd,
      "append_evidence",
      new Map([
        ["task_id", "1.3"],
        ["path", "e.json"],
      ]),
      "sess-live",
    );
    await ask<"source">({ type: "source", kind: "autodev", cwd, request: { type: "refresh" } });
    const after = await page(cwd, query(), { anchorRowId: 3 });
    assert.equal(after.generation, before.generation);
    assert.equal(after.entries, 23);
    assert.equal(after.total - before.total, 3, "a new session group and two entries");
    assert.equal(after.anchorRow! - before.anchorRow!, 3);
    const top = entryRows(after)[0];
    assert.deepEqual([top.rowId, top.actor, top.change, top.note], [23, "sess-live", "noted", "evidence recorded"]);
  });

  it("a tampered ledger (through the bundled worker thread): broken at the edited entry, unverified after it", async function () {
    // The real runtime path: dist/stateWorker.js in a worker thread (the unbundled out/ copy cannot
    // load the tail reader that a broken ledger needs: its dynamic import has no file extension).
    const bundle = path.join(ROOT, "dist", "stateWorker.js");
    assert.ok(fs.existsSync(bundle), `${bundle} is missing: build first (npm run build)`);
    const cwd = copyFixture("python-small");
    dirs.push(cwd);
    const file = path.join(cwd, ".autodev", "plan-ledger.jsonl");
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines[12] = lines[12].replace('"waiting on 1.1"', '"waiting on 1.9"');
    fs.writeFileSync(file, lines.join("\n"));
    const worker = new Worker(bundle);
    try {
      const call = <T extends WorkerRequest["type"]>(req: Omit<Extract<WorkerRequest, { type: T }>, "id">) =>
        new Promise<WorkerResults[T]>((resolve, reject) => {
          const id = nextId++;
          const onMessage = (m: WorkerMessage) => {
            if (m.kind !== "result" || m.id !== id) return;
            worker.off("message", onMessage);
            if (m.ok) resolve(m.result as WorkerResults[T]);
            else reject(new Error(m.error));
          };
          worker.on("message", onMessage);
          worker.postMessage({ ...req, id });
        });
      await call<"source">({ type: "source", kind: "autodev", cwd, request: { type: "refresh" } });
      const p = await call<"timelinePage">({
        type: "timelinePage",
        cwd,
        kind: "autodev",
        query: query({}, false),
        offset: 0,
        limit: 100,
        anchorRowId: null,
        locateRowId: null,
        facets: false,
      });
      assert.equal(p.brokenRowId, 13);
      const chain = new Map(entryRows(p).map((r) => [r.rowId, r.chain?.state]));
      assert.deepEqual([chain.get(12), chain.get(13), chain.get(14)], ["ok", "broken", "unverified"]);
      const d = (await call<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 13 }))!;
      assert.ok(
        d.problems.some((m) => /self_hash mismatch/.test(m)),
        d.problems.join("\n"),
      );
    } finally {
      await worker.terminate();
    }
  });

  it("the committed hostile fixture is what the generator writes, and it reads as plain data", async () => {
    const gen = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-hostile-"));
    dirs.push(gen);
    assert.equal(writeHostileFixture(gen), 14);
    for (const f of ["plan-ledger.jsonl", "plan.json"]) {
      assert.equal(
        fs.readFileSync(path.join(gen, ".autodev", f), "utf8"),
        fs.readFileSync(path.join(FIXTURES, "hostile", ".autodev", f), "utf8"),
        `${f} is stale: rerun node out/test/unit/timeline/timelineHostileFixture.js test/fixtures/hostile`,
      );
    }
    const cwd = await fixture("hostile");
    const p = await page(cwd, query({}, false), { facets: true });
    assert.equal(p.entries, 14);
    assert.equal(p.brokenRowId, null);
    const rows = entryRows(p);
    assert.ok(rows.some((r) => r.taskId === HOSTILE_TASK_ID && r.toStatus === "in_progress"));
    assert.ok(rows.some((r) => r.actor === HOSTILE_SESSIONS[1]));
    assert.ok(rows.some((r) => r.taskTitle?.includes("<script>")));
    const d = (await ask<"timelineDetail">({ type: "timelineDetail", cwd, kind: "autodev", rowId: 5 }))!;
    assert.match(d.record!.text, /\\u202e/, "the pretty payload escapes non-ASCII as Python's json.dumps does");
    const textFind = await page(cwd, query({ text: "<script>" }));
    assert.ok(textFind.matched > 0);
  });
});
