/**
 * The day-to-day surface inside a real VS Code: the Plan tree on Python-written
 * workspaces (non-ASCII titles too), live updates from a python3 writer,
 * diagnostics on a tampered ledger, time travel and back, and Skip Task
 * writing an entry that a Python verifier accepts.
 */
import * as assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import { type AnyNode, autodevOf, childrenOf, eventually, extension, awaitAutodevVerified } from "../helpers";

const REPO = path.join(__dirname, "../../../..");

async function api(): Promise<StateApi> {
  const ext = extension();
  return (ext.isActive ? ext.exports : await ext.activate()) as StateApi;
}

function firstFolder(a: StateApi) {
  const f = autodevOf(a).folders.folders[0];
  assert.ok(f, "no AutoDev folder");
  return f;
}

/** "id title" of each task under `node`: the id is the label, the title ends the description. */
async function titledTasks(a: StateApi, node?: AnyNode): Promise<string[]> {
  const kids = await childrenOf(a, node);
  return kids.map((k) => {
    const item = a.tree.getTreeItem(k);
    return `${String(item.label)} ${String(item.description).split(" · ").pop()}`;
  });
}

describe("Plan view", function () {
  this.timeout(120_000);

  before(async () => {
    const a = await api();
    await awaitAutodevVerified(a);
  });

  it("shows one root per folder, phases with progress, tasks with status, retries and escalation", async () => {
    const a = await api();
    // One AutoDev root per folder with .autodev/ (other sources, such as the agloop fixtures, add roots of their own).
    const roots = (await childrenOf(a)).filter((n) => n.kind === "root");
    assert.equal(roots.length, autodevOf(a).folders.folders.length);
    const f = firstFolder(a);
    const root = roots[0];
    const rootItem = a.tree.getTreeItem(root);
    assert.match(String(rootItem.description), /ledger ok/);
    const phases = (await childrenOf(a, root)).filter((n) => n.kind === "phase");
    const phaseItems = phases.map((p) => a.tree.getTreeItem(p));
    assert.ok(
      phaseItems.every((p) => /^\d+\/\d+$/.test(String(p.description))),
      phaseItems.map((p) => p.description).join(),
    );
    const tasks = await childrenOf(a, phases[0]);
    const items = tasks.map((t) => a.tree.getTreeItem(t));
    assert.ok(items.length > 0);
    const live = f.live!;
    const t0 = live.phases[0].tasks[0];
    // At a 300 px sidebar the id is the label and the description starts with the status, then the
    // title, and only then the reviewed count of the task's diffs (when it has any).
    assert.equal(items[0].label, t0.id);
    const desc = String(items[0].description);
    const afterTitle = desc.slice(desc.indexOf(` · ${t0.title}`) + ` · ${t0.title}`.length);
    assert.ok(desc.includes(` · ${t0.title}`), desc);
    assert.match(afterTitle, /^( · \d+\/\d+ reviewed.*)?$/, desc);
    if (Number(t0.retry_count) > 0) {
      assert.match(String(items[0].description), new RegExp(`^\\S.* · retry ${t0.retry_count}`));
    }
    if (t0.escalated) {
      assert.match(String(items[0].description), / · ⚑ · /);
      assert.match(String(items[0].accessibilityInformation?.label), /escalated/);
    }
    assert.ok(items[0].iconPath instanceof vscode.ThemeIcon);
  });

  it("renders non-ASCII titles from a Python-written ledger exactly", async () => {
    const a = await api();
    const uni = autodevOf(a).folders.folders.find((f) => f.live?.plan_id === "p-unicode");
    assert.ok(uni, "the python-unicode folder is part of the test workspace");
    const root = (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === uni)!;
    assert.equal(a.tree.getTreeItem(root).label, "Internationaler Plan — 国際 🌍");
    const phases = (await childrenOf(a, root)).filter((n) => n.kind === "phase");
    // The id is the label; the title ends the description (status first, for a narrow sidebar).
    assert.deepEqual(await titledTasks(a, phases[0]), [
      "1.1 Übersetzung prüfen — naïve café",
      "1.2 日本語のドキュメントを書く",
      "1.3 Emoji 🚀 launch checklist ✓",
    ]);
    assert.deepEqual(await titledTasks(a, phases[1]), ["2.1 שלום — RTL title"]);
  });

  it("reflects an append by a python3 process within seconds", async () => {
    const a = await api();
    const f = firstFolder(a);
    const pending = f.live!.phases.flatMap((p) => p.tasks).find((t) => t.status === "pending")!;
    const t0 = Date.now();
    execFileSync("python3", [path.join(REPO, "test/python/tools/set_status.py"), f.cwd, pending.id, "in_progress"]);
    const seen = await eventually(
      () => f.live!.phases.flatMap((p) => p.tasks).find((t) => t.id === pending.id)?.status === "in_progress",
      10_000,
    );
    assert.ok(seen, "the tree never showed the python append");
    console.log(`      python append reflected in ${Date.now() - t0} ms`);
    assert.equal(f.report?.ok, true);
  });

  it("puts a diagnostic on the tampered line, then clears it when the ledger is restored", async () => {
    const a = await api();
    const f = firstFolder(a);
    const original = fs.readFileSync(f.ledgerFile);
    const lines = original.toString("utf8").split("\n");
    lines[2] = lines[2].replace(/"status": "(\w+)"/, '"status": "tampered"');
    try {
      fs.writeFileSync(f.ledgerFile, lines.join("\n"));
      const ok = await vscode.commands.executeCommand<boolean>("autodev.verify", f.folder.uri.toString());
      assert.equal(ok, false);
      const uri = vscode.Uri.file(f.ledgerFile);
      assert.ok(await eventually(() => a.diagnostics.get(uri).length > 0, 10_000), "no diagnostics");
      const d = a.diagnostics.get(uri)[0];
      assert.equal(d.range.start.line, 2);
      assert.equal(d.code, "self_hash_mismatch");
      assert.match(d.message, /^self_hash mismatch: computed [0-9a-f]{16}, stored [0-9a-f]{16}/);
      assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    } finally {
      fs.writeFileSync(f.ledgerFile, original);
    }
    await vscode.commands.executeCommand("autodev.verify", f.folder.uri.toString());
    assert.ok(
      await eventually(
        () =>
          !a.diagnostics.get(vscode.Uri.file(f.ledgerFile)).some((d) => d.severity === vscode.DiagnosticSeverity.Error),
        10_000,
      ),
    );
  });

  it("time-travels to an earlier entry and back to live", async () => {
    const a = await api();
    const f = firstFolder(a);
    await vscode.commands.executeCommand("autodev.showPlanAsOf", f.folder.uri.toString(), 2);
    assert.equal(f.timeTravel?.seq, 2);
    assert.ok(
      f.plan!.phases.flatMap((p) => p.tasks).every((t) => t.status === "pending"),
      "at seq 2 every task is pending",
    );
    const root = (await childrenOf(a)).find((n) => n.kind === "root" && n.folder === f)!;
    assert.match(String(a.tree.getTreeItem(root).description), /as of seq 2/);
    assert.equal((await childrenOf(a, root))[0].kind, "info", "a marker leads the tree while travelling");
    await vscode.commands.executeCommand("autodev.backToLive", f.folder.uri.toString());
    assert.equal(f.timeTravel, null);
  });

  it("Skip Task writes an entry a Python verifier accepts", async () => {
    const a = await api();
    const f = firstFolder(a);
    const pending = f.live!.phases.flatMap((p) => p.tasks).find((t) => t.status === "pending")!;
    const node = await autodevOf(a).findTaskNode(f, pending.id);
    const seq = await autodevOf(a).tasks.transition(node, "pending", "skipped", "Skip", false);
    assert.ok(seq && seq > 0);
    const py = spawnSync("python3", [path.join(REPO, "test/python/tools/verify_ledger.py"), f.ledgerFile], {
      encoding: "utf8",
    });
    assert.equal(py.status, 0, py.stdout);
    assert.ok(
      await eventually(
        () => f.live!.phases.flatMap((p) => p.tasks).find((t) => t.id === pending.id)?.status === "skipped",
        10_000,
      ),
    );
  });
});
