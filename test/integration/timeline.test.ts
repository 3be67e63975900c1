/**
 * The ledger timeline inside a real VS Code: `autodev.showTimeline` opens the webview, whose page
 * reports the rows it painted back to the host (the `rendered` message), so these tests see real
 * rows without reaching into the webview's DOM (scripts/ui/timeline-ui-test.mjs drives that DOM with
 * Playwright: clicks, keyboard, screenshots, the hostile fixture). Here: rows appear; selecting a
 * task in the Plan tree filters the timeline to it; the messages the webview's buttons send
 * time-travel the tree and come back; live appends arrive; anything malformed is refused.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import type { TimelineController } from "../../src/extension/timeline/timelineController";
import { appendEntry } from "../../src/core/sources/autodev/ledger/ledgerWriter";
import { revealInTree } from "../../src/extension/treeReveal";
import { autodevOf, eventually, extension, awaitAutodevVerified } from "./helpers";
import { addWorkspaceFolders, removeWorkspaceFolders } from "./workspaceFolders";

async function api(): Promise<StateApi> {
  const ext = extension();
  return (ext.isActive ? ext.exports : await ext.activate()) as StateApi;
}

describe("ledger timeline", function () {
  this.timeout(120_000);
  let a: StateApi;
  let ctrl: TimelineController;

  before(async () => {
    a = await api();
    await awaitAutodevVerified(a);
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  const folder = () => autodevOf(a).folders.folders[0];
  const uri = () => folder().folder.uri.toString();
  /** The timeline names a source by its key. */
  const key = () => folder().key;
  /**
   * How many rows a filter matches, counted here from the ledger lines Python wrote (JSON.parse, not
   * our reader): a task's rows are the entries whose payload names it; unfiltered, every entry but
   * the snapshots, each folded into the entry it follows.
   */
  const expectedMatched = (taskId?: string) => {
    const entries = fs
      .readFileSync(folder().ledgerFile, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { op: string; payload?: { task_id?: unknown } });
    if (taskId !== undefined) return entries.filter((e) => e.payload?.task_id === taskId).length;
    return entries.filter((e, i) => !(e.op === "snapshot" && i > 0)).length;
  };

  it("opens from the command and the webview paints rows", async () => {
    const opened = Date.now();
    ctrl = (await vscode.commands.executeCommand("autodev.showTimeline", uri())) as TimelineController;
    assert.ok(ctrl && typeof ctrl.receive === "function", "autodev.showTimeline returns the timeline controller");
    assert.ok(await eventually(() => (ctrl.lastRendered?.rows ?? 0) > 0, 60_000), "the webview never reported rows");
    const r = ctrl.lastRendered!;
    assert.equal(r.matched, expectedMatched(), "the webview shows every entry");
    assert.ok(r.firstRowId !== null && r.firstRowId >= 1);
    // The time to first rows is measured from this opening: within what this test waited, not before it.
    const waited = Date.now() - opened;
    assert.ok(
      ctrl.openMs !== null && ctrl.openMs >= 0 && ctrl.openMs <= waited,
      `openMs ${ctrl.openMs}, waited ${waited}`,
    );
    assert.equal(ctrl.rejected, 0, "the webview sent nothing invalid");
  });

  it("selecting a task in the Plan tree filters the timeline to that task", async () => {
    const node = await autodevOf(a).findTaskNode(folder(), "1.1");
    assert.ok(node, "task 1.1 is in the tree");
    await vscode.commands.executeCommand("autodev.plan.focus");
    // Run alone, this test reaches the Plan view before VS Code has drawn it: a plain reveal then
    // selects nothing and fires no selection event. The extension's own reveal asks twice.
    assert.ok(await eventually(() => a.treeView.visible, 20_000), "the Plan view is not visible");
    const before = ctrl.lastRendered;
    await revealInTree(a.treeView, node, { select: true, focus: false });
    assert.ok(
      await eventually(() => a.treeView.selection.some((n) => n.id === node.id), 10_000),
      "VS Code did not select task 1.1 in the Plan view",
    );
    const expected = expectedMatched("1.1");
    assert.ok(
      await eventually(() => ctrl.lastRendered !== before && ctrl.lastRendered?.matched === expected, 20_000),
      `expected ${expected} entries of task 1.1, saw ${ctrl.lastRendered?.matched}`,
    );
  });

  it("the webview's 'Show plan as of' time-travels the tree, 'Back to live' returns", async () => {
    await ctrl.receive({ type: "travel", sourceKey: key(), rowId: 13 });
    assert.ok(await eventually(() => folder().timeTravel?.seq === 13, 10_000), "no time travel");
    await ctrl.receive({ type: "backToLive", sourceKey: key() });
    assert.ok(await eventually(() => folder().timeTravel === null, 10_000), "still travelling");
  });

  it("copies a hash the host looks up itself, and opens the entry's line", async () => {
    await ctrl.receive({ type: "copy", sourceKey: key(), rowId: 3, value: "self_hash" });
    assert.match(await vscode.env.clipboard.readText(), /^[0-9a-f]{16,64}$/);
    await ctrl.receive({ type: "openLine", sourceKey: key(), rowId: 3 });
    assert.ok(
      await eventually(() => vscode.window.activeTextEditor?.document.uri.fsPath === folder().ledgerFile, 10_000),
      "the ledger did not open",
    );
    assert.equal(vscode.window.activeTextEditor!.selection.active.line, 2);
  });

  it("state survives hide/show: the page is rebuilt with its filter (task 1.1) and reports it", async () => {
    const hidden = ctrl.lastRendered;
    await vscode.commands.executeCommand("autodev.showTimeline", uri());
    const expected = expectedMatched("1.1");
    assert.ok(
      await eventually(
        () =>
          ctrl.lastRendered !== hidden &&
          ctrl.lastRendered?.reason === "open" &&
          ctrl.lastRendered?.matched === expected,
        30_000,
      ),
      `after showing again: ${JSON.stringify(ctrl.lastRendered)}, expected ${expected} entries`,
    );
  });

  it("refuses malformed or unknown messages without acting on them", async () => {
    const rejected = ctrl.rejected;
    await ctrl.receive({ type: "openLine", sourceKey: key(), rowId: "3" });
    await ctrl.receive({ type: "executeCommand", command: "workbench.action.terminal.new" });
    await ctrl.receive({ type: "travel", sourceKey: key(), rowId: 5, extra: true });
    await ctrl.receive("<img src=x onerror=alert(1)>");
    assert.equal(ctrl.rejected, rejected + 4);
    assert.equal(folder().timeTravel, null);
  });

  it("live: an entry appended outside the editor arrives", async () => {
    const before = folder().entries;
    await appendEntry(
      folder().cwd,
      "update_task_status",
      new Map([
        ["task_id", "1.1"],
        ["status", "in_progress"],
      ]),
      "sess-timeline-it",
    );
    assert.ok(await eventually(() => folder().entries === before + 1, 20_000), "the folder did not pick the append up");
    const expected = expectedMatched("1.1");
    assert.ok(
      await eventually(() => ctrl.lastRendered?.matched === expected, 20_000),
      `the webview did not show the new entry (${ctrl.lastRendered?.matched} of ${expected})`,
    );
  });

  it("a folder asked for before it has any state is shown once its agent writes the first entry", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "timeline-awaited-"));
    const own = `${vscode.Uri.file(dir).toString()}|`;
    try {
      await addWorkspaceFolders([{ dir, name: "awaited" }]);
      const same = (await vscode.commands.executeCommand(
        "autodev.showTimeline",
        vscode.Uri.file(dir).toString(),
      )) as TimelineController;
      assert.equal(same, ctrl, "the one panel is reused");
      // Nothing to show yet: the panel keeps the folder it shows.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(ctrl.lastRendered?.sourceKey, key(), "still the folder it showed");
      // What `autodev plan` writes first: the spec it plans from, then the ledger's first entry.
      fs.mkdirSync(path.join(dir, ".autodev"));
      fs.writeFileSync(path.join(dir, ".autodev", "spec.md"), "# A small project\n");
      const first = fs.readFileSync(folder().ledgerFile, "utf8").split("\n")[0];
      fs.writeFileSync(path.join(dir, ".autodev", "plan-ledger.jsonl"), `${first}\n`);
      const shown = () => !!ctrl.lastRendered?.sourceKey?.startsWith(own) && ctrl.lastRendered.matched === 1;
      assert.ok(
        await eventually(shown, 30_000),
        `the timeline did not switch to the new folder (shows ${ctrl.lastRendered?.sourceKey}, ${ctrl.lastRendered?.matched} rows)`,
      );
    } finally {
      await removeWorkspaceFolders(a, [dir]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Back on the fixture folder for the next test.
    await vscode.commands.executeCommand("autodev.showTimeline", uri());
    assert.ok(await eventually(() => ctrl.lastRendered?.sourceKey === key(), 30_000), "back on the fixture folder");
  });

  it("Show Task in Timeline opens on a task's entries", async () => {
    const node = await autodevOf(a).findTaskNode(folder(), "1.2");
    const same = (await vscode.commands.executeCommand("autodev.showTaskInTimeline", node)) as TimelineController;
    assert.equal(same, ctrl, "the one panel is reused");
    const expected = expectedMatched("1.2");
    assert.ok(
      await eventually(() => ctrl.lastRendered?.matched === expected, 20_000),
      `expected ${expected} entries of task 1.2, saw ${ctrl.lastRendered?.matched}`,
    );
  });
});
