/**
 * The editor on the fixture folders, for the tests that compare what it shows with the CLI's
 * composition (editorEqualsCheck.test.ts): every folder below test/fixtures in which `check`
 * finds a source, hostile folders made from python-small, and the real adapters, folder registry
 * and Problems with the worker's dispatcher answering in this thread.
 */
import { fakeVscode } from "./fakeVscode";
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type * as vscode from "vscode";
import { checkDir } from "../../../src/cli/sourceCommands";
import { createDemoWorkspace } from "../../../src/sample/demoWorkspace";
import { CommandManager } from "../../../src/extension/commandManager";
import { OutputLog } from "../../../src/extension/outputLog";
import { ReadOnlyDocuments } from "../../../src/extension/readOnlyDocuments";
import { SettingsReader } from "../../../src/extension/settings/settings";
import type { AdapterHost } from "../../../src/extension/sources/adapterHost";
import type { SourceAdapter } from "../../../src/extension/sources/sourceAdapter";
import { createAdapters } from "../../../src/extension/sources/sourceAdapters";
import { StateDiagnostics } from "../../../src/extension/sources/sourceDiagnostics";
import { StateFolders } from "../../../src/extension/sources/stateFolders";
import { StateWatcher } from "../../../src/extension/watch/stateWatcher";
import { REPO_ROOT } from "../fixtures";
import { freshMemento } from "./freshMemento";
import { inThreadWorker } from "./inThreadWorker";

/** Every folder below test/fixtures (the folder, its children and their `workspace/`) in which `check` finds a source. */
export async function fixtureWorkspaces(copyRoot: string): Promise<string[]> {
  const root = path.join(REPO_ROOT, "test/fixtures");
  fs.cpSync(root, copyRoot, { recursive: true });
  const candidates: string[] = [];
  for (const name of fs.readdirSync(copyRoot).sort()) {
    const top = path.join(copyRoot, name);
    if (!fs.statSync(top).isDirectory()) continue;
    candidates.push(top);
    for (const child of fs.readdirSync(top).sort()) {
      const sub = path.join(top, child);
      if (!fs.lstatSync(sub).isDirectory() || child.startsWith(".")) continue;
      candidates.push(sub, path.join(sub, "workspace"));
    }
  }
  const out: string[] = [];
  for (const dir of candidates) if (fs.existsSync(dir) && (await checkDir(dir))) out.push(dir);
  return out;
}

/**
 * Hostile folders made from python-small (test/fixtures/hostile holds only what git can carry):
 * the ledger a link out of the workspace, a FIFO, a folder; config.json a link out; a title with
 * terminal escapes and markup (its entry no longer hashes); evidence/ a link out.
 */
export function hostileWorkspaces(root: string): string[] {
  const outside = path.join(root, "outside");
  fs.mkdirSync(outside, { recursive: true });
  fs.writeFileSync(path.join(outside, "secret"), "SECRET-OUTSIDE-THE-WORKSPACE\n");
  const cases: Record<string, (autodev: string) => void> = {
    "ledger-link-out": (a) => {
      fs.rmSync(path.join(a, "plan-ledger.jsonl"));
      fs.symlinkSync(path.join(outside, "secret"), path.join(a, "plan-ledger.jsonl"));
    },
    "ledger-fifo": (a) => {
      fs.rmSync(path.join(a, "plan-ledger.jsonl"));
      execFileSync("mkfifo", [path.join(a, "plan-ledger.jsonl")]);
    },
    "ledger-folder": (a) => {
      fs.rmSync(path.join(a, "plan-ledger.jsonl"));
      fs.mkdirSync(path.join(a, "plan-ledger.jsonl"));
    },
    "config-link-out": (a) => {
      fs.rmSync(path.join(a, "config.json"), { force: true });
      fs.symlinkSync(path.join(outside, "secret"), path.join(a, "config.json"));
    },
    "title-escapes": (a) => {
      const file = path.join(a, "plan-ledger.jsonl");
      const text = fs.readFileSync(file, "utf8");
      fs.writeFileSync(
        file,
        text.replace(/"title": "/, '"title": "\\u001b]8;;https://x\\u0007<script>alert(1)</script>'),
      );
    },
    "evidence-link-out": (a) => {
      fs.rmSync(path.join(a, "evidence"), { recursive: true, force: true });
      fs.symlinkSync(outside, path.join(a, "evidence"));
    },
  };
  return Object.entries(cases).map(([name, damage]) => {
    const ws = path.join(root, name);
    fs.cpSync(path.join(REPO_ROOT, "test/fixtures/python-small"), ws, { recursive: true });
    damage(path.join(ws, ".autodev"));
    return ws;
  });
}

/** Every fixture workspace, the hostile ones and the demo's, made under `tmp`. */
export async function allFixtureWorkspaces(tmp: string): Promise<string[]> {
  const workspaces = await fixtureWorkspaces(path.join(tmp, "fixtures"));
  workspaces.push(...hostileWorkspaces(path.join(tmp, "hostile")));
  const demo = path.join(tmp, "demo");
  fs.mkdirSync(demo);
  await createDemoWorkspace(demo);
  for (const d of [demo, ...fs.readdirSync(demo).map((n) => path.join(demo, n))]) {
    if (fs.statSync(d).isDirectory() && (await checkDir(d))) workspaces.push(d);
  }
  return workspaces;
}

/** The editor with `workspaces` open, once every folder was read and nothing changed for a second. */
export interface EditorSession {
  readonly folders: StateFolders;
  readonly adapterOf: (kind: string) => SourceAdapter;
  dispose(): void;
}

/**
 * Opens `workspaces` in the editor (real adapters, registry and Problems; the worker in this
 * thread). `catchUpMs`: the registry's catch-up reads after a watch starts (none unless asked, so
 * nothing reads again while a test compares).
 */
export async function openEditor(
  workspaces: readonly string[],
  catchUpMs: readonly number[] = [],
): Promise<EditorSession> {
  const disposables: vscode.Disposable[] = [];
  fakeVscode.workspace.workspaceFolders = workspaces.map((dir, index) => ({
    uri: fakeVscode.Uri.file(dir),
    name: path.basename(dir),
    index,
  }));
  const log = new OutputLog();
  const settings = new SettingsReader();
  const worker = inThreadWorker();
  const watcher = new StateWatcher();
  let adapterOf: (kind: string) => SourceAdapter = () => assert.fail("adapters not made yet");
  const folders = new StateFolders(worker, log, settings, watcher, (kind) => adapterOf(kind), catchUpMs);
  const host = {
    context: { subscriptions: disposables, workspaceState: freshMemento(), globalState: freshMemento() },
    worker,
    log,
    settings,
    commands: new CommandManager(log),
    docs: {} as ReadOnlyDocuments,
    folders,
    tree: {
      refresh: () => undefined,
      children: async () => [],
      onDidChangeCheckbox: () => ({ dispose: () => undefined }),
    },
    afterPaint: (work: () => void) => work(), // every provider made at once
  } as unknown as AdapterHost;
  adapterOf = createAdapters(host).adapterOf;
  disposables.push(folders, watcher, new StateDiagnostics(folders));
  let last = Date.now();
  disposables.push(folders.onDidChange(() => (last = Date.now())));
  await folders.sync();
  // Settled: every folder read, and nothing changed for a second.
  for (let i = 0; i < 600; i++) {
    if (folders.all.every((f) => f.problems !== null) && Date.now() - last > 1000) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    folders,
    adapterOf,
    dispose: () => {
      disposables.forEach((d) => d.dispose());
      fakeVscode.workspace.workspaceFolders = [];
    },
  };
}
