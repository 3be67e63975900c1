/**
 * The registry's catch-up reads: VS Code's watcher may still be starting when a folder's watch is
 * asked for (a new window, a folder just added), and a change then is never announced. The fake
 * watcher here never announces anything, so only the catch-up can show a change made after the
 * first read to a file that is watched by pattern only (AutoDev's `.autodev/**`: no look at files
 * watched by name, no live watch of the ledger in the worker covers it): the folder reads again
 * once the catch-up time has passed, and shows what is on disk.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { AutodevFolder } from "../../../src/extension/sources/autodev/folder/autodevFolder";
import { REPO_ROOT } from "../fixtures";
import { type EditorSession, openEditor } from "../helpers/editorSession";
import { pollUntil } from "../../helpers/poll";

/** Longer than the editor session takes to settle (one small folder), short enough for the fast loop. */
const CATCH_UP_MS = 2_500;

describe("catch-up reads after a watch starts @slow", function () {
  this.timeout(20_000);
  let tmp: string;
  let session: EditorSession | undefined;

  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "catch-up-"));
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/python-small"), tmp, { recursive: true });
  });
  afterEach(() => {
    session?.dispose();
    session = undefined;
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const autodev = (s: EditorSession) => s.folders.all.find((f) => f.kind === "autodev") as AutodevFolder;
  const configProblems = (f: AutodevFolder): number =>
    (f.problems ?? []).filter((p) => /config\.json/.test(JSON.stringify(p))).length;

  /** Writes a damaged `.autodev/config.json` without any watcher event. */
  function damageConfig(): void {
    fs.writeFileSync(path.join(tmp, ".autodev/config.json"), "{ not json\n");
  }

  it("shows a change no event announced, made after the first read, once the catch-up comes", async () => {
    const opened = Date.now();
    session = await openEditor([tmp], [CATCH_UP_MS]);
    assert.ok(Date.now() - opened < CATCH_UP_MS, `settling took ${Date.now() - opened} ms: the catch-up came first`);
    assert.equal(configProblems(autodev(session)), 0, "a problem before the damage");
    damageConfig();
    const shown = await pollUntil(() => configProblems(autodev(session!)) > 0, CATCH_UP_MS + 5_000, 50);
    assert.ok(shown, `after the catch-up: ${JSON.stringify(autodev(session).problems)}`);
  });

  it("reads no more than the catch-ups asked for: nothing while nothing runs", async () => {
    session = await openEditor([tmp], [300]);
    await pollUntil(() => false, 600, 100); // the catch-up at 300 ms has come and gone
    damageConfig();
    await pollUntil(() => configProblems(autodev(session!)) > 0, 1_500, 100);
    assert.equal(configProblems(autodev(session)), 0, "a read came with no event and no catch-up due");
  });
});
