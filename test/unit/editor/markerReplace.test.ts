/**
 * Re-detection on the editor's path (the real adapters and folder registry over fake `vscode`,
 * the worker's dispatcher in this thread): an agent's atomic replace of a detection marker
 * (code-server announces it as a create) on a source already shown costs no detection and no
 * "the set of sources changed" repaint; a marker going, or a new source's marker appearing,
 * still detects, and only a real change of the set tells the views.
 */
import { fakeVscode, fakeWatchers } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";
import { openEditorHarness, type EditorHarness } from "../../helpers/appendCounts";

/** Fires `kind` for `file` on every watcher the editor made (as code-server's watcher would). */
function fire(kind: "create" | "change" | "delete", file: string): void {
  for (const w of fakeWatchers) if (!w.disposed) w.fire(kind, fakeVscode.Uri.file(file));
}

/** Waits past the registry's debounce and the detection it may start. */
const settle = () => new Promise((r) => setTimeout(r, 700));

describe("re-detection after a marker's replace (editor path)", () => {
  let ws = "";
  let h: EditorHarness;
  let setChanges = 0;

  beforeEach(async () => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "marker-replace-")));
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/python-small"), ws, { recursive: true });
    h = await openEditorHarness(ws);
    await settle();
    setChanges = 0;
    h.folders.onDidChange((f) => f === undefined && setChanges++);
    h.requests.clear();
  });

  afterEach(() => {
    h.dispose();
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it("an atomic replace of plan.json on a shown AutoDev folder detects nothing and repaints no set", async () => {
    const plan = path.join(ws, ".autodev", "plan.json");
    fs.writeFileSync(`${plan}.tmp`, fs.readFileSync(plan));
    fs.renameSync(`${plan}.tmp`, plan);
    fire("create", plan);
    await settle();
    assert.equal(h.requests.get("detect") ?? 0, 0, JSON.stringify([...h.requests]));
    assert.equal(setChanges, 0);
    assert.deepEqual(
      h.folders.all.map((f) => f.kind),
      ["autodev"],
    );
  });

  it("a marker deleted detects again, and tells the views only when the set changed @slow", async () => {
    fire("delete", path.join(ws, ".autodev", "evidence"));
    await settle();
    assert.equal(h.requests.get("detect"), 1, "a marker going may end the source: detected again");
    assert.equal(setChanges, 0, "the same AutoDev folder is still there: no repaint of every view");
    fs.rmSync(path.join(ws, ".autodev"), { recursive: true });
    fire("delete", path.join(ws, ".autodev", "plan-ledger.jsonl"));
    await settle();
    assert.equal(h.requests.get("detect"), 2);
    assert.equal(setChanges, 1, "the AutoDev folder is gone: the views are told");
    assert.deepEqual(h.folders.all, []);
  });

  it("a new source's marker appearing detects it", async () => {
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/agloop-clean/.agloop"), path.join(ws, ".agloop"), {
      recursive: true,
    });
    fire("create", path.join(ws, ".agloop", "state.json"));
    await settle();
    assert.equal(h.requests.get("detect"), 1);
    assert.equal(setChanges, 1);
    assert.deepEqual(h.folders.all.map((f) => f.kind).sort(), ["agloop", "autodev"]);
  });
});
