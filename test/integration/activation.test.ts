// Proves the harness: inside a real VS Code, on a workspace with `.autodev/plan-ledger.jsonl`,
// the extension activates by itself, registers its command and contributes its view container.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import { EXTENSION_ID, eventually, extension } from "./helpers";

describe("activation", () => {
  it("runs on a workspace that holds .autodev/plan-ledger.jsonl", async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, "no workspace folder is open");
    const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(folder.uri, ".autodev", "plan-ledger.jsonl"));
    assert.equal(stat.type, vscode.FileType.File);
  });

  it("is installed as a development extension", () => {
    const ext = extension();
    assert.equal(ext.id, EXTENSION_ID);
    assert.equal(ext.packageJSON.name, "autodev-state");
  });

  it("activates by itself on workspaceContains:.autodev/plan-ledger.jsonl", async () => {
    const ext = extension();
    assert.ok(await eventually(() => ext.isActive, 20_000), "extension did not activate on its own");
  });

  it("loads its bundle through Node's compile cache (the extension host runs Node 24)", async () => {
    const ext = extension();
    assert.ok(await eventually(() => ext.isActive, 20_000), "extension did not activate");
    const api = ext.exports as StateApi;
    assert.ok(api.startup, "the loader (dist/extension.js) did not hand its start-up facts on");
    assert.match(api.startup.compileCache, /^(enabled|already enabled by the host)/);
    await api.firstPaint;
  });

  it("registers autodev.refresh, which runs", async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes("autodev.refresh"), "autodev.refresh is not registered");
    await vscode.commands.executeCommand("autodev.refresh");
  });

  it("contributes the AutoDev view container with the Plan view, which the workbench shows", async () => {
    // Both commands exist only when the workbench really registered the container and the view,
    // and the Plan view is on screen once focused.
    const api = extension().exports as StateApi;
    await vscode.commands.executeCommand("workbench.view.extension.autodev");
    await vscode.commands.executeCommand("autodev.plan.focus");
    assert.ok(await eventually(() => api.treeView.visible, 20_000), "the Plan view is not visible");
  });
});
