/**
 * Reviewed marks survive the window (issue 23 §3, Done when): the launcher opened a new workbench
 * on the same workspace and user data after reviewMarks.test.ts marked task 1.1's patch and
 * developer diff; the extension activated afresh from the persisted workspace state, and the Plan
 * view shows the same marks and count; a patch changed after the reload shows as changed since its
 * mark (the kept mark is of the content it was set on). Without the first window's record of what it left (a run
 * filtered by AUTODEV_IT_GREP), the test is pending, never passed.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { skipUnless } from "../../helpers/environmentNeeds";
import { autodevOf, eventually, stateApi } from "../helpers";
import { RELOAD_EXPECTATION, diffRows, eventuallyAsync, taskDescription } from "./reviewMarkHelpers";

describe("reviewed marks after a new window", function () {
  this.timeout(120_000);

  it("shows the marks the first window set, read back from the workspace state", async function () {
    const a = await stateApi();
    const wf = vscode.workspace.workspaceFolders?.find((f) =>
      fs.existsSync(path.join(f.uri.fsPath, RELOAD_EXPECTATION)),
    );
    skipUnless(
      this,
      wf !== undefined,
      "the first window's reviewMarks.test.ts to have run (AUTODEV_IT_GREP left it out)",
    );
    if (!wf) return;
    const mine = () => autodevOf(a).folders.get(wf);
    assert.ok(await eventually(() => !!mine()?.plan, 30_000), `${wf.name}: no AutoDev plan`);
    const folder = mine()!;
    const expected = JSON.parse(fs.readFileSync(path.join(folder.cwd, RELOAD_EXPECTATION), "utf8")) as {
      task: string;
      reviewed: Record<string, boolean>;
    };
    const count = Object.values(expected.reviewed).filter(Boolean).length;
    const total = Object.keys(expected.reviewed).length;
    let seen: Record<string, boolean> = {};
    const ok = await eventuallyAsync(async () => {
      seen = Object.fromEntries((await diffRows(a, folder, expected.task)).map((r) => [r.source, r.checked]));
      return (
        JSON.stringify(Object.entries(seen).sort()) === JSON.stringify(Object.entries(expected.reviewed).sort()) &&
        taskDescription(a, folder, expected.task).includes(`${count}/${total} reviewed`)
      );
    }, 30_000);
    assert.ok(
      ok,
      `task ${expected.task}: ${JSON.stringify(seen)}, "${taskDescription(a, folder, expected.task)}"; expected ${JSON.stringify(expected.reviewed)}`,
    );
    fs.rmSync(path.join(folder.cwd, RELOAD_EXPECTATION), { force: true });

    // The kept mark is of the content it was set on: a patch changed in this window shows as changed since.
    const patchFile = path.join(folder.cwd, `.autodev/evidence/${expected.task}.patch`);
    const patchText = fs.readFileSync(patchFile, "utf8");
    // What this window heard after the write, for the failure message (a lost event or a stale read?).
    const heard: string[] = [];
    const t0 = Date.now();
    const subs = [
      folder.onDidChangeFiles((uris) =>
        heard.push(`${Date.now() - t0} ms: ${uris.map((u) => path.relative(folder.cwd, u.fsPath)).join(", ")}`),
      ),
      autodevOf(a).evidence.contributor.onDidRefresh(() => heard.push(`${Date.now() - t0} ms: evidence refresh`)),
    ];
    fs.writeFileSync(patchFile, `${patchText}\n`);
    try {
      let spoken = "";
      const flagged = await eventuallyAsync(async () => {
        const patch = (await diffRows(a, folder, expected.task)).find((r) => r.source === "patch");
        spoken = patch?.spoken ?? "(no patch row)";
        return (
          patch?.checked === false &&
          /changed since it was reviewed$/.test(spoken) &&
          taskDescription(a, folder, expected.task).includes(`${count - 1}/${total} reviewed, 1 changed since`)
        );
      }, 30_000);
      assert.ok(
        flagged,
        `after the change: "${spoken}", "${taskDescription(a, folder, expected.task)}"; heard: ${heard.join("; ") || "nothing"}`,
      );
    } finally {
      subs.forEach((d) => d.dispose());
      fs.writeFileSync(patchFile, patchText);
    }
  });
});
