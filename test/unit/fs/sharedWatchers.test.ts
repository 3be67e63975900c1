/**
 * How many of VS Code's file watchers the extension opens per workspace folder: the sources'
 * detect and watch globs share one watcher per folder of files watched by name (AutoDev's ten
 * markers, agloop's and engine_state's files) and one per wildcard pattern, counted on the real
 * folder registry and adapters over fake `vscode`; and a listener of one file of a shared
 * watcher hears that file alone.
 */
import { fakeVscode, fakeWatchers } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { StateWatcher, type FileEventKind } from "../../../src/extension/watch/stateWatcher";
import { openEditor, type EditorSession } from "../helpers/editorSession";
import { REPO_ROOT } from "../fixtures";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import { fileSignature } from "../../../src/core/fs/fileSignature";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";

/** The watchers open now whose folder is `dir` or inside it, as `folder-relative base ▸ pattern`. */
function openWatchers(dir: string, from: number): string[] {
  return fakeWatchers
    .slice(from)
    .filter((w) => !w.disposed && (w.pattern.baseUri.fsPath + "/").startsWith(dir + "/"))
    .map((w) => `${path.relative(dir, w.pattern.baseUri.fsPath) || "."} ▸ ${w.pattern.pattern}`)
    .sort();
}

describe("StateWatcher: watchers shared per folder", function () {
  this.timeout(60_000);
  let root = "";
  let session: EditorSession | null = null;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "shared-watchers-"));
  });

  afterEach(() => {
    session?.dispose();
    session = null;
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("opens a few watchers per workspace folder, whatever the number of globs @slow", async () => {
    const dirs: Record<string, string> = {};
    for (const name of ["python-small", "agloop-clean", "engine-state-small"]) {
      dirs[name] = path.join(root, name);
      fs.cpSync(path.join(REPO_ROOT, "test/fixtures", name), dirs[name], { recursive: true });
    }
    dirs.empty = path.join(root, "empty");
    fs.mkdirSync(dirs.empty);
    const from = fakeWatchers.length;
    session = await openEditor(Object.values(dirs));
    assert.deepEqual(
      session.folders.all.map((f) => f.kind).sort(),
      ["agloop", "autodev", "engine_state"],
      "each source found in its folder",
    );
    const detection = [".agloop ▸ *", ".autodev ▸ *", "engine_state ▸ *"];
    assert.deepEqual(openWatchers(dirs.empty, from), detection, "a folder with no state: detection only");
    assert.deepEqual(openWatchers(dirs["python-small"], from), [".", ...detection].map(fix(".autodev/**")).sort());
    assert.deepEqual(
      openWatchers(dirs["agloop-clean"], from),
      [".", ...detection].map(fix(".agloop/checkpoints/*.json")).sort(),
    );
    assert.deepEqual(
      openWatchers(dirs["engine-state-small"], from),
      detection,
      "engine_state's files share detection's",
    );
  });

  it("a listener of one file of a shared folder watcher hears that file only", () => {
    const wf = { uri: fakeVscode.Uri.file(root), name: "ws", index: 0 } as unknown as vscode.WorkspaceFolder;
    const watcher = new StateWatcher(3_600_000);
    const heard: string[] = [];
    const from = fakeWatchers.length;
    const listen = (glob: string) =>
      watcher.watch(wf, glob, (uri: vscode.Uri, kind: FileEventKind) =>
        heard.push(`${glob}: ${path.relative(root, uri.fsPath)} ${kind}`),
      );
    const state = listen(".agloop/state.json");
    listen(".agloop/log.json");
    assert.equal(watcher.watchers, 1, "two files of one folder: one watcher");
    const fake = fakeWatchers[from];
    const fire = (rel: string) =>
      fake.fire("change", fakeVscode.Uri.file(path.join(root, rel)) as unknown as Parameters<typeof fake.fire>[1]);
    fire(".agloop/state.json");
    fire(".agloop/plan.yaml");
    fire(".agloop/log.json");
    assert.deepEqual(heard, [
      ".agloop/state.json: .agloop/state.json change",
      ".agloop/log.json: .agloop/log.json change",
    ]);
    state.dispose();
    fire(".agloop/state.json");
    assert.equal(heard.length, 2, "a disposed listener hears nothing");
    assert.equal(fake.disposed, false, "the watcher stays while a file of its folder is listened to");
    watcher.dispose();
    assert.equal(fake.disposed, true);
  });

  it("looks at every file watched by name in one state worker request, at the start and at each look", async () => {
    fs.mkdirSync(path.join(root, ".agloop"));
    fs.writeFileSync(path.join(root, ".agloop/state.json"), "{}");
    const wf = { uri: fakeVscode.Uri.file(root), name: "ws", index: 0 } as unknown as vscode.WorkspaceFolder;
    const asked: string[][] = [];
    const watcher = new StateWatcher(3_600_000, async (files) => {
      const req = { id: 1, type: "signatures", cwd: root, files: files.map((f) => f.fsPath) } as WorkerRequest;
      asked.push(files.map((f) => path.relative(root, f.fsPath)));
      return (await handleRequest(req, () => undefined)) as string[];
    });
    const heard: string[] = [];
    for (const g of [".agloop/state.json", ".agloop/log.json", "engine_state/manifest.json"]) {
      watcher.watch(wf, g, (uri, kind) => heard.push(`${path.relative(root, uri.fsPath)} ${kind}`));
    }
    await watcher.started();
    assert.deepEqual(
      asked,
      [[".agloop/state.json", ".agloop/log.json", "engine_state/manifest.json"]],
      "one look at the start",
    );
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, ".agloop/state.json"), past, past); // changed since the start, as no event said
    fs.writeFileSync(path.join(root, ".agloop/log.json"), "[]");
    await watcher.lookNow();
    assert.equal(asked.length, 2, "one look for all three");
    assert.deepEqual(heard.sort(), [".agloop/log.json create", ".agloop/state.json change"]);
    const sig = (await handleRequest(
      {
        id: 2,
        type: "signatures",
        cwd: root,
        files: [path.join(root, ".agloop/log.json"), path.join(root, "nope")],
      } as WorkerRequest,
      () => undefined,
    )) as string[];
    assert.deepEqual(sig, [fileSignature(path.join(root, ".agloop/log.json")), "absent"]);
    watcher.dispose();
  });
});

/** Replaces the "." placeholder of a list with the wildcard watcher's entry (`. ▸ glob`). */
function fix(glob: string): (s: string) => string {
  return (s) => (s === "." ? `. ▸ ${glob}` : s);
}
