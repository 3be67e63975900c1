/**
 * Recovery reachable (issue 22 item 7), on the agloop-clean copy with its state.json broken: the
 * palette has "agloop: Recover from Checkpoint…", whose picker lists every checkpoint by type,
 * trigger, time (relative and absolute, no raw ISO text) and summary; each checkpoint's context
 * menu runs "Recover from This Checkpoint…" on that one (not the newest), through the one
 * confirmed path (preview, question, run), and "state.json does not parse" opens the picker.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import type { DefaultSourceFolder } from "../../../src/extension/sources/defaultSourceFolder";
import type { DefaultNode } from "../../../src/extension/sources/sourceTreeModel";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { type AnyNode, childrenOf, eventually, extension, stateApi } from "../helpers";

const RECOVER = agloopSource.commands![0];

describe("agloop: Recover from Checkpoint", function () {
  this.timeout(120_000);
  let a: StateApi;
  let state: DefaultSourceFolder;
  let stateFile: string;
  let logFile: string;
  let saved: { state: Buffer; log: Buffer };

  /** Every node under the agloop-clean root, depth first. */
  async function nodes(): Promise<AnyNode[]> {
    const root = (await childrenOf(a)).find((n) => n.kind === "sourceRoot" && n.state === state)!;
    const out: AnyNode[] = [];
    const walk = async (n: AnyNode): Promise<void> => {
      for (const c of await childrenOf(a, n)) {
        out.push(c);
        await walk(c);
      }
    };
    await walk(root);
    return out;
  }
  const local = (n: AnyNode) =>
    n.kind === "sourceNode" ? (n as Extract<DefaultNode, { kind: "sourceNode" }>).node : null;

  before(async () => {
    a = await stateApi();
    const find = () =>
      a.folders.all.find((s) => s.kind === "agloop" && s.folder.name === "agloop-clean") as
        DefaultSourceFolder | undefined;
    assert.ok(await eventually(() => (find()?.problems ?? null) !== null, 30_000), "agloop-clean never read");
    state = find()!;
    stateFile = path.join(state.cwd, ".agloop", "state.json");
    logFile = path.join(state.cwd, ".agloop", "log.json");
    saved = { state: fs.readFileSync(stateFile), log: fs.readFileSync(logFile) };
    fs.writeFileSync(stateFile, saved.state.subarray(0, 200)); // cut short: does not parse
    assert.ok(
      await eventually(() => state.tree.some((n) => n.id === "agloop/state-unusable"), 20_000),
      "the tree never said state.json does not parse",
    );
  });

  after(async () => {
    fs.writeFileSync(stateFile, saved.state);
    fs.writeFileSync(logFile, saved.log);
    assert.ok(
      await eventually(() => !state.tree.some((n) => n.id === "agloop/state-unusable"), 20_000),
      "the restored state is usable again",
    );
  });

  it("is a palette command and a checkpoint's context menu item", async () => {
    const ids = await vscode.commands.getCommands(true);
    assert.ok(ids.includes("autodev.recoverFromCheckpoint"));
    assert.ok(ids.includes("autodev.recoverFromThisCheckpoint"));
    const manifest = extension().packageJSON as {
      contributes: {
        commands: { command: string; category: string }[];
        menus: Record<string, { command: string; when?: string }[]>;
      };
    };
    const palette = manifest.contributes.commands.find((c) => c.command === "autodev.recoverFromCheckpoint");
    assert.equal(palette?.category, "agloop");
    const menu = manifest.contributes.menus["view/item/context"].find(
      (m) => m.command === "autodev.recoverFromThisCheckpoint",
    );
    assert.match(menu?.when ?? "", /viewItem == agloop\.checkpoint/);
  });

  it("the picker lists every checkpoint by type, trigger, time and summary; the broken state's row opens it", async () => {
    const picks = a.sourceActions.picks([state], RECOVER.action);
    const names = fs.readdirSync(path.join(state.cwd, ".agloop", "checkpoints"));
    assert.equal(picks.length, names.length, picks.map((p) => p.label).join(" | "));
    for (const p of picks) {
      assert.match(p.label, /^[\w-]+ checkpoint( \(older format\))?$/);
      assert.match(String(p.description), /^[^·]+ \([^)]*\d{4}[^)]*\)/, String(p.description));
      assert.doesNotMatch(String(p.description), /\d{4}-\d\d-\d\dT/, "no raw ISO time");
      assert.ok(
        names.some((n) => String(p.detail).endsWith(n)),
        String(p.detail),
      );
    }
    assert.ok(picks.some((p) => /^trigger: /.test(String(p.description).split(" · ")[1] ?? "")));
    const broken = (await nodes()).find((n) => local(n)?.id === "agloop/state-unusable")!;
    const cmd = a.tree.getTreeItem(broken).command!;
    assert.deepEqual(cmd.arguments?.[1], { kind: "choose", action: RECOVER.action });
  });

  it("Recover from This Checkpoint restores that checkpoint, not the newest, after the question", async () => {
    const cps = (await nodes()).filter((n) => local(n)?.contextValue === "agloop.checkpoint");
    assert.ok(cps.length >= 3);
    const older = cps[cps.length - 2]; // newest first: not the newest one
    const name = local(older)!.actions![0].args[0];
    const asked: string[] = [];
    await a.sourceActions.runOnNode(RECOVER, older, async (title, detail) => {
      asked.push(`${title}\n${detail}`);
      return false;
    });
    assert.equal(asked.length, 1);
    assert.match(asked[0], new RegExp(name.replace(/[.]/g, "\\.")));
    assert.equal(fs.readFileSync(stateFile).length, 200, "declined: nothing written");

    await a.sourceActions.runOnNode(RECOVER, older, async () => true);
    const checkpoint = JSON.parse(fs.readFileSync(path.join(state.cwd, ".agloop", "checkpoints", name), "utf8"));
    delete checkpoint._checkpoint;
    const inner = checkpoint.state ?? checkpoint;
    assert.deepEqual(JSON.parse(fs.readFileSync(stateFile, "utf8")), inner);
    const last = JSON.parse(fs.readFileSync(logFile, "utf8").trim().split("\n").pop()!);
    assert.equal(last.action, "state_recovered");
    assert.equal(last.metadata.checkpoint, name);
  });
});
