// The timeline's generic layers name no source's vocabulary: the worker's index and query
// (src/core/timeline/), the wire types (src/protocolTimeline.ts), the host (src/extension/timeline/)
// and the webview (webview/*.ts, webview/timeline/) hold no op, status, outcome or hash name of AutoDev or agloop in
// their code (comments may give them as examples). Each source declares its words in its
// TimelineFeatures (issue 33: "a source-neutral timeline").
import * as assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LEDGER_OPS, TASK_STATUSES } from "../../../src/core/sources/autodev/plan/planConstants";
import { AGLOOP_TIMELINE_FEATURES } from "../../../src/core/sources/agloop/agloopManifest";
import { LEDGER_TIMELINE_FEATURES } from "../../../src/core/sources/autodev/timeline/ledgerTimelineWords";
import { REPO_ROOT } from "../fixtures";

/** The generic timeline files, repository-relative. */
function genericTimelineFiles(): string[] {
  const ts = (dir: string, keep: (name: string) => boolean = () => true) =>
    readdirSync(join(REPO_ROOT, dir))
      .filter((n) => n.endsWith(".ts") && keep(n))
      .map((n) => `${dir}/${n}`);
  return [
    ...ts("src/core/timeline"),
    ...ts("webview"),
    ...ts("webview/timeline"),
    ...ts("src/extension/timeline"),
    "src/protocolTimeline.ts",
  ];
}

/** The code of a file without its comments (strings kept). */
function codeOf(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

describe("the timeline's generic code names no source's words", () => {
  // Every op and status AutoDev declares, agloop's outcomes, and the chain's hash names. "snapshot"
  // is also the neutral model's word for a declared part (snapshot folding, ChangeKind "snapshot"):
  // which action is one is the source's `snapshotAction`.
  const names = [
    ...LEDGER_OPS.filter((op) => op !== "snapshot"),
    ...TASK_STATUSES,
    ...Object.keys(AGLOOP_TIMELINE_FEATURES.words.statuses),
    LEDGER_TIMELINE_FEATURES.chain!.hashName,
    LEDGER_TIMELINE_FEATURES.chain!.prevHashName,
    "autodev",
    "agloop",
    "engine_state",
  ];

  it("the word lists are the sources' own and cover what they declare", () => {
    assert.deepEqual(Object.keys(LEDGER_TIMELINE_FEATURES.words.actions).sort(), [...LEDGER_OPS].sort());
    assert.deepEqual(Object.keys(LEDGER_TIMELINE_FEATURES.words.statuses).sort(), [...TASK_STATUSES].sort());
  });

  for (const file of genericTimelineFiles()) {
    it(file, () => {
      const code = codeOf(readFileSync(join(REPO_ROOT, file), "utf8"));
      // A name as a string literal ("init_plan", 'blocked') or, for the ones with an underscore, as a word.
      const found = names.filter(
        (n) => new RegExp(`["'\`]${n}["'\`]`).test(code) || (n.includes("_") && new RegExp(`\\b${n}\\b`).test(code)),
      );
      assert.deepEqual(found, [], `${file} names a source's words`);
    });
  }
});
