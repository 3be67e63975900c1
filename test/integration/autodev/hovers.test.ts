/**
 * Hovers and pickers as a daily user reads them (issue 22 item 9), on python-small: the root's
 * hover shows the plan id in a code span with nothing escaped inside and its update time relative
 * and absolute (no raw timestamp with microseconds); a task's hover has its last change (from the
 * ledger, in words, with its time and seq) and its retries beside the limit config.json sets (AutoDev's
 * default, said so, when there is no config.json), on the row too.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { autodevOf, childrenOf, eventually, stateApi, awaitAutodevVerified } from "../helpers";

const REPO = path.join(__dirname, "../../../..");

describe("hovers and pickers", function () {
  this.timeout(120_000);
  let a: StateApi;
  let f: AutodevFolder;

  before(async () => {
    a = await stateApi();
    await awaitAutodevVerified(a);
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
    const md = async () => tooltip(a.tree.getTreeItem((await autodevOf(a).findTaskNode(f, retried.id))!));
    // No config.json: AutoDev's default limit, said so (AutoDev's init writes that default).
    assert.ok(await eventually(() => f.run?.retryLimit === 3, 20_000), "no default limit");
    assert.match(await md(), new RegExp(`retries: ${retried.retry_count} of 3 \\\\?\\(AutoDev's default`));
    // A limit the default does not have, so the hover shows the file's.
    const limit = 5;
    const text0 = fs.readFileSync(path.join(REPO, "test/fixtures/python-full/workspace/.autodev/config.json"), "utf8");
    fs.writeFileSync(config, text0.replace(/"qa_retry_limit": \d+/, `"qa_retry_limit": ${limit}`));
    try {
      assert.ok(await eventually(() => f.run?.retryLimit === limit, 20_000), "the run view never read the limit");
      assert.ok(await eventually(() => f.lastChange(retried.id) !== undefined, 10_000), "no last change read");
      const text = await md();
      assert.match(text, new RegExp(`retries: ${retried.retry_count} of ${limit}  `), text);
      assert.match(
        String(a.tree.getTreeItem((await autodevOf(a).findTaskNode(f, retried.id))!).description),
        new RegExp(`retry ${retried.retry_count}/${limit}`),
      );
      const change = f.lastChange(retried.id)!;
      assert.match(text, new RegExp(`last change: .* · seq ${change.seq}`), text);
      assert.doesNotMatch(text, /in_progress|update_task_status/, "words, not identifiers");
    } finally {
      fs.rmSync(config, { force: true });
    }
    assert.ok(await eventually(() => f.run?.retryLimit === 3, 20_000), "config.json removed: AutoDev's default again");
  });
});
