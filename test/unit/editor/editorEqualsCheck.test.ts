/**
 * The editor's Problems are `check --json`'s problems: on every fixture folder (the real-run
 * snapshots of Python AutoDev, the Python-written samples, agloop's and engine_state's fixtures,
 * the hostile ones, the demo workspace) the diagnostics the editor shows — the real adapters
 * (`createAdapters`, AutoDev's own included), the folder registry and `StateDiagnostics`, with the
 * worker's dispatcher answering in this thread — are exactly the problems `checkDir` (the CLI's
 * `check`) returns for the folder: same file, line, severity, code and message, nothing more and
 * nothing less. Default settings; the editor-only findings (a rewritten history against a head
 * remembered by an earlier session, a lost pinned head) need such a session and do not arise here.
 */
import { fakeCollections, fakeVscode } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { checkDir } from "../../../src/cli/sourceCommands";
import { displayLine } from "../../../src/core/text/displayText";
import { handleRequest } from "../../../src/core/worker/stateWorker";
import type { WorkerRequest } from "../../../src/core/worker/workerProtocol";
import { createDemoWorkspace } from "../../../src/sample/demoWorkspace";
import { CommandManager } from "../../../src/extension/commandManager";
import { OutputLog } from "../../../src/extension/outputLog";
import { ReadOnlyDocuments } from "../../../src/extension/readOnlyDocuments";
import { SettingsReader } from "../../../src/extension/settings";
import type { AdapterHost } from "../../../src/extension/sources/adapterHost";
import type { SourceAdapter } from "../../../src/extension/sources/sourceAdapter";
import { createAdapters } from "../../../src/extension/sources/sourceAdapters";
import { StateDiagnostics } from "../../../src/extension/sources/sourceDiagnostics";
import { StateFolders } from "../../../src/extension/sources/stateFolders";
import { StateWatcher } from "../../../src/extension/sources/stateWatcher";
import type { StateWorkerClient } from "../../../src/extension/stateWorkerClient";
import { REPO_ROOT } from "../fixtures";

/** The worker client, answering in this thread. */
function inThreadWorker(): StateWorkerClient {
  let id = 1;
  return {
    request: (req: Omit<WorkerRequest, "id">) => handleRequest({ ...req, id: id++ } as WorkerRequest, () => undefined),
    onProgress: () => ({ dispose: () => undefined }),
    onLiveFile: () => ({ dispose: () => undefined }),
    onDidRestart: () => ({ dispose: () => undefined }),
    dispose: () => undefined,
  } as unknown as StateWorkerClient;
}

/** A memento that keeps nothing between tests (a first session: nothing remembered). */
function freshMemento(): vscode.Memento {
  const m = new Map<string, unknown>();
  return {
    keys: () => [...m.keys()],
    get: <T>(k: string, d?: T) => (m.has(k) ? (m.get(k) as T) : d),
    update: async (k: string, v: unknown) => void (v === undefined ? m.delete(k) : m.set(k, v)),
  } as vscode.Memento;
}

/** Every folder below test/fixtures (the folder, its children and their `workspace/`) in which `check` finds a source. */
async function fixtureWorkspaces(copyRoot: string): Promise<string[]> {
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
function hostileWorkspaces(root: string): string[] {
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

/** One shown problem, as comparable text: file, 0-based line, severity, code, message. */
type Shown = string;
const SEVERITY = ["error", "warning", "info"];

/** The diagnostics the editor shows for files under `dir`. */
function shownIn(dir: string): Shown[] {
  const out: Shown[] = [];
  for (const [uri, diags] of fakeCollections.get("autodev") ?? []) {
    const file = uri.replace(/^file:\/\//, "");
    if (!file.startsWith(`${dir}${path.sep}`)) continue;
    const rel = path.relative(dir, file);
    for (const d of diags) out.push(`${rel}:${d.range.start.line} ${SEVERITY[d.severity]} ${d.code} ${d.message}`);
  }
  return out.sort();
}

/** `check --json`'s problems for `dir`, as the editor would show each. */
async function checkedIn(dir: string): Promise<Shown[]> {
  const doc = await checkDir(dir);
  return (doc?.sources ?? [])
    .flatMap((s) => s.problems)
    .map((p) => {
      const rel = path.relative(dir, path.resolve(dir, p.file));
      return `${rel}:${Math.max(0, (p.line ?? 1) - 1)} ${p.severity} ${p.code} ${displayLine(p.message)}`;
    })
    .sort();
}

describe("the editor's Problems are check --json's problems, on every fixture folder", function () {
  this.timeout(120_000);
  let tmp: string;
  let workspaces: string[] = [];
  let folders: StateFolders;
  const disposables: vscode.Disposable[] = [];

  before(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "editor-check-")));
    workspaces = await fixtureWorkspaces(path.join(tmp, "fixtures"));
    workspaces.push(...hostileWorkspaces(path.join(tmp, "hostile")));
    const demo = path.join(tmp, "demo");
    fs.mkdirSync(demo);
    await createDemoWorkspace(demo);
    for (const d of [demo, ...fs.readdirSync(demo).map((n) => path.join(demo, n))]) {
      if (fs.statSync(d).isDirectory() && (await checkDir(d))) workspaces.push(d);
    }
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
    folders = new StateFolders(worker, log, settings, watcher, (kind) => adapterOf(kind));
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
  });

  after(() => {
    disposables.forEach((d) => d.dispose());
    fakeVscode.workspace.workspaceFolders = [];
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("finds the fixture folders (real runs, samples, hostile, demo)", () => {
    const names = workspaces.map((w) => path.relative(tmp, w));
    assert.ok(names.filter((n) => n.includes("autodev-real-run")).length >= 20, names.join(", "));
    for (const want of [
      "fixtures/hostile",
      "hostile/ledger-fifo",
      "fixtures/python-small",
      "fixtures/agloop-broken",
      "demo",
    ]) {
      assert.ok(
        names.some((n) => n.startsWith(want)),
        `${want} in ${names.join(", ")}`,
      );
    }
  });

  it("shows exactly check's problems in each", async () => {
    const differ: string[] = [];
    let compared = 0;
    for (const dir of workspaces) {
      const shown = shownIn(dir);
      const checked = await checkedIn(dir);
      compared += checked.length;
      if (process.env.EDITOR_CHECK_DEBUG) console.log(path.relative(tmp, dir), checked.length, shown.length);
      const extra = shown.filter((s) => !checked.includes(s));
      const missing = checked.filter((c) => !shown.includes(c));
      if (extra.length || missing.length || shown.length !== checked.length) {
        differ.push(
          `${path.relative(tmp, dir)}:\n  only in the editor: ${extra.join("\n    ") || "-"}\n  only in check: ${missing.join("\n    ") || "-"}`,
        );
      }
    }
    assert.deepEqual(differ, []);
    // Not vacuous: the hostile, broken and real-run folders do have problems.
    assert.ok(compared >= 50, `only ${compared} problems compared`);
  });
});
