/**
 * Open plan.json / Open Spec / Open Config: whether the file is there is the state worker's answer
 * (its `signatures` request), not a look of the extension host's own (`workspace.fs`): with the
 * host's file service failing, an existing file still opens and a missing one is said missing.
 */
import { fakeVscode } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { LedgerCommands } from "../../../src/extension/sources/autodev/ledger/ledgerCommands";
import type { FolderPicker } from "../../../src/extension/sources/autodev/folder/folderPicker";
import type { ReadOnlyDocuments } from "../../../src/extension/readOnlyDocuments";
import type { OutputLog } from "../../../src/extension/outputLog";
import type { SettingsReader } from "../../../src/extension/settings/settings";
import { inThreadWorker } from "../helpers/inThreadWorker";

describe("the state file commands look through the worker", () => {
  const win = fakeVscode.window as unknown as Record<string, unknown>;
  const wfs = fakeVscode.workspace.fs as unknown as Record<string, unknown>;
  const saved = { show: win.showTextDocument, info: win.showInformationMessage, stat: wfs.stat };
  let ws: string;
  let opened: string[];
  let said: string[];

  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), "state-file-commands-"));
    fs.mkdirSync(path.join(ws, ".autodev"));
    fs.writeFileSync(path.join(ws, ".autodev", "plan.json"), "{}\n");
    opened = [];
    said = [];
    win.showTextDocument = async (uri: vscode.Uri) => void opened.push(uri.fsPath);
    win.showInformationMessage = async (m: string) => void said.push(m);
    wfs.stat = async () => {
      throw new Error("the host's file service is not used");
    };
  });
  afterEach(() => {
    win.showTextDocument = saved.show;
    win.showInformationMessage = saved.info;
    wfs.stat = saved.stat;
    fs.rmSync(ws, { recursive: true, force: true });
  });

  it("opens plan.json that is there and says spec.md is missing", async () => {
    const folder = { cwd: ws, folder: { name: "w" } };
    const picker = { pick: async () => folder } as unknown as FolderPicker;
    const cmds = new LedgerCommands(
      inThreadWorker(),
      picker,
      {} as ReadOnlyDocuments,
      {} as OutputLog,
      {} as SettingsReader,
    ).handlers();
    await cmds["autodev.openPlanJson"](undefined);
    await cmds["autodev.openSpec"](undefined);
    assert.deepEqual(opened, [path.join(ws, ".autodev", "plan.json")]);
    assert.equal(said.length, 1);
    assert.match(said[0], /w\/\.autodev\/spec\.md does not exist/);
  });
});
