/**
 * The folder registry made as the extension makes it (`watchNow` false): it detects and shows its
 * sources without a watch, and `startWatching` (after the tree's first paint) opens them, sets the
 * context keys and detects once more after the first catch-up time, so a state folder that came
 * between the first detection and the watches is shown all the same.
 */
import { fakeContext, fakeVscode, fakeWatchers } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { REPO_ROOT } from "../fixtures";
import { inThreadWorker } from "../helpers/inThreadWorker";
import { CommandManager } from "../../../src/extension/commandManager";
import { OutputLog } from "../../../src/extension/outputLog";
import type { ReadOnlyDocuments } from "../../../src/extension/readOnlyDocuments";
import { SettingsReader } from "../../../src/extension/settings/settings";
import type { AdapterHost } from "../../../src/extension/sources/adapterHost";
import { DefaultAdapters } from "../../../src/extension/sources/defaultAdapter";
import { StateFolders } from "../../../src/extension/sources/stateFolders";
import { StateWatcher } from "../../../src/extension/watch/stateWatcher";
import { pollUntil } from "../../helpers/poll";

describe("watches after the first paint", () => {
  let dir: string;
  let folders: StateFolders;
  const disposables: vscode.Disposable[] = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "watch-after-paint-"));
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/agloop-clean/.agloop"), path.join(dir, ".agloop"), {
      recursive: true,
    });
    fakeVscode.workspace.workspaceFolders = [{ uri: fakeVscode.Uri.file(dir), name: "ws", index: 0 }];
    fakeWatchers.length = 0;
    fakeContext.clear();
    const log = new OutputLog();
    const worker = inThreadWorker();
    const watcher = new StateWatcher();
    const made: { defaults?: DefaultAdapters } = {};
    folders = new StateFolders(
      worker,
      log,
      new SettingsReader(),
      watcher,
      (kind) => made.defaults!.adapter(kind),
      [300],
      false,
    );
    const host = {
      context: { subscriptions: disposables },
      worker,
      log,
      settings: new SettingsReader(),
      commands: new CommandManager(log),
      docs: {} as ReadOnlyDocuments,
      folders,
      tree: { refresh: () => undefined, children: async () => [] },
      afterPaint: (work: () => void) => work(),
    } as unknown as AdapterHost;
    made.defaults = new DefaultAdapters(host);
    disposables.push(folders, watcher);
  });

  afterEach(() => {
    disposables.splice(0).forEach((d) => d.dispose());
    fakeVscode.workspace.workspaceFolders = [];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows the sources with no watch and no context key until startWatching, then opens them", async () => {
    await folders.sync();
    assert.deepEqual(
      folders.all.map((f) => f.kind),
      ["agloop"],
    );
    assert.equal(fakeWatchers.length, 0, "a watch before startWatching");
    assert.equal(fakeContext.size, 0, "a context key before startWatching");
    folders.startWatching();
    assert.ok(fakeWatchers.length >= 1, "no watch after startWatching");
    assert.equal(fakeContext.get("autodev.has.agloop"), true);
    assert.equal(fakeContext.get("autodev.hasState"), true);
  });

  it("detects again after the first catch-up: a state folder that came before the watches is shown", async () => {
    await folders.sync();
    // No watcher saw this (none was open yet), and the fake watchers never announce anything.
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/python-small/.autodev"), path.join(dir, ".autodev"), {
      recursive: true,
    });
    folders.startWatching();
    const shown = await pollUntil(() => folders.all.some((f) => f.kind === "autodev"), 3_000, 20);
    assert.ok(shown, `after the catch-up: ${folders.all.map((f) => f.kind).join(", ")}`);
  });
});
