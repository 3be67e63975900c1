/**
 * An AutoDev folder's next refresh does not wait for the bookkeeping of the last one (ledgerRefresh.ts):
 * storing the verification record and checking the remembered heads are memento writes, each a
 * round trip to the window that took hundreds of ms in the soak under load (issue 30), and the
 * tree already shows the answer before them. The bookkeeping is held on a gate the test opens, so
 * what is checked is the order of requests, not their timing.
 */
import "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import type { RefreshResult } from "../../../src/core/sources/autodev/worker/autodevRequests";
import type { SettingsReader } from "../../../src/extension/settings/settings";
import type { FolderServices } from "../../../src/extension/sources/autodev/folder/folderServices";
import { LedgerRefresh, type RefreshTarget } from "../../../src/extension/sources/autodev/folder/ledgerRefresh";
import type { StateWorkerClient } from "../../../src/extension/stateWorkerClient";
import type * as vscode from "vscode";

const tick = () => new Promise((r) => setImmediate(r));

/** A refresh answer that brings new entries (what `apply` takes). */
const answer = (entries: number) =>
  ({ update: { mode: "appended" }, holdMs: null, entries }) as unknown as RefreshResult;

describe("an AutoDev refresh is not held behind the last one's bookkeeping", () => {
  it("sends the next refresh while the last one's memento writes are still pending", async () => {
    const asked: number[] = [];
    const worker = {
      request: async () => {
        asked.push(asked.length + 1);
        return answer(asked.length);
      },
    } as unknown as StateWorkerClient;
    const services = {
      worker,
      memento: { get: () => undefined, update: async () => undefined },
      log: { error: () => undefined, info: () => undefined, warn: () => undefined },
    } as unknown as FolderServices;
    const settings = { historyWarnings: () => true, debounceMs: () => 0 } as unknown as SettingsReader;
    const shown: number[] = [];
    const gates: Array<() => void> = [];
    const target: RefreshTarget = {
      refused: () => false,
      verified: () => true,
      unreadable: () => assert.fail("not unreadable"),
      unchanged: () => assert.fail("the ledger changed"),
      apply: (r) => {
        shown.push(r.entries);
        return new Promise<void>((resolve) => gates.push(resolve));
      },
      failed: (m) => assert.fail(m),
    };
    const refresher = new LedgerRefresh({ name: "a" } as vscode.WorkspaceFolder, "/ws/a", services, settings, target);
    const first = refresher.refresh();
    await tick();
    assert.deepEqual(shown, [1], "the first answer is shown");
    const second = refresher.refresh(); // a change heard while the first one's bookkeeping runs
    await tick();
    assert.deepEqual(asked, [1, 2], "the second refresh went to the worker before the first one's bookkeeping ended");
    assert.deepEqual(shown, [1, 2]);
    let firstDone = false;
    void first.then(() => (firstDone = true));
    await tick();
    assert.equal(firstDone, false, "a refresh's promise still ends with its bookkeeping");
    gates.forEach((open) => open());
    assert.equal((await first)?.entries, 1);
    assert.equal((await second)?.entries, 2);
    refresher.dispose();
  });

  it("calls within autodev.debounceMs of the last read share one read at the gap's end", async () => {
    let asked = 0;
    const worker = {
      request: async () => answer(++asked),
    } as unknown as StateWorkerClient;
    const services = {
      worker,
      memento: { get: () => undefined, update: async () => undefined },
      log: { error: () => undefined, info: () => undefined, warn: () => undefined },
    } as unknown as FolderServices;
    const settings = { historyWarnings: () => true, debounceMs: () => 60 } as unknown as SettingsReader;
    const shown: number[] = [];
    const target: RefreshTarget = {
      refused: () => false,
      verified: () => true,
      unreadable: () => assert.fail("not unreadable"),
      unchanged: () => assert.fail("the ledger changed"),
      apply: async (r) => void shown.push(r.entries),
      failed: (m) => assert.fail(m),
    };
    const refresher = new LedgerRefresh({ name: "a" } as vscode.WorkspaceFolder, "/ws/a", services, settings, target);
    assert.equal((await refresher.refresh())?.entries, 1, "a call in a quiet time reads at once");
    // The live file's event and the editor watcher's, both for one write, right after that read.
    const [second, third] = [refresher.refresh(), refresher.refresh()];
    await tick();
    assert.equal(asked, 1, "no read inside the gap");
    assert.equal((await second)?.entries, 2);
    assert.equal((await third)?.entries, 2, "both calls got the one read at the gap's end");
    assert.equal(asked, 2);
    assert.deepEqual(shown, [1, 2]);
    const late = refresher.refresh();
    refresher.dispose();
    assert.equal(await late, null, "a call waiting for the gap ends when the folder goes");
    assert.equal(asked, 2);
  });
});
