/**
 * Reviewed marks inside a real VS Code (issue 23 §3): task 1.1 of python-full has three diffs (its
 * .patch, the developer's diff, the tournament's final diff); each has a checkbox in the Plan view
 * and the task says "n/3 reviewed"; the diff editor's title marks and unmarks the diff it shows
 * (one file's diff and the multi-file diff editor); a changed patch is unreviewed again and
 * reviewed again when it comes back byte for byte; the timeline's details, the plan graph and the
 * exported report show the marks. The state left behind (patch and developer diff reviewed) is what
 * reviewMarks.reload.test.ts finds in a new window.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { autodevOf, childrenOf, eventually, stateApi } from "../helpers";
import { RELOAD_EXPECTATION, diffRows, eventuallyAsync, taskDescription } from "./reviewMarkHelpers";

/** Two files, so the whole patch opens in the multi-file diff editor. */
const TWO_FILE_PATCH =
  "diff --git a/it8/a.txt b/it8/a.txt\nnew file mode 100644\n--- /dev/null\n+++ b/it8/a.txt\n@@ -0,0 +1 @@\n+a\n" +
  "diff --git a/it8/b.txt b/it8/b.txt\nnew file mode 100644\n--- /dev/null\n+++ b/it8/b.txt\n@@ -0,0 +1 @@\n+b\n";

describe("reviewed marks", function () {
  this.timeout(120_000);
  let a: StateApi;
  let folder: AutodevFolder;
  let patchFile: string;
  let patchText: string;
  const created: string[] = [];

  const marks = () => autodevOf(a).evidence;
  const rows = () => diffRows(a, folder, "1.1");
  const state = async () => Object.fromEntries((await rows()).map((r) => [r.source, r.checked]));
  /** True once task 1.1's row says `text` (the rows are read again each time, as a visible tree would). */
  const says = (text: string, timeoutMs = 15_000) =>
    eventuallyAsync(
      async () => (await rows()).length > 0 && taskDescription(a, folder, "1.1").includes(text),
      timeoutMs,
    );

  before(async () => {
    a = await stateApi();
    const find = () =>
      autodevOf(a).folders.folders.find(
        (f) => !!f.plan && fs.existsSync(path.join(f.cwd, ".autodev/evidence/1.1-tournament.json")),
      );
    assert.ok(await eventually(() => !!find(), 30_000), "no folder whose task 1.1 has a tournament (python-full)");
    folder = find()!;
    patchFile = path.join(folder.cwd, ".autodev/evidence/1.1.patch");
    patchText = fs.readFileSync(patchFile, "utf8");
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    fs.writeFileSync(patchFile, patchText);
    for (const f of created) fs.rmSync(f, { force: true });
  });

  it("offers a checkbox with a spoken label on each whole diff, none on its files, and the task counts them", async () => {
    const found = await rows();
    assert.deepEqual(found.map((r) => r.source).sort(), ["developer", "patch", "tournament"]);
    for (const r of found) {
      assert.equal(r.checked, false, `${r.source} starts unreviewed`);
      assert.match(r.spoken, /of task 1\.1: not reviewed$/);
    }
    const patchNode = found.find((r) => r.source === "patch")!.node;
    for (const file of await childrenOf(a, patchNode)) {
      assert.equal(a.tree.getTreeItem(file).checkboxState, undefined, "a file of the diff has no box of its own");
    }
    assert.ok(await says("0/3 reviewed"), `task 1.1 says ${taskDescription(a, folder, "1.1")}`);
  });

  it("ticking a box marks that diff; the task says 1/3 and so does the timeline", async () => {
    const patch = (await rows()).find((r) => r.source === "patch")!;
    await marks().markTree.setChecked([{ node: patch.node, checked: true }]);
    assert.deepEqual(await state(), { patch: true, developer: false, tournament: false });
    assert.ok(await says("1/3 reviewed"), `task 1.1 says ${taskDescription(a, folder, "1.1")}`);
    assert.equal(await folder.timeline.taskNote!("1.1"), "1/3 reviewed");
    assert.match((await rows()).find((r) => r.source === "patch")!.spoken, /the patch of task 1\.1: reviewed$/);
  });

  it("the diff editor's title marks and unmarks the diff it shows", async () => {
    const menus = (extensionManifest().contributes.menus["editor/title"] ?? []) as { command: string; when: string }[];
    assert.deepEqual(
      menus.filter((m) => m.command.startsWith("autodev.markDiff")).map((m) => [m.command, m.when]),
      [
        ["autodev.markDiffReviewed", "autodev.activeDiffReview == unreviewed"],
        ["autodev.markDiffUnreviewed", "autodev.activeDiffReview == reviewed"],
      ],
    );
    await vscode.commands.executeCommand("autodev.openEvidenceDiff", folder.folder.uri.toString(), "1.1", "developer");
    assert.ok(
      await eventually(() => marks().markEditor.activeState === "unreviewed", 10_000),
      `the title offers "${marks().markEditor.activeState}"`,
    );
    await vscode.commands.executeCommand("autodev.markDiffReviewed");
    assert.equal(marks().markEditor.activeState, "reviewed");
    assert.deepEqual(await state(), { patch: true, developer: true, tournament: false });
    await vscode.commands.executeCommand("autodev.markDiffUnreviewed");
    assert.equal(marks().markEditor.activeState, "unreviewed");
    assert.equal((await state()).developer, false);
    await vscode.commands.executeCommand("autodev.markDiffReviewed");
    assert.ok(await says("2/3 reviewed"), `task 1.1 says ${taskDescription(a, folder, "1.1")}`);
  });

  it("marks a whole diff from the multi-file diff editor's title", async () => {
    const file = path.join(folder.cwd, ".autodev/evidence/it-8.patch");
    fs.writeFileSync(file, TWO_FILE_PATCH);
    created.push(file);
    const opened = (await vscode.commands.executeCommand(
      "autodev.openEvidenceDiff",
      folder.folder.uri.toString(),
      "it-8",
      "patch",
    )) as { mode: string };
    assert.equal(opened.mode, "changes");
    assert.ok(
      await eventually(() => marks().markEditor.activeState === "unreviewed", 10_000),
      `the multi-file diff editor's title offers "${marks().markEditor.activeState}"`,
    );
    await vscode.commands.executeCommand("autodev.markDiffReviewed");
    assert.equal(marks().markEditor.activeState, "reviewed");
    const key = "it-8\u0000patch";
    assert.ok(marks().marks.of(folder.folder.uri.toString())[key], "the it-8 patch is marked");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    assert.ok(await eventually(() => marks().markEditor.activeState === "", 10_000), "no diff, no title button");
  });

  it("a changed patch is unreviewed again, and reviewed again when it comes back byte for byte", async () => {
    fs.writeFileSync(patchFile, patchText.replace(/\n$/, "\n\n"));
    assert.ok(
      await says("1/3 reviewed, 1 changed since"),
      `after the change task 1.1 says ${taskDescription(a, folder, "1.1")}`,
    );
    assert.deepEqual(await state(), { patch: false, developer: true, tournament: false });
    const changed = (await rows()).find((r) => r.source === "patch")!;
    assert.match(changed.spoken, /the patch of task 1\.1: changed since it was reviewed$/);
    assert.match(String(a.tree.getTreeItem(changed.node).description), /changed since reviewed$/);
    fs.writeFileSync(patchFile, patchText);
    assert.ok(await says("2/3 reviewed"), `after the restore task 1.1 says ${taskDescription(a, folder, "1.1")}`);
    assert.doesNotMatch(taskDescription(a, folder, "1.1"), /changed since/);
    assert.deepEqual(await state(), { patch: true, developer: true, tournament: false });
  });

  it("the plan graph shows the task's marks and follows a change of them", async () => {
    await vscode.commands.executeCommand("autodev.showGraph", folder.folder.uri);
    const note = () => a.graph.taskNotes.autodev?.["1.1"];
    assert.ok(await eventually(() => note() === "2/3 reviewed", 30_000), `the graph says "${note()}" of 1.1`);
    const tournament = (await rows()).find((r) => r.source === "tournament")!;
    await marks().markTree.setChecked([{ node: tournament.node, checked: true }]);
    assert.ok(await eventually(() => note() === "3/3 reviewed", 30_000), `after a tick the graph says "${note()}"`);
    await marks().markTree.setChecked([{ node: tournament.node, checked: false }]);
    assert.ok(await eventually(() => note() === "2/3 reviewed", 30_000), `after clearing it says "${note()}"`);
    assert.equal(a.graph.taskNotes.autodev?.["1.2"], undefined, "a task nobody marked says nothing");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("the run report exported from the editor says which diffs were reviewed", async () => {
    const out = vscode.Uri.file(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "it-report-")), "r.json"));
    await vscode.commands.executeCommand("autodev.exportRunReport", folder.folder.uri, { format: "json", uri: out });
    const report = JSON.parse(fs.readFileSync(out.fsPath, "utf8")) as {
      tasks: { id: string; diffs: { source: string; reviewed?: boolean }[] }[];
      notes: string[];
    };
    const t11 = report.tasks.find((t) => t.id === "1.1")!;
    assert.deepEqual(
      t11.diffs.map((d) => d.reviewed),
      [true, true, false],
      JSON.stringify(t11.diffs),
    );
    assert.ok(!report.notes.some((n) => /live in the editor/.test(n)), "the editor's report has the marks");
    // What the window after this one must find (reviewMarks.reload.test.ts).
    fs.writeFileSync(
      path.join(folder.cwd, RELOAD_EXPECTATION),
      JSON.stringify({ task: "1.1", reviewed: { patch: true, developer: true, tournament: false } }),
    );
  });
});

/** The extension's package.json. */
function extensionManifest(): { contributes: { menus: Record<string, unknown[]> } } {
  return vscode.extensions.getExtension("autodev-state.autodev-state")!.packageJSON as {
    contributes: { menus: Record<string, unknown[]> };
  };
}
