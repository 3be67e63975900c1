/**
 * The plan graph inside a real VS Code: `autodev.showGraph` opens the webview on a folder of the
 * mixed workspace; the page reports what it drew (`rendered`: task cards and dependency paths),
 * so the test sees the real page without reaching into its DOM. A click on a task (the `reveal`
 * message its cards send) selects the task in the Plan tree, for AutoDev and for agloop; a state
 * change redraws; anything malformed is refused.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import { autodevOf, eventually, stateApi, awaitAutodevVerified } from "./helpers";

const api = stateApi;

const folderNamed = (name: string) => vscode.workspace.workspaceFolders!.find((f) => f.name.startsWith(name))!;

describe("plan graph", function () {
  this.timeout(120_000);
  let a: StateApi;

  before(async () => {
    a = await api();
    await awaitAutodevVerified(a);
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  it("opens on an AutoDev folder, draws every task and dependency, and a click reveals the task", async () => {
    const folder = autodevOf(a).folders.folders[0].folder;
    await vscode.commands.executeCommand("autodev.showGraph", folder.uri);
    assert.ok(await eventually(() => a.graph.rendered?.kind === "autodev", 60_000), "the page never drew the graph");
    const view = a.graph.current!.views.find((v) => v.kind === "autodev")!;
    assert.deepEqual(a.graph.rendered, {
      kind: "autodev",
      nodes: view.graph.nodes.length,
      edges: view.layout.edges.length,
    });
    assert.ok(view.graph.nodes.length > 0 && view.graph.edges.length > 0);
    await a.graph.handleMessage({ type: "reveal", kind: "autodev", taskId: "1.2" });
    assert.ok(
      await eventually(() => {
        const sel = a.treeView.selection[0] as { kind?: string; task?: { id: string } } | undefined;
        return sel?.kind === "task" && sel.task?.id === "1.2";
      }, 10_000),
      `the tree selection is ${a.treeView.selection[0]?.id}`,
    );
  });

  it("on an agloop folder: the cycle is in the view and a click reveals the agloop task", async () => {
    const folder = folderNamed("agloop-broken");
    await vscode.commands.executeCommand("autodev.showGraph", folder.uri.toString());
    assert.ok(
      await eventually(() => a.graph.rendered?.kind === "agloop", 60_000),
      "the page never drew agloop's graph",
    );
    const view = a.graph.current!.views.find((v) => v.kind === "agloop")!;
    assert.deepEqual([...view.analysis.inCycle].sort(), ["task-004", "task-005"]);
    await a.graph.handleMessage({ type: "reveal", kind: "agloop", taskId: "task-002" });
    assert.ok(
      await eventually(() => a.treeView.selection[0]?.id.endsWith("agloop/task/task-002") ?? false, 10_000),
      `the tree selection is ${a.treeView.selection[0]?.id}`,
    );
  });

  it("refuses malformed messages and stays on its folder", async () => {
    const before = a.graph.shownFolder?.uri.toString();
    for (const bad of [
      null,
      42,
      { type: "reveal" },
      { type: "reveal", kind: "x", taskId: "" },
      { type: "folder", uri: "file:///etc" },
      { type: "eval", code: "1" },
    ]) {
      await a.graph.handleMessage(bad);
    }
    assert.equal(a.graph.shownFolder?.uri.toString(), before);
  });
});

describe("language-model tools", function () {
  this.timeout(120_000);

  it("are registered and return the verified state (invoked through vscode.lm.invokeTool)", async () => {
    await api();
    const lm = (vscode as { lm?: typeof vscode.lm }).lm;
    if (typeof lm?.registerTool !== "function") {
      assert.fail(
        `this VS Code (${vscode.version}) has no vscode.lm.registerTool: the tools cannot be registered here`,
      );
    }
    assert.ok(
      await eventually(
        () =>
          ["autodev_state_status", "autodev_state_check", "autodev_state_task"].every((n) =>
            lm.tools.some((t) => t.name === n),
          ),
        20_000,
      ),
      `registered tools: ${lm.tools.map((t) => t.name).join(", ")}`,
    );
    const text = async (name: string, input: object) => {
      const r = await lm.invokeTool(name, { input, toolInvocationToken: undefined });
      return r.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : "")).join("");
    };
    const first = vscode.workspace.workspaceFolders![0];
    const status = JSON.parse(await text("autodev_state_status", { folder: first.name }));
    const autodev = status.state_folders.find((s: { kind: string }) => s.kind === "autodev");
    assert.equal(autodev.ledger_ok, true);
    assert.ok(autodev.tasks.some((t: { id: string }) => t.id === "1.2"));
    const check = JSON.parse(await text("autodev_state_check", {}));
    assert.ok(check.state_folders.length >= 3, "every folder's state folders are checked");
    const task = JSON.parse(await text("autodev_state_task", { taskId: "1.2", folder: first.name }));
    assert.equal(task.tasks[0].id, "1.2");
    const bad = JSON.parse(await text("autodev_state_task", { taskId: 42 }));
    assert.match(bad.error, /invalid input/);
  });
});

describe("pinned verified head", function () {
  this.timeout(120_000);

  it("a ledger cut before the pinned head is flagged in Problems and the status bar; unpinning clears it", async () => {
    const a = await api();
    const folders = autodevOf(a).folders.folders;
    assert.ok(await eventually(() => folders.every((f) => f.report !== null), 30_000), "folders never verified");
    const f = folders.find((x) => x.folder.name.startsWith("python-unicode")) ?? folders[folders.length - 1];
    const original = fs.readFileSync(f.ledgerFile);
    try {
      await vscode.commands.executeCommand("autodev.pinVerifiedHead", f.folder.uri.toString());
      const pinned = f.pinnedHead!;
      assert.ok(pinned && pinned.seq > 2, "the verified head is pinned");
      const lines = original.toString("utf8").split("\n");
      fs.writeFileSync(f.ledgerFile, lines.slice(0, 2).join("\n") + "\n");
      assert.ok(
        await eventually(() => (f.problems ?? []).some((p) => p.code === "pinned_head_lost"), 30_000),
        "no pinned_head_lost problem",
      );
      assert.match(f.pinnedHeadLost!.message, new RegExp(`seq ${pinned.seq}`));
      // The status bar and Problems are updated from the same refresh, each on its own turn.
      assert.ok(
        await eventually(() => /pinned head lost/.test(a.statusBar.text ?? ""), 10_000),
        `status bar never said 'pinned head lost': ${a.statusBar.text}`,
      );
      const pinnedDiag = (): boolean =>
        vscode.languages
          .getDiagnostics(vscode.Uri.file(f.ledgerFile))
          .some((d) => d.severity === vscode.DiagnosticSeverity.Error && /pinned head/.test(d.message));
      assert.ok(await eventually(pinnedDiag, 10_000), "no 'pinned head' error in Problems");
      await vscode.commands.executeCommand("autodev.unpinVerifiedHead", f.folder.uri.toString());
      assert.ok(
        await eventually(() => !(f.problems ?? []).some((p) => p.code === "pinned_head_lost"), 10_000),
        "unpinning clears the problem",
      );
    } finally {
      // The known history back: the remembered head's rewrite warning clears by itself.
      fs.writeFileSync(f.ledgerFile, original);
      assert.ok(await eventually(() => f.rewriteFinding === null, 30_000), "the rewrite warning cleared");
    }
  });
});
