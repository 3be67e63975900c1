/**
 * The extension's start puts the state tree's first paint first: the real bundle
 * (dist/extensionMain.js, with its state worker thread) activated under the fake vscode on a copy
 * of python-small. Until the tree first answered with roots it makes no file watcher, sets no
 * context key and makes none of AutoDev's providers (the evidence documents, the checks of
 * response files); they all come in the task right after that answer. A command of those
 * providers run before the paint makes them on the spot.
 */
import { fakeCollections, fakeContext, fakeVscode, fakeWatchers } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import type { StateApi } from "../../../src/extension/extension";
import { REPO_ROOT } from "../fixtures";
import { freshMemento } from "../helpers/freshMemento";

type ExtensionMain = {
  activate(context: vscode.ExtensionContext): StateApi;
  deactivate(): Promise<void>;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("activation: the tree's first paint comes first", function () {
  this.timeout(30_000);
  let tmp: string;
  let context: vscode.ExtensionContext;
  let main: ExtensionMain;
  const schemes: string[] = [];
  const workspace = fakeVscode.workspace as unknown as Record<string, unknown>;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "first-paint-"));
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/python-small"), path.join(tmp, "ws"), { recursive: true });
    fakeVscode.workspace.workspaceFolders = [{ uri: fakeVscode.Uri.file(path.join(tmp, "ws")), name: "ws", index: 0 }];
    fakeWatchers.length = 0;
    fakeContext.clear();
    fakeCollections.delete("autodev-response");
    schemes.length = 0;
    workspace.registerTextDocumentContentProvider = (scheme: string) => {
      if (scheme !== "autodev-view") schemes.push(scheme); // the generic read-only documents: made at activation
      return { dispose: () => undefined };
    };
    context = {
      subscriptions: [],
      globalState: freshMemento(),
      workspaceState: freshMemento(),
      globalStorageUri: fakeVscode.Uri.file(path.join(tmp, "storage")),
      extensionUri: fakeVscode.Uri.file(REPO_ROOT),
      extensionPath: REPO_ROOT,
    } as unknown as vscode.ExtensionContext;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    main = require(path.join(REPO_ROOT, "dist", "extensionMain.js")) as ExtensionMain;
  });

  afterEach(async () => {
    for (const d of context.subscriptions.splice(0).reverse()) d.dispose();
    await main.deactivate();
    delete workspace.registerTextDocumentContentProvider;
    fakeVscode.workspace.workspaceFolders = [];
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("makes no watcher, no context key and no AutoDev provider until the tree answered with roots", async () => {
    const api = main.activate(context);
    let roots: unknown[] = [];
    for (let i = 0; i < 2_000 && roots.length === 0; i++) {
      roots = await api.tree.getChildren();
      if (roots.length === 0) await sleep(5);
    }
    assert.equal(roots.length, 1, "the AutoDev root is shown");
    // The same task as the first answer with roots.
    assert.deepEqual(
      fakeWatchers.map((w) => w.pattern.pattern),
      [],
      "file watchers made before the first paint",
    );
    assert.deepEqual([...fakeContext.keys()], [], "context keys set before the first paint");
    assert.deepEqual(schemes, [], "document providers registered before the first paint");
    assert.equal(fakeCollections.has("autodev-response"), false, "response checks made before the first paint");

    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(fakeWatchers.length >= 2, `the detection and source watches after the paint (${fakeWatchers.length})`);
    assert.equal(fakeContext.get("autodev.hasState"), true);
    assert.equal(fakeContext.get("autodev.has.autodev"), true);
    assert.equal(fakeContext.get("autodev.trusted"), true);
    assert.deepEqual(schemes, ["autodev-evidence"]);
    assert.ok(fakeCollections.has("autodev-response"), "the checks of response files after the paint");
    await api.firstPaint;
  });

  it("a command of AutoDev's providers run before the first paint makes them at once", async () => {
    const api = main.activate(context);
    assert.deepEqual(schemes, [], "the evidence documents made at activation");
    // showEvidence with no folder open yet: it asks for nothing and returns, the providers made.
    await fakeVscode.commands.executeCommand("autodev.showEvidence");
    assert.deepEqual(schemes, ["autodev-evidence"]);
    await api.firstPaint;
    assert.deepEqual(schemes, ["autodev-evidence"], "made twice");
  });
});
