// "The run that waits on you" inside the real VS Code, on test/fixtures/python-full/workspace (suspended in
// inline mode, waiting on the reviewer for 1.2): the view's badge counts the wait, a new wait is notified
// with Open Delegation / Create Response / Resume (autodev.notifyWhenWaiting = always), the delegation opens
// as a Markdown preview, Create Response writes the file autodev resume reads (pre-filled, never
// overwritten) and checks it live with Problems at the line, and Resume runs `autodev resume` in a
// visible terminal in that folder (autodev.autodevCommand).
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import * as os from "node:os";
import { autodevOf, childrenOf, eventually, stateApi } from "../helpers";
import { addWorkspaceFolders } from "../workspaceFolders";

describe("AutoDev waits on you (python-full)", function () {
  this.timeout(120_000);
  let a: StateApi;
  let f: AutodevFolder;
  let state: string;
  let response: string;
  const config = () => vscode.workspace.getConfiguration("autodev");

  before(async () => {
    a = await stateApi();
    const find = () =>
      autodevOf(a).folders.folders.find(
        (x) => fs.existsSync(path.join(x.cwd, ".autodev/inline-state.json")) && !!x.live,
      );
    assert.ok(await eventually(() => !!find(), 30_000), "the python-full workspace is not open");
    f = find()!;
    state = path.join(f.cwd, ".autodev/inline-state.json");
    response = path.join(f.cwd, ".autodev/responses/1.2-reviewer.json");
    fs.rmSync(response, { force: true });
    assert.ok(await eventually(() => f.waiting !== null, 30_000), "never waiting");
  });

  after(async () => {
    await config().update("notifyWhenWaiting", undefined, vscode.ConfigurationTarget.Workspace);
    await config().update("autodevCommand", undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(response, { force: true });
  });

  it("counts the wait on the view's badge and leads the tree with it", async () => {
    assert.ok(await eventually(() => (a.treeView.badge?.value ?? 0) >= 1, 30_000), "no badge");
    assert.match(String(a.treeView.badge?.tooltip), /waits? on you/);
    assert.equal(f.waiting?.what, "Waiting on reviewer for 1.2");
  });

  it("notifies a new wait with its three actions", async () => {
    await config().update("notifyWhenWaiting", "always", vscode.ConfigurationTarget.Workspace);
    const text = fs.readFileSync(state, "utf8");
    fs.rmSync(state);
    assert.ok(await eventually(() => f.waiting === null, 30_000), "the wait did not end");
    const before = a.waiting.notices.length;
    fs.writeFileSync(state, text);
    assert.ok(await eventually(() => a.waiting.notices.length > before, 30_000), "no notification");
    const n = a.waiting.notices.at(-1)!;
    assert.match(n.message, /AutoDev is waiting on reviewer for task 1\.2$/);
    assert.deepEqual(n.actions, ["Open Delegation", "Create Response", "Resume"]);
  });

  it("opens the delegation as a read-only Markdown preview", async () => {
    await vscode.commands.executeCommand("autodev.openDelegation", f.folder.uri.toString());
    assert.ok(
      await eventually(
        () => /Preview.*1\.2-reviewer\.md/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ""),
        20_000,
      ),
      `active tab: ${vscode.window.tabGroups.activeTabGroup.activeTab?.label}`,
    );
  });

  it("creates the response where autodev resume reads it, pre-filled, and checks it while it is edited", async () => {
    await vscode.commands.executeCommand("autodev.createResponse", f.folder.uri.toString());
    assert.ok(fs.existsSync(response), "no response file");
    const written = JSON.parse(fs.readFileSync(response, "utf8")) as Record<string, unknown>;
    assert.deepEqual([written.task_id, written.role], ["1.2", "reviewer"]);
    assert.match(String(written.success), /^<replace: /, "success is a placeholder AutoDev refuses");
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.fsPath, response);
    const diags = () => autodevOf(a).responses.diagnostics.get(editor.document.uri) ?? [];
    const unfilled = () => diags().filter((d) => d.code === "inline_response_unfilled");
    assert.ok(await eventually(() => unfilled().length === 2, 20_000));
    assert.deepEqual(
      unfilled().map((d) => d.range.start.line),
      [4, 5],
    );
    // Resume Run refuses the untouched template: no terminal, the reason said.
    const terminals = autodevOf(a).resumeTerminals.length;
    const refusals = autodevOf(a).resumeRefusals;
    const said = refusals.length;
    await vscode.commands.executeCommand("autodev.resumeRun", f.folder.uri.toString());
    assert.equal(autodevOf(a).resumeTerminals.length, terminals);
    assert.match(refusals[said] ?? "", /1\.2-reviewer\.json is still the template/);
    // The agent writes a wrong answer, then a right one: Problems follow each edit.
    const whole = new vscode.Range(0, 0, editor.document.lineCount, 0);
    await editor.edit((e) =>
      e.replace(whole, '{\n  "task_id": "1.2",\n  "role": "reviewer",\n  "success": "perhaps",\n  "text": "x"\n}\n'),
    );
    assert.ok(
      await eventually(
        () => diags().some((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.line === 3),
        20_000,
      ),
    );
    await editor.edit((e) =>
      e.replace(
        new vscode.Range(0, 0, editor.document.lineCount, 0),
        JSON.stringify({ task_id: "1.2", role: "reviewer", success: true, text: "APPROVED\nfine" }, null, 2),
      ),
    );
    assert.ok(await eventually(() => diags().length === 1 && diags()[0].code === "inline_response_verdict", 20_000));
    assert.match(diags()[0].message, /reads this review as APPROVED/);
    await editor.document.save();
    const saved = fs.readFileSync(response, "utf8");
    await vscode.commands.executeCommand("autodev.createResponse", f.folder.uri.toString());
    assert.equal(fs.readFileSync(response, "utf8"), saved, "an existing response is never overwritten");
  });

  it("runs autodev resume in a visible terminal in the folder; the command is a machine setting", async () => {
    // A workspace (a cloned repository's .vscode/settings.json) cannot choose what Resume Run runs (issue 32.7).
    await assert.rejects(
      Promise.resolve(config().update("autodevCommand", "curl x | sh", vscode.ConfigurationTarget.Workspace)),
    );
    assert.equal(config().inspect("autodevCommand")?.workspaceValue, undefined);
    await config().update("autodevCommand", "echo autodev-it", vscode.ConfigurationTarget.Global);
    const resumeTerminals = autodevOf(a).resumeTerminals;
    const before = resumeTerminals.length;
    await vscode.commands.executeCommand("autodev.resumeRun", f.folder.uri.toString());
    assert.equal(resumeTerminals.length, before + 1);
    const t = resumeTerminals.at(-1)!;
    assert.equal(t.name, `AutoDev resume (${f.folder.name})`);
    assert.ok(await eventually(() => vscode.window.activeTerminal === t, 20_000), "the terminal is not shown");
    assert.ok(vscode.window.terminals.includes(t));
    t.dispose();
  });

  it("shows a plan-phase folder before any ledger: no ledger yet, waiting on the explorer first, two waits on the badge", async () => {
    // Snapshot 01 of the real AutoDev run (autodev init --inline, autodev plan): no ledger, the explorer's delegation.
    const src = path.resolve(
      __dirname,
      "../../../../test/fixtures/autodev-real-run/01-plan-explorer-waiting/workspace",
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "plan-phase-"));
    fs.cpSync(src, dir, { recursive: true });
    await addWorkspaceFolders([{ dir, name: "plan-phase" }]);
    const find = () => autodevOf(a).folders.folders.find((x) => x.cwd === dir);
    assert.ok(
      await eventually(() => !!find() && find()!.waiting !== null, 30_000),
      "the plan-phase folder never waits",
    );
    const root = (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === find())!;
    assert.match(String(a.tree.getTreeItem(root).description), /no ledger yet · plan phase/);
    const first = (await childrenOf(a, root))[0];
    assert.equal(String(a.tree.getTreeItem(first).label), "Waiting on explorer for plan");
    assert.ok(await eventually(() => (a.treeView.badge?.value ?? 0) >= 2, 30_000), `badge ${a.treeView.badge?.value}`);
  });
});
