/**
 * What one append to an AutoDev ledger costs the editor's path, counted (not timed): the worker
 * requests the host sends (round trips, by type) and the opens of the ledger file, from the
 * append until the tree and Problems show it and a settle spell passed. The real adapters
 * (`createAdapters`), the folder registry and `StateDiagnostics` run over fake `vscode`
 * (test/unit/helpers/fakeVscode.ts) with the worker's dispatcher in this thread; the append is
 * Python AutoDev's own writer (bench/editor/python_append.py: lock, copy, append, fsync,
 * `os.replace`) with AUTODEV_PY_SRC, else that script's stdlib steps; the change is delivered as
 * the editor's watcher delivers it (once, or `events` times 40 ms apart). Used by test/unit/writer/appendCounts.test.ts and bench/appendCounts.mjs.
 */
import { fakeVscode, fakeWatchers } from "../unit/helpers/fakeVscode";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { CommandManager } from "../../src/extension/commandManager";
import { OutputLog } from "../../src/extension/outputLog";
import { ReadOnlyDocuments } from "../../src/extension/readOnlyDocuments";
import { SettingsReader } from "../../src/extension/settings/settings";
import type { AdapterHost } from "../../src/extension/sources/adapterHost";
import type { SourceAdapter } from "../../src/extension/sources/sourceAdapter";
import { createAdapters } from "../../src/extension/sources/sourceAdapters";
import { StateDiagnostics } from "../../src/extension/sources/sourceDiagnostics";
import { StateFolders } from "../../src/extension/sources/stateFolders";
import { StateWatcher } from "../../src/extension/watch/stateWatcher";
import type { StateWorkerClient } from "../../src/extension/stateWorkerClient";
import { inThreadWorker } from "../unit/helpers/inThreadWorker";

const REPO = path.join(__dirname, "../../..");
const LEDGER = "plan-ledger.jsonl";

/** One append's counts. */
export interface AppendCount {
  /** Worker requests sent from the append until settled, by type ("source:refresh", "source:runView", …). */
  readonly requests: Record<string, number>;
  readonly roundTrips: number;
  /** Opens of the ledger file (any path ending in plan-ledger.jsonl) in that span. */
  readonly ledgerOpens: number;
  /** Times the folders told their views (tree, status bar, timeline, graph) to show a change. */
  readonly repaints: number;
}

/** Counts opens of files whose path ends with `name` (the ledger by default) until disposed. */
export class OpenCounter {
  opens = 0;
  private readonly restore: Array<() => void> = [];

  constructor(name: string = LEDGER) {
    const count = (p: unknown) => {
      if (String(p).endsWith(name)) this.opens++;
    };
    const wrap = (obj: Record<string, unknown>, key: string) => {
      const original = obj[key] as (...a: unknown[]) => unknown;
      obj[key] = function (this: unknown, ...args: unknown[]) {
        count(args[0]);
        return original.apply(this, args);
      };
      this.restore.push(() => (obj[key] = original));
    };
    // The module object itself (an `import * as` namespace is read-only); every reader goes through it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const real = require("node:fs") as Record<string, unknown> & { promises: Record<string, unknown> };
    wrap(real, "openSync");
    wrap(real, "open");
    wrap(real.promises, "open");
    wrap(real, "createReadStream");
  }

  dispose(): void {
    this.restore.forEach((r) => r());
  }
}

/** Python AutoDev's append of `taskId` → `status` (its own writer with AUTODEV_PY_SRC). */
function pythonAppend(cwd: string, taskId: string, status: string): void {
  const python = process.env.AUTODEV_PYTHON ?? "python3";
  const env = { ...process.env, ...(process.env.AUTODEV_PY_SRC ? { PYTHONPATH: process.env.AUTODEV_PY_SRC } : {}) };
  execFileSync(python, [path.join(REPO, "bench/editor/python_append.py"), cwd, taskId, status], { env });
}

/** Waits until `check` holds (at most `ms`). */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return check();
}

/** The editor's path over fake vscode for the workspace folder `ws`: the real adapters, registry and Problems. */
export interface EditorHarness {
  readonly folders: StateFolders;
  /** Worker requests sent since the last `requests.clear()`, by type. */
  readonly requests: Map<string, number>;
  /** Tells every watcher the editor made that `file` changed (as code-server's watcher does). */
  fire(file: string): void;
  dispose(): void;
}

/**
 * Opens the editor's path on `ws` (see {@link EditorHarness}); `worker` replaces the in-thread
 * dispatcher (a real worker thread, for the worker soak), its requests counted alike.
 */
export async function openEditorHarness(ws: string, worker0?: StateWorkerClient): Promise<EditorHarness> {
  const requests = new Map<string, number>();
  const count = (req: { type: string }) => {
    const sub = req.type === "source" ? `:${String((req as { request?: { type?: unknown } }).request?.type)}` : "";
    const key = `${req.type}${sub}`;
    requests.set(key, (requests.get(key) ?? 0) + 1);
  };
  let worker: StateWorkerClient;
  if (worker0) {
    const request = worker0.request.bind(worker0);
    worker0.request = ((req: { type: string }, ...rest: unknown[]) => {
      count(req);
      return (request as (...a: unknown[]) => unknown)(req, ...rest);
    }) as StateWorkerClient["request"];
    worker = worker0;
  } else worker = inThreadWorker(count);
  const memento = new Map<string, unknown>();
  const state = {
    keys: () => [...memento.keys()],
    get: (k: string, d?: unknown) => (memento.has(k) ? memento.get(k) : d),
    update: async (k: string, v: unknown) => void memento.set(k, v),
  };
  fakeVscode.workspace.workspaceFolders = [{ uri: fakeVscode.Uri.file(ws), name: "ws", index: 0 }];
  const disposables: vscode.Disposable[] = [];
  const log = new OutputLog();
  const settings = new SettingsReader();
  const watcher = new StateWatcher();
  let adapterOf: (kind: string) => SourceAdapter = () => {
    throw new Error("adapters not made yet");
  };
  // No catch-up reads: they come twice in a folder's first seconds, never per append (stateFolders.ts).
  const folders = new StateFolders(worker, log, settings, watcher, (kind) => adapterOf(kind), []);
  const host = {
    context: { subscriptions: disposables, workspaceState: state, globalState: state },
    worker,
    log,
    settings,
    commands: new CommandManager(log),
    docs: {} as ReadOnlyDocuments,
    folders,
    tree: { refresh: () => undefined, children: async () => [], onDidChangeCheckbox: () => ({ dispose: () => {} }) },
    afterPaint: (work: () => void) => work(), // as at activation's end: every provider made
  } as unknown as AdapterHost;
  adapterOf = createAdapters(host).adapterOf;
  disposables.push(folders, watcher, new StateDiagnostics(folders));
  await folders.sync();
  return {
    folders,
    requests,
    fire: (file) => {
      for (const w of fakeWatchers) if (!w.disposed) w.fire("change", fakeVscode.Uri.file(file));
    },
    dispose: () => {
      disposables.forEach((d) => d.dispose());
      fakeVscode.workspace.workspaceFolders = [];
    },
  };
}

/**
 * Appends `appends` status changes to a copy of test/fixtures/python-small and counts each one's
 * requests, ledger opens and repaints, over `settleMs` after the append showed in the tree's data;
 * the watcher tells each append `events` times.
 */
export async function countAppends(appends = 4, settleMs = 1500, events = 1): Promise<AppendCount[]> {
  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "append-counts-")));
  fs.cpSync(path.join(REPO, "test/fixtures/python-small"), ws, { recursive: true });
  const h = await openEditorHarness(ws);
  const { folders, requests } = h;
  const out: AppendCount[] = [];
  let repaints = 0;
  const listening = folders.onDidChange(() => repaints++);
  try {
    const folder = () => folders.all.find((f) => f.kind === "autodev") as unknown as { entries: number } | undefined;
    await until(() => (folder()?.entries ?? 0) > 0, 20_000);
    await new Promise((r) => setTimeout(r, settleMs));
    const ledgerUri = fakeVscode.Uri.file(path.join(ws, ".autodev", LEDGER));
    const statuses = ["blocked", "pending", "in_progress"];
    for (let i = 0; i < appends; i++) {
      const before = folder()?.entries ?? 0;
      pythonAppend(ws, "1.2", statuses[i % statuses.length]);
      requests.clear();
      repaints = 0;
      const opens = new OpenCounter();
      try {
        // The editor's watcher tells the change (code-server's delivers create/change for a replace).
        h.fire(ledgerUri.fsPath);
        // `events` 2: and again a moment later (the replace's second event, or another watcher's).
        for (let e = 1; e < events; e++) {
          await new Promise((r) => setTimeout(r, 40));
          h.fire(ledgerUri.fsPath);
        }
        if (!(await until(() => (folder()?.entries ?? 0) > before, 20_000))) throw new Error("the append never showed");
        await new Promise((r) => setTimeout(r, settleMs));
      } finally {
        opens.dispose();
      }
      const byType = Object.fromEntries([...requests].sort());
      out.push({
        requests: byType,
        roundTrips: [...requests.values()].reduce((a, b) => a + b, 0),
        ledgerOpens: opens.opens,
        repaints,
      });
    }
  } finally {
    listening.dispose();
    h.dispose();
    fs.rmSync(ws, { recursive: true, force: true });
  }
  return out;
}
