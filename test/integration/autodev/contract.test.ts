// The phase contract of the current phase in the real VS Code tree, for AutoDev (python-full/workspace:
// suspended on the reviewer of 1.2, auto_gated) and agloop (agloop-clean: execute, task-002): a
// "Contract" node with its preconditions met, its evidence linked to the file, and the re-entry
// point in plain words; and the contract's finding in Problems once the evidence goes.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { type AnyNode, autodevOf, childrenOf, eventually, stateApi } from "../helpers";
import { pollFor } from "../../helpers/poll";

describe("phase contract in the tree", function () {
  this.timeout(120_000);
  let a: StateApi;

  const label = (n: AnyNode): string => {
    const l = a.tree.getTreeItem(n).label;
    return typeof l === "string" ? l : (l?.label ?? "");
  };

  /** The first node under `parent` whose label matches, waiting for it to appear. */
  async function eventuallyChild(parent: () => Promise<AnyNode | undefined>, match: RegExp): Promise<AnyNode> {
    let seen: string[] = [];
    return pollFor(
      async () => {
        const p = await parent();
        const kids = p ? await childrenOf(a, p) : [];
        seen = kids.map(label);
        return kids.find((n) => match.test(label(n)));
      },
      30_000,
      () => `no node matching ${match} (saw: ${seen.join(" | ")})`,
    );
  }

  before(async () => {
    a = await stateApi();
  });

  it("AutoDev: the current step's contract, evidence opening the file, re-entry from what comes next", async () => {
    const find = () =>
      autodevOf(a).folders.folders.find(
        (x) => fs.existsSync(path.join(x.cwd, ".autodev/inline-state.json")) && !!x.live,
      );
    assert.ok(await eventually(() => !!find(), 30_000), "python-full/workspace is not open");
    const f: AutodevFolder = find()!;
    const root = async () => (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === f);
    const contract = await eventuallyChild(root, /^Contract: auto_gated · 1\.2$/);
    const kids = await childrenOf(a, contract);
    const labels = kids.map(label);
    assert.ok(labels.includes("developer evidence with success true"), labels.join(" | "));
    const dev = kids.find((k) => label(k) === "developer evidence with success true")!;
    const cmd = a.tree.getTreeItem(dev).command!;
    await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
    assert.ok(
      await eventually(
        () =>
          !!vscode.window.activeTextEditor?.document.uri.fsPath.endsWith(path.join("evidence", "1.2-developer.json")),
        10_000,
      ),
      "the evidence link opens 1.2-developer.json",
    );
    assert.ok(
      labels.some((l) =>
        l.startsWith("autodev resume waits: the agent must answer .autodev/delegations/1.2-reviewer.md"),
      ),
      labels.join(" | "),
    );
    assert.ok(labels.includes("Next: reviewed, in_progress, blocked"));
  });

  it("AutoDev: a status without its evidence is a phase_without_evidence problem at the ledger line", async () => {
    const f = autodevOf(a).folders.folders.find((x) => fs.existsSync(path.join(x.cwd, ".autodev/inline-state.json")))!;
    const dev = path.join(f.cwd, ".autodev/evidence/1.2-developer.json");
    const saved = fs.readFileSync(dev);
    fs.rmSync(dev);
    try {
      await vscode.commands.executeCommand("autodev.refresh");
      const ledger = vscode.Uri.file(path.join(f.cwd, ".autodev/plan-ledger.jsonl"));
      const lines = fs.readFileSync(ledger.fsPath, "utf8").split("\n");
      let want = -1;
      lines.forEach((l, i) => {
        if (l.includes('"status": "auto_gated"') && l.includes('"task_id": "1.2"')) want = i;
      });
      const found = () => vscode.languages.getDiagnostics(ledger).find((d) => d.code === "phase_without_evidence");
      assert.ok(await eventually(() => !!found(), 30_000), "no phase_without_evidence in Problems");
      assert.equal(found()!.range.start.line, want);
    } finally {
      fs.writeFileSync(dev, saved);
      await vscode.commands.executeCommand("autodev.refresh");
    }
  });

  it("agloop: the current phase's contract, preconditions met, re-entry naming the task", async () => {
    const folder = () => a.folders.all.find((s) => s.kind === "agloop" && s.folder.name === "agloop-clean");
    assert.ok(await eventually(() => (folder()?.problems ?? null) !== null, 30_000), "agloop-clean not read");
    const root = async () => (await childrenOf(a)).find((n) => n.kind === "sourceRoot" && n.state === folder());
    // Other tests of the run move agloop-clean's current task on; the contract follows it.
    const contract = await eventuallyChild(root, /^Contract: execute · task-\d+$/);
    const task = /task-\d+/.exec(label(contract))![0];
    const labels = (await childrenOf(a, contract)).map(label);
    assert.ok(labels.includes("the critic approved the plan"), labels.join(" | "));
    assert.ok(labels.includes("the user approved execution (log.json)"), labels.join(" | "));
    assert.ok(
      labels.some((l) => l.startsWith(`a restart resumes ${task} in execute, iteration 1`)),
      labels.join(" | "),
    );
  });
});
