// The AutoDev run state inside the real VS Code, on test/fixtures/python-full/workspace (written by the
// real Python AutoDev: plan phase, plan + impl tournaments, lessons, a run suspended in inline mode):
// "Waiting on reviewer for 1.2" on top with its delegation and response; tournaments with passes, judges,
// read-only artifacts and diffs; knowledge; config errors in Problems at the key's line; spec drift;
// "AutoDev running" in the status bar and the tree while a python3 process holds .autodev/.lock.
import * as assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { type AnyNode, autodevOf, childrenOf, eventually, extension, report } from "../helpers";
import { pollFor } from "../../helpers/poll";

const REPO = path.resolve(__dirname, "../../../..");

describe("AutoDev run state (python-full)", function () {
  this.timeout(120_000);
  let a: StateApi;
  let f: AutodevFolder;

  const rootOf = async () => (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === f)!;
  const item = (n: AnyNode) => a.tree.getTreeItem(n);
  const label = (n: AnyNode) => String(item(n).label);
  async function child(parent: AnyNode | undefined, match: RegExp): Promise<AnyNode | undefined> {
    return (await childrenOf(a, parent ?? (await rootOf()))).find((n) => match.test(label(n)));
  }
  async function eventuallyChild(
    parent: () => Promise<AnyNode | undefined>,
    match: RegExp,
    what: string,
  ): Promise<AnyNode> {
    return pollFor(
      async () => child(await parent(), match),
      30_000,
      () => `${what}: no node matching ${match}`,
    );
  }
  async function click(n: AnyNode): Promise<void> {
    const cmd = item(n).command!;
    await vscode.commands.executeCommand(cmd.command, ...(cmd.arguments ?? []));
  }

  before(async () => {
    const ext = extension();
    await ext.activate();
    a = ext.exports as StateApi;
    const find = () =>
      autodevOf(a).folders.folders.find(
        (x) => fs.existsSync(path.join(x.cwd, ".autodev/inline-state.json")) && !!x.live,
      );
    assert.ok(
      await eventually(() => !!find(), 30_000),
      "the python-full workspace is not open (scripts/test-workspace.mjs lists it by default)",
    );
    f = find()!;
    assert.ok(await eventually(() => autodevOf(a).run.view.of(f) !== null, 30_000), "run state never read");
  });

  it("leads the tree with the suspension: waiting on the reviewer for 1.2, delegation opens, response missing", async () => {
    const first = (await childrenOf(a, await rootOf()))[0];
    assert.equal(label(first), "Waiting on reviewer for 1.2");
    const delegation = (await child(first, /^Delegation$/))!;
    await click(delegation);
    assert.ok(
      vscode.window.activeTextEditor?.document.uri.fsPath.endsWith(
        path.join(".autodev", "delegations", "1.2-reviewer.md"),
      ),
    );
    assert.ok(await child(first, /^Response: not written yet$/));
    assert.match(autodevOf(a).run.status.text ?? "", /Waiting on reviewer for 1\.2/);
  });

  it("a click on 'Waiting on reviewer for 1.2' opens the delegation, as its tooltip says", async () => {
    const { command, tooltip } = autodevOf(a).run.status.click;
    assert.match(tooltip, /click to see the delegation/);
    assert.ok(command, "the waiting item has a command");
    await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
    assert.ok(
      await eventually(
        () => /Preview.*1\.2-reviewer\.md/.test(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? ""),
        20_000,
      ),
      `active tab: ${vscode.window.tabGroups.activeTabGroup.activeTab?.label}`,
    );
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("follows the response file: present, then invalid with a problem at its line", async () => {
    const file = path.join(f.cwd, ".autodev/responses/1.2-reviewer.json");
    const waiting = async () => (await childrenOf(a, await rootOf()))[0];
    fs.writeFileSync(
      file,
      JSON.stringify(
        { schema_version: "1.0", task_id: "1.2", role: "reviewer", success: true, text: "APPROVED" },
        null,
        2,
      ),
    );
    await eventuallyChild(waiting, /^Response: present$/, "valid response");
    fs.writeFileSync(
      file,
      '{\n  "task_id": "1.2",\n  "role": "reviewer",\n  "success": "perhaps",\n  "text": "x"\n}\n',
    );
    await eventuallyChild(waiting, /^Response: invalid \(line 4\)$/, "invalid response");
    const diags = a.diagnostics.get(vscode.Uri.file(file));
    assert.equal(diags[0]?.range.start.line, 3);
    fs.rmSync(file);
    await eventuallyChild(waiting, /^Response: not written yet$/, "response removed");
  });

  it("browses tournaments: passes, winners, judges, read-only artifacts and the A ↔ AB diff", async () => {
    const tours = (await child(undefined, /^Tournaments$/))!;
    assert.equal(item(tours).description, "2");
    const plan = (await child(tours, /^plan-/))!;
    assert.match(String(item(plan).description), /plan · 3 passes · last A · converged/);
    const pass1 = (await child(plan, /^Pass 1: AB won$/))!;
    assert.match(String(item(pass1).description), /A 4 · B 2 · AB 6 · 2\/3 judges/);
    assert.ok(await child(pass1, /^Judge 3: no usable ranking$/));
    await click((await child(pass1, /^Critic$/))!);
    const doc = vscode.window.activeTextEditor!.document;
    assert.equal(doc.uri.scheme, "autodev-view", "artifacts open read-only");
    assert.match(doc.getText(), /Pass 1 critique/);
    await click((await child(pass1, /^Compare A ↔ AB$/))!);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab!;
    assert.ok(tab.input instanceof vscode.TabInputTextDiff, "a diff editor opened");
    const input = tab.input as vscode.TabInputTextDiff;
    assert.equal(input.original.scheme, "autodev-view");
    const [left, right] = await Promise.all([
      vscode.workspace.openTextDocument(input.original),
      vscode.workspace.openTextDocument(input.modified),
    ]);
    assert.ok(!left.getText().includes("variant:AB pass:1") && right.getText().includes("variant:AB pass:1"));
    const impl = (await child(tours, /^impl-/))!;
    assert.match(String(item(impl).description), /^task 1\.1 · 2 passes/);
  });

  it("shows knowledge, config settings with the retry limit, and what comes next", async () => {
    const k = (await child(undefined, /^Knowledge$/))!;
    assert.match(String(item(k).description), /^3 project · \d+ hive · 1 rejected$/);
    const cfg = (await child(undefined, /^Config$/))!;
    assert.equal(item(cfg).description, "inline · valid");
    assert.match(String(item((await child(cfg, /^QA retry limit$/))!).description), /^3 · 1\.2 at retry 0\/3$/);
    const next = (await child(undefined, /^What comes next$/))!;
    assert.match(String(item((await child(next, /^autodev execute$/))!).description), /starts task 2\.1/);
  });

  it("puts a damaged config.json in Problems at the key's line and flags an edited spec", async () => {
    const cfgFile = path.join(f.cwd, ".autodev/config.json");
    const specFile = path.join(f.cwd, ".autodev/spec.md");
    const [cfgText, specText] = [fs.readFileSync(cfgFile, "utf8"), fs.readFileSync(specFile, "utf8")];
    try {
      const broken = cfgText.replace('"qa_retry_limit": 3', '"qa_retry_limit": "three"');
      fs.writeFileSync(cfgFile, broken);
      fs.writeFileSync(specFile, `${specText}Also say goodbye.\n`);
      const line = broken.split("\n").findIndex((l) => l.includes('"qa_retry_limit"'));
      assert.ok(
        await eventually(
          () =>
            a.diagnostics
              .get(vscode.Uri.file(cfgFile))
              .some((d) => d.range.start.line === line && /qa_retry_limit/.test(d.message)),
          30_000,
        ),
        "no config diagnostic at the key's line",
      );
      assert.ok(
        await eventually(
          () => a.diagnostics.get(vscode.Uri.file(specFile)).some((d) => d.code === "spec_drift"),
          30_000,
        ),
        "no spec drift diagnostic",
      );
      await eventuallyChild(async () => undefined, /^Spec drift$/, "spec drift node");
    } finally {
      fs.writeFileSync(cfgFile, cfgText);
      fs.writeFileSync(specFile, specText);
    }
    assert.ok(
      await eventually(() => a.diagnostics.get(vscode.Uri.file(cfgFile)).length === 0, 30_000),
      "config diagnostics did not clear",
    );
  });

  it("says AutoDev is running while a python3 process holds .autodev/.lock, and clears on release", async () => {
    const holder = spawn(
      "python3",
      [
        path.join(REPO, "test/python/tools/hold_lock.py"),
        "hold",
        path.join(f.cwd, ".autodev/.lock"),
        "--seconds",
        "60",
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    const exited = new Promise((r) => holder.on("exit", r));
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on("data", (d: Buffer) => String(d).startsWith("ACQUIRED") && resolve());
        holder.on("exit", (c) => reject(new Error(`hold_lock.py exited ${c}`)));
      });
      assert.ok(
        await eventually(() => /AutoDev running/.test(autodevOf(a).run.status.text ?? ""), 40_000),
        "status bar never said running",
      );
      assert.equal(label((await childrenOf(a, await rootOf()))[0]), "AutoDev is running");
    } finally {
      holder.stdin!.end();
      await exited;
    }
    assert.ok(
      await eventually(() => !/AutoDev running/.test(autodevOf(a).run.status.text ?? ""), 20_000),
      "running did not clear after release",
    );
    assert.equal(label((await childrenOf(a, await rootOf()))[0]), "Waiting on reviewer for 1.2");
  });

  it("sees flock(1)'s lock once the lock file changes (no poll while idle), and its release with no file event", async () => {
    const lock = path.join(f.cwd, ".autodev/.lock");
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, "");
    // The test before released its lock just now: the refresh its file events started (one spell of
    // autodev.debounceMs, then its read) must be over first, or it would rightly probe this hold.
    await new Promise((r) => setTimeout(r, 1500));
    // An exclusive flock held for 9 s: flock(1) opens without O_TRUNC, so no file changes.
    const holder = spawn("flock", ["--exclusive", lock, "sleep", "9"], { stdio: "ignore", detached: true });
    const exited = new Promise((r) => holder.on("exit", r));
    try {
      // Nothing polls while nothing runs: the hold alone is not seen...
      await new Promise((r) => setTimeout(r, 2500));
      assert.doesNotMatch(autodevOf(a).run.status.text ?? "", /AutoDev running/, "polled while idle");
      // ...until the lock file changes, as Python's filelock changes it (open with O_TRUNC).
      const t0 = Date.now();
      fs.truncateSync(lock, 0);
      assert.ok(
        await eventually(() => /AutoDev running/.test(autodevOf(a).run.status.text ?? ""), 5_000),
        "status bar never said running once the lock file changed",
      );
      report(`lock file changed under flock(1) → 'AutoDev running': ${Date.now() - t0} ms`);
    } finally {
      process.kill(-holder.pid!, "SIGKILL"); // flock(1) and the sleep that inherited the locked descriptor
      await exited;
    }
    // The release changes no file: the probe, polled while running, sees it.
    const t1 = Date.now();
    assert.ok(
      await eventually(() => !/AutoDev running/.test(autodevOf(a).run.status.text ?? ""), 8_000),
      "running did not clear after flock(1) ended",
    );
    report(`flock(1) release → cleared: ${Date.now() - t1} ms`);
  });
});
