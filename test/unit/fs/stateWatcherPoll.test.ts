/**
 * The watcher's safety net: a file watched by name is looked at every few seconds, so a change the
 * OS watcher never announced (seen under load for `.git/refs/heads/main` after a commit) still
 * reaches the listeners, once; a change that was announced is not told twice; wildcard globs are
 * left to the watcher alone.
 */
import { fakeVscode, fakeWatchers } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { StateWatcher, type FileEventKind } from "../../../src/extension/watch/stateWatcher";

/** Longer than any test: the looks are the test's own `lookNow()` calls, none on a timer. */
const NO_TIMER_MS = 3_600_000;

describe("StateWatcher: changes the OS watcher missed", function () {
  this.timeout(30_000);
  let dir = "";
  let watcher: StateWatcher;
  let heard: { file: string; kind: FileEventKind }[] = [];
  let wf: vscode.WorkspaceFolder;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "watch-poll-"));
    fs.mkdirSync(path.join(dir, ".git/refs/heads"), { recursive: true });
    fs.writeFileSync(path.join(dir, ".git/refs/heads/main"), "a".repeat(40) + "\n");
    // Written a minute ago: a signature is size and whole milliseconds (fileSignatureFormat.ts), so a
    // replace of the same size within the millisecond of the last look would look the same.
    const past = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(dir, ".git/refs/heads/main"), past, past);
    wf = { uri: fakeVscode.Uri.file(dir), name: "ws", index: 0 } as unknown as vscode.WorkspaceFolder;
    watcher = new StateWatcher(NO_TIMER_MS);
    heard = [];
  });

  afterEach(() => {
    watcher.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const listen = (glob: string) =>
    watcher.watch(wf, glob, (uri, kind) => heard.push({ file: path.relative(dir, uri.fsPath), kind }));

  it("tells a change, a delete and a create of a file watched by name that no event announced", async () => {
    listen(".git/refs/heads/main");
    await watcher.lookNow();
    assert.deepEqual([...heard], [], "nothing is told for the file as it was when the watch started");
    const ref = path.join(dir, ".git/refs/heads/main");
    const tmp = `${ref}.lock`;
    fs.writeFileSync(tmp, "b".repeat(40) + "\n");
    fs.renameSync(tmp, ref); // what git does on a commit
    await watcher.lookNow();
    assert.deepEqual([...heard], [{ file: ".git/refs/heads/main", kind: "change" }]);
    await watcher.lookNow();
    assert.equal(heard.length, 1, "told once");
    fs.rmSync(ref);
    await watcher.lookNow();
    fs.writeFileSync(ref, "c".repeat(40) + "\n");
    await watcher.lookNow();
    assert.deepEqual(
      heard.map((h) => h.kind),
      ["change", "delete", "create"],
    );
  });

  it("tells a change made after the watch started and before the first look (no event came)", async () => {
    listen(".git/refs/heads/main");
    await watcher.started();
    const ref = path.join(dir, ".git/refs/heads/main");
    fs.writeFileSync(ref, "e".repeat(40) + "\n");
    await watcher.lookNow();
    assert.deepEqual([...heard], [{ file: ".git/refs/heads/main", kind: "change" }]);
  });

  it("a change the watcher announced is not told again by the look", async () => {
    listen(".git/refs/heads/main");
    await watcher.lookNow();
    const ref = path.join(dir, ".git/refs/heads/main");
    fs.writeFileSync(ref, "d".repeat(40) + "\n");
    const fake = fakeWatchers[fakeWatchers.length - 1];
    fake.fire("change", fakeVscode.Uri.file(ref) as unknown as Parameters<typeof fake.fire>[1]);
    await watcher.lookNow();
    assert.deepEqual([...heard], [{ file: ".git/refs/heads/main", kind: "change" }]);
  });

  it("leaves wildcard globs to the watcher (nothing is looked at)", async () => {
    fs.mkdirSync(path.join(dir, ".autodev"));
    fs.writeFileSync(path.join(dir, ".autodev/plan.json"), "{}");
    listen(".autodev/**");
    await watcher.lookNow();
    fs.writeFileSync(path.join(dir, ".autodev/plan.json"), '{"x": 1}');
    await watcher.lookNow();
    assert.deepEqual([...heard], []);
  });
});
