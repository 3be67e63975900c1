// agloop's "waits on you" inside the real VS Code, through the generic source seam (StateSource.waiting):
// the lifecycle stop kept at the approval gate (test/fixtures/agloop-lifecycle/, written by running a real
// agloop install's hook scripts) counts on the view's badge, is notified, leads its tree, and ends live
// when the user's approval — the log line the run wrote next — is appended to log.json.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import { withOpenActions } from "../../../src/extension/sources/defaultSourceFolder";
import type { SourceFolder } from "../../../src/extension/sources/sourceAdapter";
import { childrenOf, eventually, stateApi } from "../helpers";
import { addWorkspaceFolders, removeWorkspaceFolders } from "../workspaceFolders";

const LIFECYCLE = path.resolve(__dirname, "../../../../test/fixtures/agloop-lifecycle");

function logLines(file: string): string[] {
  return fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
}

describe("agloop waits on you at the approval gate", function () {
  this.timeout(120_000);
  let a: StateApi;
  let dir: string;
  let gate: string;
  let folder: SourceFolder;
  const config = () => vscode.workspace.getConfiguration("autodev");
  const mine = () => a.folders.waiting.filter((w) => w.folder.folder.uri.fsPath === dir);

  before(async () => {
    a = await stateApi();
    const stops = fs.readdirSync(LIFECYCLE).sort();
    gate = stops.find((s) => s.endsWith("-critique-gate"))!;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "agloop-gate-"));
    fs.cpSync(path.join(LIFECYCLE, gate, ".agloop"), path.join(dir, ".agloop"), { recursive: true });
    await config().update("notifyWhenWaiting", "always", vscode.ConfigurationTarget.Workspace);
    await addWorkspaceFolders([{ dir, name: "agloop-gate" }]);
    const find = () => a.folders.all.find((f) => f.kind === "agloop" && f.folder.uri.fsPath === dir);
    assert.ok(await eventually(() => !!find()?.problems, 30_000), "the agloop folder was never read");
    folder = find()!;
  });

  after(async () => {
    await config().update("notifyWhenWaiting", undefined, vscode.ConfigurationTarget.Workspace);
    await removeWorkspaceFolders(a, [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("counts on the badge, is notified and leads the tree, with the question the hook relays", async () => {
    const said = JSON.parse(fs.readFileSync(path.join(LIFECYCLE, gate, "session-start.json"), "utf8")) as {
      instructions: string;
    };
    const question = /Pending decision: (.*?)\. Last delegation:/.exec(said.instructions)?.[1];
    assert.ok(question, "the SessionStart hook relays a pending decision");
    assert.ok(await eventually(() => mine().length === 1, 30_000), "the badge does not count the agloop wait");
    assert.equal(folder.waiting?.who, "you");
    assert.ok(folder.waiting.what.includes(question.slice(0, 100)), folder.waiting.what);
    assert.ok((a.treeView.badge?.value ?? 0) >= 1);
    assert.ok(
      await eventually(() => a.waiting.notices.some((n) => /agloop is waiting on you$/.test(n.message)), 30_000),
      `notices: ${a.waiting.notices.map((n) => n.message).join(" | ")}`,
    );
    const notice = a.waiting.notices.find((n) => /agloop is waiting on you$/.test(n.message))!;
    assert.deepEqual(notice.actions, ["Show in State View", "Open state.json"]);
    const open = folder.waiting.actions?.find((x) => x.command === "vscode.open");
    assert.equal((open?.arguments?.[0] as vscode.Uri | undefined)?.fsPath, path.join(dir, ".agloop", "state.json"));
    const hostile = withOpenActions(folder.folder, {
      who: "you",
      what: "x",
      files: ["../x", "/etc/passwd", "a/b.json"],
    });
    assert.deepEqual(
      hostile.actions?.map((x) => x.title),
      ["Show in State View", "Open b.json"],
      "a file outside the folder is not offered",
    );
    const root = (await childrenOf(a)).find((n) => n.kind === "sourceRoot" && n.state === folder);
    assert.ok(root, "no agloop root");
    const first = (await childrenOf(a, root))[0];
    assert.equal(String(a.tree.getTreeItem(first).label), "Waiting for your approval");
  });

  it("ends live when the user's approval the run logged next is appended", async () => {
    const next = fs.readdirSync(LIFECYCLE).sort()[fs.readdirSync(LIFECYCLE).sort().indexOf(gate) + 1];
    const log = path.join(dir, ".agloop/log.json");
    const approval = logLines(path.join(LIFECYCLE, next, ".agloop/log.json"))
      .slice(logLines(log).length)
      .filter((l) => /approv/i.test(l));
    assert.equal(approval.length, 1, `the approval between ${gate} and ${next}`);
    const now = () => a.folders.all.find((f) => f.kind === "agloop" && f.folder.uri.fsPath === dir);
    const generation = () => (now() as unknown as { generation?: number } | undefined)?.generation ?? -1;
    const before = generation();
    fs.appendFileSync(log, `${approval[0]}\n`);
    // The folder as the registry has it now (a re-detection may have made a new one).
    const ended = await eventually(() => now() !== undefined && now()!.waiting === null && mine().length === 0, 30_000);
    const refreshes = generation() - before;
    let afterRefresh: unknown = "not tried";
    if (!ended) {
      await now()?.refresh();
      afterRefresh = now()?.waiting ?? null;
    }
    assert.ok(
      ended,
      `still waiting: ${JSON.stringify({
        refreshesSinceAppend: refreshes,
        waitingAfterAManualRefresh: afterRefresh,
        registered: now() !== undefined,
        sameFolder: now() === folder,
        waiting: now()?.waiting ?? null,
        badge: mine().length,
        logBytes: fs.statSync(log).size,
      })}`,
    );
  });
});
