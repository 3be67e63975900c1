/**
 * Hovers and pickers as a daily user reads them (issue 22 item 9), on python-small: the root's
 * hover shows the plan id in a code span with nothing escaped inside and its update time relative
 * and absolute (no raw timestamp with microseconds); a task's hover has its last change (from the
 * ledger, in words, with its time and seq) and its retries beside the limit config.json sets.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import type { AutodevFolder } from "../../src/extension/sources/autodev/autodevFolder";
import { autodevOf, childrenOf, eventually, stateApi } from "./helpers";

const REPO = path.join(__dirname, "../../..");

describe("hovers and pickers", function () {
  this.timeout(120_000);
  let a: StateApi;
  let f: AutodevFolder;

  before(async () => {
    a = await stateApi();
    assert.ok(
      await eventually(
        () => autodevOf(a).folders.folders.length > 0 && autodevOf(a).folders.folders.every((x) => x.report !== null),
        30_000,
      ),
      "folders never verified",
    );
    f = autodevOf(a).folders.folders[0];
  });

  const tooltip = (item: vscode.TreeItem) =>
    item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip);

  it("the root's hover: the plan id in a code span without escapes, the update time relative and absolute", async () => {
    const root = (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === f)!;
    const md = tooltip(a.tree.getTreeItem(root));
    const id = f.live!.plan_id;
    assert.ok(md.includes("`" + id + "`"), md);
    const spans = [...md.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
    assert.ok(spans.includes(id), spans.join(" | "));
    assert.ok(
      spans.every((x) => !x.includes("\\")),
      `no escapes inside code spans: ${spans.join(" | ")}`,
    );
    assert.doesNotMatch(md, /\d{2}:\d{2}:\d{2}\.\d{3,}/, "no raw timestamp");
    assert.match(md, /updated (.+ ago|yesterday|just now) \\?\(.*\d{4}/, md);
  });

  it("a task's hover: the last change in words with its time and seq, the retries beside config's limit", async () => {
    const retried = f.live!.phases.flatMap((p) => p.tasks).find((t) => Number(t.retry_count) > 0)!;
    const config = path.join(f.cwd, ".autodev", "config.json");
    fs.copyFileSync(path.join(REPO, "test/fixtures/python-full/workspace/.autodev/config.json"), config);
    const limit = JSON.parse(fs.readFileSync(config, "utf8")).qa_retry_limit as number;
    try {
      assert.ok(await eventually(() => f.run?.retryLimit === limit, 20_000), "the run view never read the limit");
      const md = async () => tooltip(a.tree.getTreeItem((await autodevOf(a).findTaskNode(f, retried.id))!));
      assert.ok(await eventually(() => f.lastChange(retried.id) !== undefined, 10_000), "no last change read");
      const text = await md();
      assert.match(text, new RegExp(`retries: ${retried.retry_count} of ${limit}`), text);
      const change = f.lastChange(retried.id)!;
      assert.match(text, new RegExp(`last change: .* · seq ${change.seq}`), text);
      assert.doesNotMatch(text, /in_progress|update_task_status/, "words, not identifiers");
    } finally {
      fs.rmSync(config, { force: true });
    }
    assert.ok(await eventually(() => f.run?.retryLimit === null, 20_000), "config.json removed: no limit");
  });
});
