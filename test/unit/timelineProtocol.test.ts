// What the host accepts from the timeline webview (src/protocol.ts): every message type in its
// exact shape, nothing else — unknown types, extra keys, wrong types, oversized values and
// non-objects are refused.
import * as assert from "node:assert/strict";
import { parseWebviewMessage } from "../../src/protocol";

const folderUri = "file:///work/ws";
const query = {
  filter: { ops: ["snapshot"], taskId: "1.1", sessionId: "", status: "", text: "abc", changesOnly: true },
  foldSnapshots: true,
  timeZone: "Europe/Berlin",
};

const VALID: unknown[] = [
  { type: "ready", folderUri: null },
  { type: "ready", folderUri },
  { type: "query", requestId: 1, folderUri, query, offset: 0, limit: 200, anchorSeq: null, locateSeq: 5, facets: true },
  { type: "details", requestId: 2, folderUri, seq: 3 },
  { type: "setFolder", folderUri },
  { type: "copyHash", folderUri, seq: 3, which: "prev" },
  { type: "openLine", folderUri, seq: 3 },
  { type: "showPlanAsOf", folderUri, seq: 3 },
  { type: "backToLive", folderUri },
  { type: "revealTask", folderUri, taskId: "1.1", focus: false },
  { type: "rendered", reason: "open", rows: 40, total: 100, matched: 90, firstSeq: 100, ms: 12.5 },
];

describe("timeline protocol validation", () => {
  it("accepts every message type in its exact shape", () => {
    for (const m of VALID) {
      const r = parseWebviewMessage(m);
      assert.ok(r.ok, `${JSON.stringify(m)}: ${r.ok ? "" : r.error}`);
      assert.deepEqual(r.ok && r.message, m);
    }
  });

  it("refuses extra keys at any depth (strict objects)", () => {
    assert.equal(parseWebviewMessage({ type: "openLine", folderUri, seq: 3, line: 1 }).ok, false);
    assert.equal(
      parseWebviewMessage({
        type: "query",
        requestId: 1,
        folderUri,
        query: { ...query, extra: 1 },
        offset: 0,
        limit: 1,
        anchorSeq: null,
        locateSeq: null,
        facets: false,
      }).ok,
      false,
    );
    assert.equal(
      parseWebviewMessage({
        type: "query",
        requestId: 1,
        folderUri,
        query: { ...query, filter: { ...query.filter, regex: ".*" } },
        offset: 0,
        limit: 1,
        anchorSeq: null,
        locateSeq: null,
        facets: false,
      }).ok,
      false,
    );
    assert.equal(
      parseWebviewMessage(JSON.parse('{"type":"backToLive","folderUri":"x","__proto__":{"polluted":1}}')).ok,
      false,
    );
  });

  it("refuses unknown types, missing fields and wrong types", () => {
    const bad: unknown[] = [
      { type: "executeCommand", command: "workbench.action.terminal.new" },
      { type: "openLine", folderUri },
      { type: "openLine", folderUri, seq: "3" },
      { type: "openLine", folderUri, seq: 0 },
      { type: "openLine", folderUri, seq: 1.5 },
      { type: "copyHash", folderUri, seq: 3, which: "other" },
      { type: "revealTask", folderUri, taskId: "", focus: true },
      { type: "ready" },
      { folderUri },
      null,
      "openLine",
      42,
      [],
    ];
    for (const m of bad) assert.equal(parseWebviewMessage(m).ok, false, JSON.stringify(m));
  });

  it("refuses oversized values", () => {
    const big = {
      type: "query",
      requestId: 1,
      folderUri,
      query,
      offset: 0,
      limit: 501,
      anchorSeq: null,
      locateSeq: null,
      facets: false,
    };
    assert.equal(parseWebviewMessage(big).ok, false);
    assert.equal(
      parseWebviewMessage({
        ...big,
        limit: 10,
        query: { ...query, filter: { ...query.filter, text: "x".repeat(201) } },
      }).ok,
      false,
    );
    assert.equal(
      parseWebviewMessage({ ...big, limit: 10, query: { ...query, timeZone: "Europe/Berlin; rm -rf" } }).ok,
      false,
    );
    assert.equal(
      parseWebviewMessage({ type: "revealTask", folderUri, taskId: "x".repeat(201), focus: true }).ok,
      false,
    );
    assert.equal(parseWebviewMessage({ type: "setFolder", folderUri: "f".repeat(5000) }).ok, false);
  });

  it("explains a refusal briefly", () => {
    const r = parseWebviewMessage({ type: "openLine", folderUri, seq: "x" });
    assert.ok(!r.ok && r.error.includes("seq") && r.error.length <= 500);
  });
});
