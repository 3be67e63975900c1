// Reviewed marks (issue 23 §3), core: a mark records the diff's content hash, so a changed diff is
// unreviewed again; what storage hands back is validated; the run report shows the marks the editor
// passes in ("2/3 reviewed") and, without them (the CLI), says they live in the editor.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  MAX_REVIEW_MARKS,
  diffContentHash,
  isReviewed,
  markState,
  parseFolderMarks,
  parseReviewKey,
  reviewCount,
  reviewKey,
  withMark,
} from "../../../src/core/sources/autodev/evidence/reviewMarks";
import { loadTaskEvidence } from "../../../src/core/sources/autodev/evidence/taskEvidence";
import { collectRunReport } from "../../../src/core/sources/autodev/report/reportCollect";
import { reportToMarkdown } from "../../../src/core/sources/autodev/report/reportMarkdown";
import { reportToJson } from "../../../src/core/sources/autodev/report/reportJson";
import type { FolderReviewMarks } from "../../../src/core/sources/reviewMarkSchema";
import { copyFixture } from "../fixtures";

const EDITOR_NOTE = /Reviewed marks live in the editor/;

describe("reviewed marks", function () {
  this.timeout(60_000);

  it("a mark holds for the content it was set on, not for a changed diff, and again when the diff comes back", () => {
    const before = diffContentHash("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n");
    const after = diffContentHash("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+c\n");
    assert.notEqual(before, after);
    const marks = withMark({}, "1.2", "patch", before, 1000);
    assert.equal(isReviewed(marks, "1.2", "patch", before), true);
    assert.equal(isReviewed(marks, "1.2", "patch", after), false, "a changed patch is unreviewed");
    assert.equal(isReviewed(marks, "1.2", "developer", before), false, "another source of the task is its own");
    assert.equal(isReviewed(marks, "1.3", "patch", before), false, "another task is its own");
    assert.equal(markState(marks, "1.2", "patch", before), "reviewed");
    assert.equal(markState(marks, "1.2", "patch", after), "changed", "a mark on other content is flagged, not lost");
    assert.equal(markState(marks, "1.2", "developer", before), "unreviewed");
    const cleared = withMark(marks, "1.2", "patch", null, 2000);
    assert.equal(isReviewed(cleared, "1.2", "patch", before), false);
    assert.equal(markState(cleared, "1.2", "patch", after), "unreviewed", "a cleared mark flags nothing");
    assert.equal(isReviewed(marks, "1.2", "patch", before), true, "withMark never changes its input");
  });

  it("keys round-trip, and storage's bad entries are dropped, never trusted", () => {
    assert.deepEqual(parseReviewKey(reviewKey("2.1", "tournament")), { taskId: "2.1", source: "tournament" });
    assert.equal(parseReviewKey("2.1\u0000nonsense"), null);
    assert.equal(parseReviewKey("no-separator"), null);
    const good = { hash: diffContentHash("x"), at: 5 };
    // As storage hands it back (JSON: a "__proto__" key is an own property there).
    const raw: unknown = JSON.parse(
      JSON.stringify({
        [reviewKey("1.1", "patch")]: good,
        [reviewKey("1.1", "developer")]: { hash: "not-a-hash", at: 5 },
        [reviewKey("1.2", "patch")]: { hash: good.hash, at: 5, extra: true },
        "1.3\u0000wrong": good,
        [reviewKey("x".repeat(500), "patch")]: good,
      }).replace('"1.3', '"__proto__":{"hash":"' + good.hash + '","at":1},"1.3'),
    );
    const { marks, dropped } = parseFolderMarks(raw);
    assert.deepEqual(Object.keys(marks), [reviewKey("1.1", "patch")]);
    assert.equal(dropped, 5);
    assert.equal(Object.getPrototypeOf(marks), null, "no key reaches a prototype");
    assert.deepEqual(parseFolderMarks("a string"), { marks: {}, dropped: 1 });
    assert.deepEqual(parseFolderMarks(undefined), { marks: {}, dropped: 0 });
  });

  it("keeps at most MAX_REVIEW_MARKS per folder, dropping the oldest", () => {
    const h = diffContentHash("d");
    const full: Record<string, { hash: string; at: number }> = {};
    for (let i = 0; i < MAX_REVIEW_MARKS; i++) full[reviewKey(`t${i}`, "patch")] = { hash: h, at: i };
    let marks: FolderReviewMarks = full;
    for (let i = MAX_REVIEW_MARKS; i < MAX_REVIEW_MARKS + 3; i++) marks = withMark(marks, `t${i}`, "patch", h, i);
    assert.equal(Object.keys(marks).length, MAX_REVIEW_MARKS);
    assert.equal(isReviewed(marks, "t0", "patch", h), false, "the oldest went first");
    assert.equal(isReviewed(marks, `t${MAX_REVIEW_MARKS + 2}`, "patch", h), true, "the newest is kept");
  });

  it("a task's evidence hashes each diff's text; a rewritten .patch gets a new hash", async () => {
    const dir = copyFixture("python-evidence");
    const te = await loadTaskEvidence(dir, "1.1", "complete", null);
    const patch = te.diffs.get("patch")!;
    const text = fs.readFileSync(path.join(dir, ".autodev/evidence/1.1.patch"), "utf8");
    assert.equal(patch.hash, diffContentHash(text));
    assert.equal(te.diffs.size, 3, "patch, developer diff, tournament final diff");
    const marks = withMark({}, "1.1", "patch", patch.hash, 1);
    assert.deepEqual(reviewCount(marks, "1.1", [...te.diffs.values()]), { reviewed: 1, changed: 0, total: 3 });
    fs.appendFileSync(path.join(dir, ".autodev/evidence/1.1.patch"), "\n");
    const again = await loadTaskEvidence(dir, "1.1", "complete", null);
    assert.deepEqual(reviewCount(marks, "1.1", [...again.diffs.values()]), { reviewed: 0, changed: 1, total: 3 });
  });

  it("the report shows the marks the editor passes in, and says where they live without them", async () => {
    const dir = copyFixture("python-evidence");
    const te = await loadTaskEvidence(dir, "1.1", "complete", null);
    let marks: FolderReviewMarks = {};
    for (const source of ["patch", "developer"] as const) {
      marks = withMark(marks, "1.1", source, te.diffs.get(source)!.hash, 1);
    }
    const r = await collectRunReport(dir, { reviewMarks: marks });
    const t11 = r.phases.flatMap((p) => p.tasks).find((t) => t.id === "1.1")!;
    assert.deepEqual(
      t11.diffs.map((d) => d.reviewed),
      [true, true, false],
    );
    const md = reportToMarkdown(r);
    assert.match(md, /Diffs reviewed: 2\/3 reviewed/);
    assert.doesNotMatch(md, EDITOR_NOTE);
    const json = reportToJson(r) as { tasks: { id: string; diffs: { reviewed?: boolean }[] }[] };
    assert.deepEqual(
      json.tasks.find((t) => t.id === "1.1")!.diffs.map((d) => d.reviewed),
      [true, true, false],
    );
    const cli = await collectRunReport(dir);
    assert.ok(cli.phases.every((p) => p.tasks.every((t) => t.diffs.every((d) => d.reviewed === undefined))));
    assert.match(reportToMarkdown(cli), EDITOR_NOTE);
    assert.doesNotMatch(reportToMarkdown(cli), /Diffs reviewed/);
  });
});
