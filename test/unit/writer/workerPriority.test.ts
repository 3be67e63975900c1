/**
 * The order the state worker serves requests in (requestScheduler.ts, and the thread's dispatch in
 * stateWorker.ts): a refresh that arrives behind a timeline page of its folder, or while the graph
 * is asked, is served first, instead of first come first served (issue 30: "live within a second").
 * Requests are held on gates the test opens, so the order is what the scheduler chose, not timing.
 */
import { strict as assert } from "node:assert";
import { requestDispatch, requestPriority } from "../../../src/core/worker/stateWorker";
import { RequestScheduler, type SchedulerClock } from "../../../src/core/worker/requestScheduler";
import type { WorkerMessage, WorkerRequest } from "../../../src/core/worker/workerProtocol";

const CWD = "/ws/a";

/** A handler whose every request waits until the test opens its gate; `started` lists the ids in order. */
function gatedHandler() {
  const started: number[] = [];
  const gates = new Map<number, () => void>();
  const handle = (req: WorkerRequest) =>
    new Promise<unknown>((resolve) => {
      started.push(req.id);
      gates.set(req.id, () => resolve(req.id));
    });
  const open = async (id: number) => {
    const gate = gates.get(id);
    assert.ok(gate, `request ${id} has not started (started: ${started.join(", ")})`);
    gate();
    await new Promise((r) => setImmediate(r));
  };
  return { started, handle, open };
}

/** A clock the test moves (no real waiting). */
function fakeClock(): SchedulerClock & { advance(ms: number): void } {
  let t = 0;
  const timers: { at: number; wake: () => void }[] = [];
  return {
    now: () => t,
    later: (wake, ms) => void timers.push({ at: t + ms, wake }),
    advance(ms) {
      t += ms;
      for (const x of timers.splice(0).sort((a, b) => a.at - b.at)) {
        if (x.at <= t) x.wake();
        else timers.push(x);
      }
    },
  };
}

const tick = () => new Promise((r) => setImmediate(r));
const refresh = (id: number): WorkerRequest => ({ id, type: "refresh", cwd: CWD, kind: "fake" });
const detail = (id: number): WorkerRequest => ({ id, type: "timelineDetail", cwd: CWD, kind: "fake", rowId: 1 });
const page = (id: number): WorkerRequest =>
  ({
    id,
    type: "timelinePage",
    cwd: CWD,
    kind: "fake",
    query: { filter: {}, foldSnapshots: true, timeZone: "UTC" },
    offset: 0,
    limit: 10,
    anchorRowId: null,
    locateRowId: null,
    facets: false,
  }) as unknown as WorkerRequest;
const graph = (id: number): WorkerRequest => ({ id, type: "graph", cwd: CWD });

describe("state worker: which request is served first", () => {
  it("serves a refresh queued behind a timeline page of its folder first", async () => {
    const h = gatedHandler();
    const posted: WorkerMessage[] = [];
    const send = requestDispatch(h.handle, (m) => posted.push(m), new RequestScheduler(1000, fakeClock()));
    send(detail(1)); // running: the folder's lane is busy
    send(page(2));
    send(page(3));
    send(refresh(4));
    await tick();
    assert.deepEqual(h.started, [1]);
    await h.open(1);
    assert.deepEqual(h.started, [1, 4], "the refresh goes before the pages that came first");
    await h.open(4);
    await h.open(2);
    await h.open(3);
    assert.deepEqual(h.started, [1, 4, 2, 3], "the pages keep their own order");
    const answered = posted.filter((m) => m.kind === "result").map((m) => (m as { id: number }).id);
    assert.deepEqual(answered, [1, 4, 2, 3]);
    const waited = posted.find((m) => m.kind === "result" && m.id === 2) as { timing?: { waitMs: number } };
    assert.ok(waited.timing && waited.timing.waitMs >= 0, "each answer says how long it waited");
  });

  it("holds the graph back while a refresh waits or runs, until the refresh is answered", async () => {
    const h = gatedHandler();
    const send = requestDispatch(h.handle, () => undefined, new RequestScheduler(1000, fakeClock()));
    send(refresh(1));
    send(graph(2)); // another lane, but the same thread
    await tick();
    assert.deepEqual(h.started, [1], "the graph does not start beside a running refresh");
    await h.open(1);
    assert.deepEqual(h.started, [1, 2]);
  });

  it("starts a held background request after the hold, so a steady writer cannot starve it", async () => {
    const h = gatedHandler();
    const clock = fakeClock();
    const send = requestDispatch(h.handle, () => undefined, new RequestScheduler(1000, clock));
    send(refresh(1));
    send(graph(2));
    await tick();
    clock.advance(999);
    await tick();
    assert.deepEqual(h.started, [1]);
    clock.advance(1);
    await tick();
    assert.deepEqual(h.started, [1, 2], "released after 1000 ms although the refresh still runs");
  });

  it("keeps first come first served among requests of the same priority", async () => {
    const h = gatedHandler();
    const send = requestDispatch(h.handle, () => undefined, new RequestScheduler(1000, fakeClock()));
    send(refresh(1));
    send(detail(2));
    send(detail(3));
    send(refresh(4));
    await tick();
    await h.open(1);
    await h.open(4);
    await h.open(2);
    await h.open(3);
    assert.deepEqual(h.started, [1, 4, 2, 3]);
  });

  it("ranks the requests: refresh live, timeline page normal, graph background, a source's own by the source", () => {
    assert.equal(requestPriority(refresh(1)), "live");
    assert.equal(requestPriority(page(1)), "normal");
    assert.equal(requestPriority(graph(1)), "background");
    assert.equal(requestPriority(detail(1)), "normal");
    const own = (type: string): WorkerRequest => ({
      id: 1,
      type: "source",
      cwd: CWD,
      kind: "autodev",
      request: { type },
    });
    assert.equal(requestPriority(own("refresh")), "live", "AutoDev's refresh is live");
    assert.equal(requestPriority(own("taskEvidence")), "normal");
    assert.equal(
      requestPriority({ id: 1, type: "source", cwd: CWD, kind: "no-such-kind", request: { type: "refresh" } }),
      "normal",
    );
  });
});
