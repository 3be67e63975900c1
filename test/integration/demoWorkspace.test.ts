// The demo workspace in the real VS Code (issue 22 item 14): generated as "Open Demo Workspace"
// generates it, opened as a workspace folder; its Plan view leads AutoDev's root with "Waiting on
// reviewer for 1.3" (the delegation derived from the recorded AutoDev run) and has a Knowledge
// section with the swarm lessons; agloop's root leads with the approval gate of the hook-written
// lifecycle run; both waits count on the view's badge; and nothing of it reaches Problems.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { StateApi } from "../../src/extension/extension";
import { createDemoWorkspace } from "../../src/sample/demoWorkspace";
import { type AnyNode, autodevOf, childrenOf, eventually, stateApi } from "./helpers";
import { addWorkspaceFolders, removeWorkspaceFolders } from "./workspaceFolders";

function labelOf(a: StateApi, node: AnyNode): string {
  const item = a.tree.getTreeItem(node);
  return typeof item.label === "string" ? item.label : (item.label?.label ?? "");
}

describe("the demo workspace shows every feature in VS Code", function () {
  this.timeout(180_000);
  let a: StateApi;
  let dir: string;
  const mine = () => a.folders.all.filter((f) => f.folder.uri.fsPath === dir);

  before(async () => {
    a = await stateApi();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-demo-it-"));
    await createDemoWorkspace(dir);
    await addWorkspaceFolders([{ dir, name: "demo" }]);
    assert.ok(
      await eventually(() => mine().length === 3 && mine().every((f) => !!f.problems), 60_000),
      `the demo's sources were never read: ${mine()
        .map((f) => f.kind)
        .join(", ")}`,
    );
  });

  after(async () => {
    await removeWorkspaceFolders(a, [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The children of the demo's root of `kind` (AutoDev's own root node, or the default adapter's). */
  async function rootChildren(kind: string): Promise<AnyNode[]> {
    const folder = mine().find((f) => f.kind === kind);
    assert.ok(folder, `no ${kind} source in the demo`);
    const autodev = autodevOf(a).folders.folders.find((x) => x.cwd === dir);
    const root = (await childrenOf(a)).find((n) =>
      kind === "autodev" ? n.kind === "root" && n.folder === autodev : n.kind === "sourceRoot" && n.state === folder,
    );
    assert.ok(root, `no tree root for the demo's ${kind}`);
    return childrenOf(a, root);
  }

  it("leads AutoDev's root with the run waiting on the reviewer and shows Knowledge", async () => {
    const autodev = mine().find((f) => f.kind === "autodev")!;
    assert.ok(await eventually(() => autodev.waiting !== null, 30_000), "the AutoDev run is not waiting");
    assert.equal(autodev.waiting?.what, "Waiting on reviewer for 1.3");
    const labels = (await rootChildren("autodev")).map((n) => labelOf(a, n));
    assert.match(labels[0] ?? "", /^Waiting on reviewer for 1\.3/, labels.join(" | "));
    assert.ok(labels.includes("Knowledge"), labels.join(" | "));
  });

  it("leads agloop's root with the approval gate; both waits count on the badge; no problems", async () => {
    const agloop = mine().find((f) => f.kind === "agloop")!;
    assert.ok(await eventually(() => agloop.waiting !== null, 30_000), "agloop is not waiting");
    const first = (await rootChildren("agloop"))[0];
    assert.equal(labelOf(a, first), "Waiting for your approval");
    assert.ok(
      await eventually(() => a.folders.waiting.filter((w) => w.folder.folder.uri.fsPath === dir).length === 2, 30_000),
    );
    for (const f of mine()) assert.deepEqual(f.problems, [], `${f.kind}: ${JSON.stringify(f.problems)}`);
  });
});
