// Evidence inside the real VS Code: the Plan view shows a task's bundles and patch; evidence diffs
// open in the diff editor (one file) and the multi-file diff editor (several), left = before and
// right = after, rebuilt from the workspace or, when the workspace file drifted, from the hunks
// (said in the title); readable views and output texts open as read-only documents; hostile files
// become errors. The test adds its own task "it-7" (a real `git diff -M` patch: CRLF, drift,
// delete, rename, add without final newline) to the fixture's workspace copy and removes it after.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { OpenedDiff } from "../../../src/extension/sources/autodev/evidence/evidenceDiffOpener";
import { autodevOf, childrenOf, eventually, extension } from "../helpers";

/** `git diff --cached -M` of the change below, captured once from real git. */
const PATCH =
  'diff --git a/it7/crlf.txt b/it7/crlf.txt\nindex d870129..fd42ac7 100644\n--- a/it7/crlf.txt\n+++ b/it7/crlf.txt\n@@ -1,2 +1,3 @@\n [units]\r\n-default = "m"\r\n+default = "km"\r\n+precision = 3\r\n' +
  "diff --git a/it7/drift.txt b/it7/drift.txt\nindex de98044..7be73ce 100644\n--- a/it7/drift.txt\n+++ b/it7/drift.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n" +
  "diff --git a/it7/gone.txt b/it7/gone.txt\ndeleted file mode 100644\nindex b023018..0000000\n--- a/it7/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-bye\n" +
  "diff --git a/it7/old.md b/it7/new.md\nsimilarity index 73%\nrename from it7/old.md\nrename to it7/new.md\nindex 265f959..d8501cc 100644\n--- a/it7/old.md\n+++ b/it7/new.md\n@@ -1,4 +1,4 @@\n-title\n+Title\n line\n line2\n line3\n" +
  "diff --git a/it7/new.txt b/it7/new.txt\nnew file mode 100644\nindex 0000000..503150b\n--- /dev/null\n+++ b/it7/new.txt\n@@ -0,0 +1,2 @@\n+fresh\n+no newline\n\\ No newline at end of file\n";

/** The workspace after the change; drift.txt changed again since (so its patch no longer reverse-applies). */
const WORKSPACE: Record<string, string> = {
  "it7/crlf.txt": '[units]\r\ndefault = "km"\r\nprecision = 3\r\n',
  "it7/drift.txt": "a\nX\nc\n",
  "it7/new.md": "Title\nline\nline2\nline3\n",
  "it7/new.txt": "fresh\nno newline",
};

/** Expected [before, after, title fragment] per file index of PATCH. */
const EXPECTED: Array<[string, string, string]> = [
  ['[units]\r\ndefault = "m"\r\n', WORKSPACE["it7/crlf.txt"], "it7/crlf.txt — it-7.patch"],
  ["@@ -1,3 +1,3 @@\na\nb\nc\n", "@@ -1,3 +1,3 @@\na\nB\nc\n", "it7/drift.txt — it-7.patch (from hunks only)"],
  ["bye\n", "", "it7/gone.txt (deleted) — it-7.patch"],
  ["title\nline\nline2\nline3\n", WORKSPACE["it7/new.md"], "it7/old.md → it7/new.md (renamed) — it-7.patch"],
  ["", "fresh\nno newline", "it7/new.txt (added) — it-7.patch"],
];

async function text(uri: vscode.Uri): Promise<string> {
  return (await vscode.workspace.openTextDocument(uri)).getText();
}

function activeTab(): vscode.Tab | undefined {
  return vscode.window.tabGroups.activeTabGroup.activeTab;
}

describe("evidence", () => {
  let api: StateApi;
  let root: string;
  let folderUri: string;
  const created: string[] = [];

  before(async () => {
    const ext = extension();
    await ext.activate();
    api = ext.exports as StateApi;
    // The folder whose task 1.1 has a .patch (the default fixture's only folder, or one of several).
    const withPatch = () =>
      autodevOf(api).folders.folders.find(
        (f) => !!f.plan && fs.existsSync(path.join(f.cwd, ".autodev", "evidence", "1.1.patch")),
      );
    assert.ok(await eventually(() => !!withPatch(), 30_000), "no folder with a plan and .autodev/evidence/1.1.patch");
    const folder = withPatch()!;
    root = folder.cwd;
    folderUri = folder.folder.uri.toString();
    const evidence = path.join(root, ".autodev", "evidence");
    const put = (rel: string, data: string) => {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), data);
      created.push(path.join(root, rel));
    };
    for (const [rel, data] of Object.entries(WORKSPACE)) put(rel, data);
    put(".autodev/evidence/it-7.patch", PATCH);
    put(
      ".autodev/evidence/it-7-developer.json",
      JSON.stringify(
        {
          task_id: "it-7",
          kind: "developer",
          diff: PATCH,
          files_changed: Object.keys(WORKSPACE),
          output_text: "ran <b>ok</b>\r\nline 2",
          duration_s: 1.5,
          success: true,
        },
        null,
        2,
      ),
    );
    put(".autodev/evidence/it-7-review.json", '{"task_id": "it-7", "kind": "review", "verdict": ');
    fs.symlinkSync("/etc/hostname", path.join(evidence, "it-7-critic.json"));
    created.push(path.join(evidence, "it-7-critic.json"));
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const f of created) fs.rmSync(f, { force: true });
    fs.rmSync(path.join(root, "it7"), { recursive: true, force: true });
  });

  it("shows task 1.1's developer bundle and .patch under the task, with summaries", async () => {
    const folder = autodevOf(api).folders.folders.find((f) => f.cwd === root)!;
    const task = await autodevOf(api).findTaskNode(folder, "1.1");
    assert.ok(task, "task 1.1 is not in the tree");
    const children = await childrenOf(api, task);
    const labels = children.map((n) => String(api.tree.getTreeItem(n).label));
    assert.ok(
      labels.some((l) => /^developer (succeeded|failed): \d+ files? changed/.test(l)),
      `no developer node in ${JSON.stringify(labels)}`,
    );
    const patch = children.find((n) => String(api.tree.getTreeItem(n).label).startsWith("patch: "));
    assert.ok(patch, `no patch node in ${JSON.stringify(labels)}`);
    const item = api.tree.getTreeItem(patch);
    assert.equal(item.description, "1.1.patch");
    assert.ok(item.iconPath instanceof vscode.ThemeIcon);
    assert.equal(item.command?.command, "autodev.openEvidenceDiff");
    const files = await childrenOf(api, patch);
    assert.ok(files.length > 0, "the patch node has no file children");
  });

  it("opens one file of task 1.1's patch in the diff editor: after = the workspace file, before = reverse-applied", async () => {
    const opened = (await vscode.commands.executeCommand(
      "autodev.openEvidenceDiff",
      folderUri,
      "1.1",
      "patch",
      0,
    )) as OpenedDiff;
    assert.equal(opened.mode, "diff");
    const [side] = opened.sides;
    assert.ok(
      await eventually(() => activeTab()?.input instanceof vscode.TabInputTextDiff, 10_000),
      "no diff tab became active",
    );
    const input = activeTab()!.input as vscode.TabInputTextDiff;
    assert.equal(input.original.toString(), side.left.toString());
    assert.equal(input.modified.toString(), side.right.toString());
    const after = await text(side.right);
    const rel = side.right.path.slice(1);
    assert.equal(after, fs.readFileSync(path.join(root, rel), "utf8"), `after side of ${rel}`);
    const before = await text(side.left);
    assert.notEqual(before, after);
    if (rel === "src/hello.py") assert.equal(before, '"""Hello module."""\n\n\ndef greet():\n    return "hi"\n');
  });

  it("opens each file of a patch with exact before/after text: CRLF, drifted (hunks only), deleted, renamed, added without final newline", async () => {
    for (let i = 0; i < EXPECTED.length; i++) {
      const opened = (await vscode.commands.executeCommand(
        "autodev.openEvidenceDiff",
        folderUri,
        "it-7",
        "patch",
        i,
      )) as OpenedDiff;
      assert.equal(opened.mode, "diff", `file ${i}`);
      const [side] = opened.sides;
      const [before, after, title] = EXPECTED[i];
      assert.equal(side.title, title);
      assert.ok(
        await eventually(() => activeTab()?.label === title, 10_000),
        `tab "${activeTab()?.label}" is not "${title}"`,
      );
      const input = activeTab()!.input as vscode.TabInputTextDiff;
      assert.equal(await text(input.original), before, `${title}: left`);
      assert.equal(await text(input.modified), after, `${title}: right`);
    }
  });

  it("opens every file of a patch together in the multi-file diff editor", async () => {
    const opened = (await vscode.commands.executeCommand(
      "autodev.openEvidenceDiff",
      folderUri,
      "it-7",
      "developer",
    )) as OpenedDiff;
    assert.equal(opened.mode, "changes");
    assert.equal(opened.sides.length, EXPECTED.length);
    const title = "developer diff (it-7-developer.json) — 1 from hunks only";
    assert.ok(
      await eventually(() => !!activeTab()?.label.startsWith(title), 10_000),
      `tab "${activeTab()?.label}" is not "${title}"`,
    );
    for (let i = 0; i < EXPECTED.length; i++) {
      assert.equal(await text(opened.sides[i].left), EXPECTED[i][0], `file ${i} left`);
      assert.equal(await text(opened.sides[i].right), EXPECTED[i][1], `file ${i} right`);
    }
  });

  it("opens a readable view and the output text as read-only documents, escaping what the files say", async () => {
    const view = (await vscode.commands.executeCommand(
      "autodev.openEvidence",
      folderUri,
      "it-7",
      "developer",
    )) as vscode.Uri;
    const md = await text(view);
    assert.match(md, /^# Developer — task it-7\n/);
    assert.match(md, /## Diff \(5 files, \+6 −4\)/);
    assert.match(md, /\| it7\/old\.md → it7\/new\.md \| renamed \| \+1 −1 \|/);
    assert.ok(!md.includes("<b>ok</b>") || md.includes("```text\nran <b>ok</b>"), "output text must be fenced");
    const out = (await vscode.commands.executeCommand(
      "autodev.openEvidenceOutput",
      folderUri,
      "it-7",
      "developer",
    )) as vscode.Uri;
    assert.equal(await text(out), "ran <b>ok</b>\r\nline 2");
    const doc = await vscode.workspace.openTextDocument(out);
    assert.equal(doc.isUntitled, false);
    assert.equal(doc.uri.scheme, "autodev-evidence");
  });

  it("shows bad evidence as errors and never the content of a file outside .autodev/evidence/", async () => {
    const review = await text(
      (await vscode.commands.executeCommand("autodev.openEvidence", folderUri, "it-7", "review")) as vscode.Uri,
    );
    assert.match(review, /^# Invalid evidence/);
    assert.match(review, /invalid JSON/);
    const critic = await text(
      (await vscode.commands.executeCommand("autodev.openEvidence", folderUri, "it-7", "critic")) as vscode.Uri,
    );
    assert.match(critic, /outside .*not read|cannot open/);
    const raw = await text(
      (await vscode.commands.executeCommand(
        "autodev.openEvidenceFile",
        folderUri,
        "it-7",
        "it-7-critic.json",
      )) as vscode.Uri,
    );
    assert.match(raw, /^AutoDev: .*(not read|cannot open)/);
    const hostname = fs.readFileSync("/etc/hostname", "utf8").trim();
    if (hostname.length > 3) {
      for (const t of [review, critic, raw]) assert.ok(!t.includes(hostname), "content of /etc/hostname was shown");
    }
    const forged = vscode.Uri.from({
      scheme: "autodev-evidence",
      path: "/x/../../etc/passwd",
      query: new URLSearchParams({ v: "raw", f: folderUri, t: "..", n: "../../etc/passwd" }).toString(),
    });
    assert.match(await text(forged), /cannot be shown: task id: not a safe file name/);
    const other = vscode.Uri.from({
      scheme: "autodev-evidence",
      path: "/x",
      query: new URLSearchParams({ v: "raw", f: folderUri, t: "it-7", n: "1.1-review.json" }).toString(),
    });
    assert.match(await text(other), /is not an evidence file of task it-7/);
  });
});
