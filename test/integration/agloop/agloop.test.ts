/**
 * agloop in a real VS Code, through the generic source seam. Run with
 *   AUTODEV_IT_FIXTURES=agloop-clean,agloop-broken,python-small AUTODEV_IT_GREP=agloop npm run test:integration
 * (fixtures made by running a real agloop install's hook scripts): the tree, Problems at the
 * right lines, the log as a timeline, a live hook append and state.json rewrite, a checkpoint
 * diff, and a folder that holds both `.autodev/` and `.agloop/`.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { DefaultSourceFolder } from "../../../src/extension/sources/defaultSourceFolder";
import { type AnyNode, autodevOf, childrenOf, eventually, extension } from "../helpers";

async function api(): Promise<StateApi> {
  const ext = extension();
  return (ext.isActive ? ext.exports : await ext.activate()) as StateApi;
}

/** The agloop source of the folder named `name`, once it has been read. */
async function agloopOf(a: StateApi, name: string): Promise<DefaultSourceFolder> {
  const find = (): DefaultSourceFolder | undefined =>
    a.folders.all.find((s) => s.kind === "agloop" && s.folder.name === name) as DefaultSourceFolder | undefined;
  assert.ok(await eventually(() => (find()?.problems ?? null) !== null, 30_000), `no agloop source read in ${name}`);
  return find()!;
}

/** Every Plan node under the agloop root of `state`, depth first, with its tree item. */
async function agloopItems(
  a: StateApi,
  state: DefaultSourceFolder,
): Promise<{ node: AnyNode; item: vscode.TreeItem }[]> {
  const roots = await childrenOf(a);
  const root = roots.find((n) => n.kind === "sourceRoot" && n.state === state);
  assert.ok(root, "the agloop source has a root in the Plan view");
  const out: { node: AnyNode; item: vscode.TreeItem }[] = [];
  const walk = async (n: AnyNode): Promise<void> => {
    for (const c of await childrenOf(a, n)) {
      out.push({ node: c, item: a.tree.getTreeItem(c) });
      await walk(c);
    }
  };
  await walk(root);
  return out;
}

function label(item: vscode.TreeItem): string {
  return typeof item.label === "string" ? item.label : (item.label?.label ?? "");
}

function lineContaining(file: string, needle: string): number {
  return (
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .findIndex((l) => l.includes(needle)) + 1
  );
}

describe("agloop source in VS Code", function () {
  this.timeout(120_000);

  it("shows the tree: phase and iteration, tasks with AutoDev's status icons, checkpoints", async () => {
    const a = await api();
    const clean = await agloopOf(a, "agloop-clean");
    const items = await agloopItems(a, clean);
    const labels = items.map((i) => label(i.item));
    assert.ok(labels.includes("execute · iteration 1/3"), labels.join(" | "));
    const task = (id: string) => items.find((i) => label(i.item) === id && i.item.contextValue === "agloop.task")?.item;
    assert.equal((task("task-001")?.iconPath as vscode.ThemeIcon).id, "pass-filled");
    assert.equal((task("task-002")?.iconPath as vscode.ThemeIcon).id, "play-circle");
    assert.equal((task("task-003")?.iconPath as vscode.ThemeIcon).id, "circle-large-outline");
    const cps = items.filter((i) => i.item.contextValue === "agloop.checkpoint");
    assert.equal(cps.length, fs.readdirSync(path.join(clean.cwd, ".agloop", "checkpoints")).length);
  });

  it("puts state.json, plan.yaml and log.json problems in Problems at the offending lines", async () => {
    const a = await api();
    const broken = await agloopOf(a, "agloop-broken");
    const state = vscode.Uri.file(path.join(broken.cwd, ".agloop", "state.json"));
    const plan = vscode.Uri.file(path.join(broken.cwd, ".agloop", "plan.yaml"));
    const log = vscode.Uri.file(path.join(broken.cwd, ".agloop", "log.json"));
    assert.ok(
      await eventually(() => vscode.languages.getDiagnostics(state).length > 0, 30_000),
      "no diagnostics on state.json",
    );
    const at = (uri: vscode.Uri, code: string) =>
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => (typeof d.code === "object" ? d.code.value : d.code) === code)
        .map((d) => d.range.start.line + 1);
    assert.deepEqual(at(state, "iteration_range"), [lineContaining(state.fsPath, '"iteration": 5')]);
    assert.deepEqual(at(state, "unknown_dependency"), [lineContaining(state.fsPath, '"task-099"')]);
    assert.deepEqual(at(plan, "dag_edge_unknown_task"), [lineContaining(plan.fsPath, '"task-077"')]);
    assert.deepEqual(at(log, "log_field_missing"), [lineContaining(log.fsPath, '"action":"task_started"')]);
    const sev = vscode.languages
      .getDiagnostics(state)
      .find((d) => (typeof d.code === "object" ? d.code.value : d.code) === "stop_hook_active");
    assert.equal(sev?.severity, vscode.DiagnosticSeverity.Warning);
  });

  it("lists log.json in the timeline and follows a hook's append and a state.json rewrite live", async () => {
    const a = await api();
    const clean = await agloopOf(a, "agloop-clean");
    const logPath = path.join(clean.cwd, ".agloop", "log.json");
    const lines = fs
      .readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => l.trim()).length;
    assert.ok(
      await eventually(() => clean.timelineRows === lines, 30_000),
      `timeline rows ${clean.timelineRows} ≠ ${lines}`,
    );
    // What the audit-logger hook does on UserPromptSubmit: one JSON line, appended.
    const entry = {
      timestamp: new Date().toISOString(),
      agent: "hook:audit-logger",
      action: "prompt_received",
      task_id: "task-002",
      phase: "execute",
      input_summary: "keep going",
      output_summary: "",
      status: "success",
      metadata: { prompt_length: 10 },
    };
    fs.appendFileSync(logPath, JSON.stringify(entry) + "\n");
    assert.ok(
      await eventually(() => clean.timelineRows === lines + 1, 30_000),
      "the appended line did not reach the timeline",
    );
    // What the coordinator does: rewrite state.json in place (writeFile, no rename).
    const statePath = path.join(clean.cwd, ".agloop", "state.json");
    const s = JSON.parse(fs.readFileSync(statePath, "utf8"));
    s.tasks[1].status = "done";
    s.current_task_id = "task-003";
    s.tasks[2].status = "in_progress";
    fs.writeFileSync(statePath, JSON.stringify(s, null, 2));
    const icon = async (id: string) =>
      (
        (await agloopItems(a, clean)).find((i) => label(i.item) === id && i.item.contextValue === "agloop.task")?.item
          .iconPath as vscode.ThemeIcon | undefined
      )?.id;
    let seen: string | undefined;
    for (let k = 0; k < 100 && seen !== "pass-filled"; k++) {
      seen = await icon("task-002");
      if (seen !== "pass-filled") await new Promise((r) => setTimeout(r, 200));
    }
    assert.equal(seen, "pass-filled", "task-002 did not turn done in the tree");
    assert.equal(await icon("task-003"), "play-circle");
  });

  it("opens a checkpoint as a read-only diff against state.json", async () => {
    const a = await api();
    const clean = await agloopOf(a, "agloop-clean");
    const cp = (await agloopItems(a, clean)).find(
      (i) => i.item.contextValue === "agloop.checkpoint" && label(i.item).startsWith("pre-compact-"),
    );
    assert.ok(cp?.item.command, "the checkpoint node has a click command");
    await vscode.commands.executeCommand(cp.item.command.command, ...(cp.item.command.arguments ?? []));
    assert.ok(
      await eventually(
        () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff,
        20_000,
      ),
      "no diff editor opened",
    );
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input as vscode.TabInputTextDiff;
    // Both sides are read-only copies: no revert arrow rewrites agloop's state in one click.
    assert.deepEqual([input.original.scheme, input.modified.scheme], ["autodev-view", "autodev-view"]);
    assert.ok(input.modified.path.endsWith("/state.json"), input.modified.path);
    const right = await vscode.workspace.openTextDocument(input.modified);
    assert.equal(right.getText(), fs.readFileSync(path.join(clean.cwd, ".agloop", "state.json"), "utf8"));
    const left = await vscode.workspace.openTextDocument(input.original);
    assert.equal(JSON.parse(left.getText()).compaction_context.compaction_count, 1);
    assert.ok(!left.getText().includes("_checkpoint"));
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("opens log.json as JSON Lines, and a checkpoint diff adds nothing to Problems that is not ours", async () => {
    const a = await api();
    const clean = await agloopOf(a, "agloop-clean");
    const log = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(clean.cwd, ".agloop", "log.json")));
    await vscode.window.showTextDocument(log, { preview: false });
    assert.equal(log.languageId, "jsonl", "log.json is JSON Lines (package.json contributes the file pattern)");
    const cp = (await agloopItems(a, clean)).find((i) => i.item.contextValue === "agloop.checkpoint");
    assert.ok(cp?.item.command, "a checkpoint node with a click command");
    await vscode.commands.executeCommand(cp.item.command.command, ...(cp.item.command.arguments ?? []));
    const diff = await eventually(
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff,
      20_000,
    );
    assert.ok(diff, "no diff editor opened");
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input as vscode.TabInputTextDiff;
    // The control, opened last: a JSON file whose $schema nobody knows gets the JSON extension's warning,
    // so the extension is running and has looked at the documents opened before it.
    const controlFile = path.join(clean.cwd, "schema-control.json");
    fs.writeFileSync(controlFile, '{ "$schema": "no-such-schema-for-this-test" }\n');
    try {
      const control = await vscode.workspace.openTextDocument(vscode.Uri.file(controlFile));
      await vscode.window.showTextDocument(control, { preview: false });
      assert.ok(
        await eventually(
          () => vscode.languages.getDiagnostics(control.uri).some((d) => /schema/i.test(d.message)),
          60_000,
        ),
        "the JSON extension never reported the control's unknown $schema",
      );
      const foreign = (uri: vscode.Uri) =>
        vscode.languages
          .getDiagnostics(uri)
          .filter((d) => d.source !== "agloop")
          .map((d) => `${d.source}: ${d.message}`);
      assert.deepEqual(foreign(input.original), [], "the checkpoint side: its $schema resolves to an empty schema");
      assert.deepEqual(foreign(input.modified), [], "the state.json side: the same");
      assert.deepEqual(foreign(log.uri), [], "log.json: not parsed as one JSON document");
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      fs.rmSync(controlFile, { force: true });
    }
  });

  it("a folder with .autodev/ shows agloop too once .agloop/ appears in it", async () => {
    const a = await api();
    const folder = vscode.workspace.workspaceFolders?.find((f) => f.name === "python-small");
    assert.ok(folder, "python-small is part of the test workspace");
    const from = (await agloopOf(a, "agloop-clean")).cwd;
    // As the hooks do: ensureDir(.agloop), then write the files into it.
    const to = path.join(folder.uri.fsPath, ".agloop");
    fs.mkdirSync(to);
    await new Promise((r) => setTimeout(r, 1000));
    fs.cpSync(path.join(from, ".agloop"), to, { recursive: true });
    // Seen by the watchers alone: no Refresh (that would hide a missed folder).
    assert.ok(
      await eventually(
        () => a.folders.all.some((s) => s.kind === "agloop" && s.folder.name === "python-small"),
        30_000,
      ),
      "the new .agloop/ was not detected without a Refresh",
    );
    await agloopOf(a, "python-small");
    const roots = (await childrenOf(a)).map((r) => label(a.tree.getTreeItem(r)));
    assert.ok(roots.filter((r) => r === "agloop").length >= 3, roots.join(" | "));
    assert.ok(
      autodevOf(a).folders.folders.some((f) => path.basename(f.cwd) === "python-small"),
      "the AutoDev folder is still shown",
    );
  });
});
