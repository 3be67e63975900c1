/**
 * The timeline is told of a change of its source within its 50 ms delay even while the source keeps
 * changing (timelineController.ts): a throttle, not a debounce. In the soak (issue 30) a folder
 * refreshed every few tens of ms during a writer's burst, and a debounce held the timeline back
 * until the burst paused. The fake source changes every 10 ms; what is checked is that a message
 * was posted before the changes stopped, not how fast.
 */
import "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import type * as vscode from "vscode";
import type { SourceFolder } from "../../../src/extension/sources/sourceAdapter";
import type { StateFolders } from "../../../src/extension/sources/stateFolders";
import { TimelineController } from "../../../src/extension/timeline/timelineController";
import type { TimelineServices } from "../../../src/extension/timeline/timelineServices";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("timeline: changes of its source during a burst", () => {
  it("posts sourceChanged while the source still changes every 10 ms", async () => {
    let rows = 0;
    const source = {
      key: "file:///ws|fake",
      cwd: "/ws",
      kind: "fake",
      source: {},
      timeline: {
        label: () => "ws",
        get rows() {
          return rows;
        },
        integrity: null,
        travelRowId: null,
      },
    } as unknown as SourceFolder;
    const listeners: Array<(f: SourceFolder | undefined) => void> = [];
    const folders = {
      all: [source],
      byKey: (k: string) => (k === source.key ? source : undefined),
      onDidChange: (l: (f: SourceFolder | undefined) => void) => {
        listeners.push(l);
        return { dispose: () => undefined };
      },
    } as unknown as StateFolders;
    const posted: Array<{ type: string; rows?: number }> = [];
    const webview = {
      onDidReceiveMessage: () => ({ dispose: () => undefined }),
      postMessage: async (m: { type: string; rows?: number }) => posted.push(m),
    } as unknown as vscode.Webview;
    const services = {
      folders,
      worker: { request: () => new Promise(() => undefined) },
      log: { warn: () => undefined, error: () => undefined, info: () => undefined },
    } as unknown as TimelineServices;
    const ctrl = new TimelineController(webview, services, { sourceKey: source.key });
    await ctrl.receive({ type: "setSource", sourceKey: source.key });
    for (let i = 0; i < 30; i++) {
      rows++;
      listeners.forEach((l) => l(source));
      await sleep(10);
    }
    const during = posted.filter((m) => m.type === "sourceChanged");
    assert.ok(during.length >= 2, `told ${during.length} times during 300 ms of changes every 10 ms`);
    await sleep(80);
    const last = posted.filter((m) => m.type === "sourceChanged").pop();
    assert.equal(last?.rows, 30, "the last message has the rows after the last change");
    ctrl.dispose();
  });
});
