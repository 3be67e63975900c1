// What the host accepts from the timeline webview (src/protocolTimeline.ts): every message type in its
// exact shape, nothing else — unknown types, extra keys, wrong types, oversized values and
// non-objects are refused.
import * as assert from "node:assert/strict";
import { parseWebviewMessage } from "../../../src/protocolTimelineSchemas";

const sourceKey = "file:///work/ws|autodev";
const query = {
  filter: { actions: ["snapshot"], taskId: "1.1", actor: "", status: "", text: "abc", changesOnly: true },
  foldSnapshots: true,
  timeZone: "Europe/Berlin",
};

const VALID: unknown[] = [
  { type: "ready", sourceKey: null },
  { type: "ready", sourceKey },
  {
    type: "query",
    requestId: 1,
    sourceKey,
    query,
    offset: 0,
    limit: 200,
    anchorRowId: null,
    locateRowId: 5,
    facets: true,
  },
  { type: "details", requestId: 2, sourceKey, rowId: 3 },
  { type: "setSource", sourceKey },
  { type: "copy", sourceKey, rowId: 3, value: "prev_hash" },
  { type: "openLine", sourceKey, rowId: 3 },
  { type: "travel", sourceKey, rowId: 3 },
  { type: "backToLive", sourceKey },
  { type: "revealTask", sourceKey, taskId: "1.1", focus: false },
  {
    type: "rendered",
    sourceKey: "file:///w|autodev",
    reason: "open",
    rows: 40,
    total: 100,
    matched: 90,
    firstRowId: 100,
    ms: 12.5,
  },
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
    assert.equal(parseWebviewMessage({ type: "openLine", sourceKey, rowId: 3, line: 1 }).ok, false);
    assert.equal(
      parseWebviewMessage({
        type: "query",
        requestId: 1,
        sourceKey,
        query: { ...query, extra: 1 },
        offset: 0,
        limit: 1,
        anchorRowId: null,
        locateRowId: null,
        facets: false,
      }).ok,
      false,
    );
    assert.equal(
      parseWebviewMessage({
        type: "query",
        requestId: 1,
        sourceKey,
        query: { ...query, filter: { ...query.filter, regex: ".*" } },
        offset: 0,
        limit: 1,
        anchorRowId: null,
        locateRowId: null,
        facets: false,
      }).ok,
      false,
    );
    assert.equal(
      parseWebviewMessage(JSON.parse('{"type":"backToLive","sourceKey":"x","__proto__":{"polluted":1}}')).ok,
      false,
    );
  });

  it("refuses unknown types, missing fields and wrong types", () => {
    const bad: unknown[] = [
      { type: "executeCommand", command: "workbench.action.terminal.new" },
      { type: "openLine", sourceKey },
      { type: "openLine", sourceKey, rowId: "3" },
      { type: "openLine", sourceKey, rowId: 0 },
      { type: "openLine", sourceKey, rowId: 1.5 },
      { type: "copy", sourceKey, rowId: 3, value: "prev hash" },
      { type: "copy", sourceKey, rowId: 3, value: "x".repeat(65) },
      { type: "revealTask", sourceKey, taskId: "", focus: true },
      // The old protocol's words: a folder URI and a seq are not what the host reads any more.
      { type: "showPlanAsOf", folderUri: sourceKey, seq: 3 },
      { type: "openLine", folderUri: sourceKey, seq: 3 },
      { type: "ready" },
      { sourceKey },
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
      sourceKey,
      query,
      offset: 0,
      limit: 501,
      anchorRowId: null,
      locateRowId: null,
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
      parseWebviewMessage({ type: "revealTask", sourceKey, taskId: "x".repeat(201), focus: true }).ok,
      false,
    );
    assert.equal(parseWebviewMessage({ type: "setSource", sourceKey: "f".repeat(5000) }).ok, false);
  });

  it("explains a refusal briefly", () => {
    const r = parseWebviewMessage({ type: "openLine", sourceKey, rowId: "x" });
    assert.ok(!r.ok && r.error.includes("rowId") && r.error.length <= 500);
  });
});
