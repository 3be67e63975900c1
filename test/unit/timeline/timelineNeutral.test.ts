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
import { LOG_TIMELINE_FEATURES } from "../../../src/core/timeline/logTimelineFeatures";
import { localizedFeatures } from "../../../src/core/timeline/timelineWords";
import { setL10nBundle } from "../../../src/core/text/coreL10n";
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
  // which action is one is the source's `snapshot.action`.
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

describe("the timeline says a source's nouns only when the source declares them", () => {
  // AutoDev's nouns for what its details hold: the payload, the snapshot, the ledger.
  const nouns = /payload|snapshot|ledger/i;

  /** Every message the webview shows through its l10n.t (its own words, not a source's). */
  function webviewMessages(): string[] {
    const files = readdirSync(join(REPO_ROOT, "webview"), { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    return files.flatMap((f) =>
      [...codeOf(readFileSync(join(REPO_ROOT, "webview", f), "utf8")).matchAll(/l10n\.t\(\s*"((?:[^"\\]|\\.)*)"/g)].map(
        (m) => `${f}: ${m[1]}`,
      ),
    );
  }

  /** Every string a value holds (its words, icons and names; not its keys). */
  function words(v: unknown): string[] {
    if (typeof v === "string") return [v];
    if (v === null || typeof v !== "object") return [];
    return Object.values(v).flatMap(words);
  }

  it("the webview's own messages name none of them", () => {
    const messages = webviewMessages();
    assert.ok(messages.length > 50, `${messages.length} messages`);
    assert.deepEqual(
      messages.filter((m) => nouns.test(m.slice(m.indexOf(": ") + 2))),
      [],
    );
  });

  it("a log's and agloop's words name none of them; the ledger's say them where it declares the parts", () => {
    assert.deepEqual(
      words(LOG_TIMELINE_FEATURES).filter((w) => nouns.test(w)),
      [],
    );
    assert.deepEqual(
      words(AGLOOP_TIMELINE_FEATURES).filter((w) => nouns.test(w)),
      [],
    );
    const ledger = LEDGER_TIMELINE_FEATURES;
    assert.equal(ledger.words.labels.record, "Payload");
    assert.equal(ledger.snapshot?.name, "Snapshot");
    assert.match(ledger.snapshot?.fold ?? "", /^Fold snapshots/);
    assert.match(ledger.words.labels.selectHint, /payload/);
  });

  it("the chain banner and time travel speak the source's words: the webview has none of AutoDev's", () => {
    const autodevWords = /hash chain|plan as of/i;
    assert.deepEqual(
      webviewMessages().filter((m) => autodevWords.test(m.slice(m.indexOf(": ") + 2))),
      [],
    );
    assert.deepEqual([LOG_TIMELINE_FEATURES.chain, LOG_TIMELINE_FEATURES.travel], [null, null]);
    assert.deepEqual([AGLOOP_TIMELINE_FEATURES.chain, AGLOOP_TIMELINE_FEATURES.travel], [null, null]);
    const ledger = LEDGER_TIMELINE_FEATURES;
    assert.equal(ledger.chain?.brokenAt, "The hash chain is broken at line {0}: {1}");
    assert.equal(ledger.travel?.asOf, "Show plan as of #{0}");
    setL10nBundle({
      "Show plan as of #{0}": "Plan zum Stand #{0}",
      "The hash chain is broken: {0}": "Kette kaputt: {0}",
    });
    try {
      const de = localizedFeatures(ledger);
      assert.deepEqual([de.travel?.asOf, de.chain?.broken], ["Plan zum Stand #{0}", "Kette kaputt: {0}"]);
    } finally {
      setL10nBundle(null);
    }
  });

  it("the details pane's field labels are each source's, translated with the rest of its words", () => {
    setL10nBundle({ Time: "Zeit", Payload: "Nutzlast", Snapshot: "Schnappschuss", Phase: "Stufe" });
    try {
      const ledger = localizedFeatures(LEDGER_TIMELINE_FEATURES);
      assert.deepEqual(
        [ledger.words.labels.fields.time, ledger.words.labels.record, ledger.snapshot?.name],
        ["Zeit", "Nutzlast", "Schnappschuss"],
      );
      const agloop = localizedFeatures(AGLOOP_TIMELINE_FEATURES);
      assert.deepEqual([agloop.words.labels.fields.phase, agloop.snapshot], ["Stufe", null]);
      assert.equal(LEDGER_TIMELINE_FEATURES.words.labels.fields.time, "Time", "the declared words stay English");
    } finally {
      setL10nBundle(null);
    }
  });
});
