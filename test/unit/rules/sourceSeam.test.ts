/**
 * The seam test: a fourth source needs its folders and one registration line. Here a small fake
 * source — a core `StateSource` registered at run time, shown by the default adapter with no code
 * of its own in src/extension/ — goes through the real generic hosts (folder registry and its one
 * watcher, state tree, Problems, status bar, timeline controller) with the worker's dispatcher run
 * in this thread. It appears in the tree, Problems and the timeline, and follows a change of its file.
 */
import { fakeCollections, fakeContext, fakeVscode, fakeWatchers, FakeUri } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { registerSourceForTest } from "../../../src/core/sources/sourceRegistry";
import type { SourceTimelineRow, StateSource } from "../../../src/core/sources/stateSource";
import { EMPTY_FILTER } from "../../../src/core/timeline/timelineQuery";
import { LOG_TIMELINE_FEATURES } from "../../../src/core/timeline/logTimelineFeatures";
import { REPO_ROOT } from "../fixtures";
import { inThreadWorker } from "../helpers/inThreadWorker";
import { CommandManager } from "../../../src/extension/commandManager";
import { OutputLog } from "../../../src/extension/outputLog";
import { ReadOnlyDocuments } from "../../../src/extension/readOnlyDocuments";
import { SettingsReader } from "../../../src/extension/settings/settings";
import type { AdapterHost } from "../../../src/extension/sources/adapterHost";
import { DefaultAdapters } from "../../../src/extension/sources/defaultAdapter";
import { StateDiagnostics } from "../../../src/extension/sources/sourceDiagnostics";
import { StateFolders } from "../../../src/extension/sources/stateFolders";
import { StateWatcher } from "../../../src/extension/watch/stateWatcher";
import { StateTreeProvider } from "../../../src/extension/stateTreeProvider";
import type { StateWorkerClient } from "../../../src/extension/stateWorkerClient";
import { TimelineController } from "../../../src/extension/timeline/timelineController";
import type { HostToWebview } from "../../../src/protocolTimeline";
import { pollUntil } from "../../helpers/poll";

/** The fake source: `.seam/state.json` holds `{"tasks": [...], "bad": n}`; `bad` lines become errors. */
const SEAM: StateSource = {
  kind: "seam",
  displayName: "Seam",
  detectGlobs: [".seam/state.json"],
  async detect(workspace) {
    const dir = path.join(workspace, ".seam");
    return fs.existsSync(path.join(dir, "state.json")) ? { kind: "seam", workspace, dir, relDir: ".seam" } : null;
  },
  watchGlobs: () => [".seam/state.json"],
  async check(loc) {
    const state = JSON.parse(fs.readFileSync(path.join(loc.dir, "state.json"), "utf8")) as { bad: number };
    return state.bad > 0
      ? [{ file: ".seam/state.json", line: state.bad, severity: "error", code: "seam_bad", message: "bad line" }]
      : [];
  },
  summarize: async () => ({ kind: "seam", path: ".seam" }),
  async tree(loc) {
    const state = JSON.parse(fs.readFileSync(path.join(loc.dir, "state.json"), "utf8")) as { tasks: string[] };
    return [{ id: "tasks", label: "Tasks", children: state.tasks.map((t) => ({ id: `task|${t}`, label: t })) }];
  },
  async timeline(loc) {
    const state = JSON.parse(fs.readFileSync(path.join(loc.dir, "state.json"), "utf8")) as { tasks: string[] };
    return state.tasks.map((t, i): SourceTimelineRow => ({
      index: i + 1,
      time: `2026-01-0${i + 1}T10:00:00Z`,
      actor: "seam-agent",
      action: "task_added",
      taskId: t,
      status: "added",
      summary: `added ${t}`,
      file: ".seam/state.json",
      line: 1,
    }));
  },
  // Its own timeline words: the generic layers show them, none of them names this source.
  timelineFeatures: {
    ...LOG_TIMELINE_FEATURES,
    retries: true,
    words: {
      ...LOG_TIMELINE_FEATURES.words,
      actions: { task_added: { icon: "add", words: "task added", change: true } },
      statuses: { added: { icon: "diff-added", color: "charts.green", label: "newly added" } },
    },
  },
};

/** While set, "detect" requests wait for it (a worker busy with other folders' refreshes). */
let detectGate: Promise<void> | null = null;

/** The worker client, answering in this thread (so the test-registered source is seen); detection waits on the gate. */
const gatedWorker = (): StateWorkerClient =>
  inThreadWorker(async (req) => {
    if (req.type === "detect" && detectGate) await detectGate;
  });

async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  if (!(await pollUntil(check, 2_000, 10))) assert.fail(`timed out waiting for ${what}`);
}

describe("the seam: a fake source through the default adapter and the generic hosts", () => {
  let dir: string;
  let unregister: () => void;
  let folders: StateFolders;
  let tree: StateTreeProvider;
  const disposables: vscode.Disposable[] = [];
  const write = (tasks: string[], bad: number) =>
    fs.writeFileSync(path.join(dir, ".seam", "state.json"), JSON.stringify({ tasks, bad }));

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "seam-"));
    fs.mkdirSync(path.join(dir, ".seam"));
    write(["S-1", "S-2"], 2);
    unregister = registerSourceForTest(SEAM);
    fakeVscode.workspace.workspaceFolders = [{ uri: fakeVscode.Uri.file(dir), name: "ws", index: 0 }];
    const log = new OutputLog();
    const settings = new SettingsReader();
    const worker = gatedWorker();
    const watcher = new StateWatcher();
    const made: { defaults?: DefaultAdapters } = {};
    folders = new StateFolders(worker, log, settings, watcher, (kind) => made.defaults!.adapter(kind));
    tree = new StateTreeProvider(folders, (kind) => made.defaults!.adapter(kind));
    const host = {
      context: { subscriptions: [] },
      worker,
      log,
      settings,
      commands: new CommandManager(log),
      docs: {} as ReadOnlyDocuments,
      folders,
      tree: { refresh: () => tree.refresh(), children: (n?: never) => tree.getChildren(n) },
      afterPaint: (work: () => void) => work(),
    } as unknown as AdapterHost;
    made.defaults = new DefaultAdapters(host);
    disposables.push(folders, tree, watcher, new StateDiagnostics(folders));
    await folders.sync();
    await until(() => folders.byKey(`file://${dir}|seam`)?.problems !== null, "the first read");
  });

  after(() => {
    disposables.forEach((d) => d.dispose());
    unregister();
    fakeVscode.workspace.workspaceFolders = [];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the registry detects it and sets its context keys", () => {
    assert.deepEqual(
      folders.all.map((f) => f.key),
      [`file://${dir}|seam`],
    );
    assert.equal(fakeContext.get("autodev.has.seam"), true);
    assert.equal(fakeContext.get("autodev.hasState"), true);
  });

  it("shows it in the state tree: a root with the source's nodes", async () => {
    const [root] = await tree.getChildren();
    assert.equal((tree.getTreeItem(root) as unknown as { label: string }).label, "Seam");
    const [tasks] = await tree.getChildren(root);
    const labels = (await tree.getChildren(tasks)).map(
      (n) => (tree.getTreeItem(n) as unknown as { label: string }).label,
    );
    assert.deepEqual(labels, ["S-1", "S-2"]);
  });

  it("puts its problems in Problems at their line", () => {
    const shown = fakeCollections.get("autodev")!.get(`file://${path.join(dir, ".seam", "state.json")}`)!;
    assert.deepEqual(
      shown.map((d) => [d.range.start.line, d.code, d.source]),
      [[1, "seam_bad", "Seam"]],
    );
  });

  it("offers its timeline and pages its rows through the controller", async () => {
    const posted: HostToWebview[] = [];
    let receive: (m: unknown) => void = () => undefined;
    const webview = {
      onDidReceiveMessage: (l: (m: unknown) => void) => ((receive = l), { dispose: () => undefined }),
      postMessage: (m: HostToWebview) => (posted.push(m), Promise.resolve(true)),
    } as unknown as vscode.Webview;
    const services = {
      folders,
      worker: gatedWorker(),
      tree,
      treeView: {},
      log: new OutputLog(),
      openFile: async () => undefined,
    };
    const ctrl = new TimelineController(webview, services as never, {});
    disposables.push(ctrl);
    receive({ type: "ready", sourceKey: null });
    await until(() => posted.some((m) => m.type === "init"), "init");
    const init = posted.find((m) => m.type === "init") as Extract<HostToWebview, { type: "init" }>;
    assert.deepEqual(
      init.sources.map((c) => [c.key, c.name, c.view.chain, c.view.timeTravel]),
      [[`file://${dir}|seam`, "Seam", null, false]],
    );
    // The source's words reach the webview as data with its view.
    assert.equal(init.sources[0].view.words.statuses.added?.label, "newly added");
    assert.equal(init.sources[0].view.words.actions.task_added?.icon, "add");
    // So does the plain log's (while no source is chosen): the webview keeps no words of its own.
    assert.deepEqual(init.plainView, { ...LOG_TIMELINE_FEATURES, timeTravel: false, revealTask: false });
    const query = { filter: EMPTY_FILTER, foldSnapshots: true, timeZone: "UTC" };
    receive({
      type: "query",
      requestId: 7,
      sourceKey: init.sourceKey,
      query,
      offset: 0,
      limit: 50,
      anchorRowId: null,
      locateRowId: null,
      facets: false,
    });
    await until(() => posted.some((m) => m.type === "page"), "a page");
    const page = posted.find((m) => m.type === "page") as Extract<HostToWebview, { type: "page" }>;
    const rows = page.page.rows.filter((r) => r.kind === "entry");
    assert.deepEqual(
      rows.map((r) =>
        r.kind === "entry" ? [r.rowId, r.action, r.taskId, r.summary, r.change, r.chain, r.retry?.count] : null,
      ),
      [
        [2, "task_added", "S-2", "added S-2", "changed", null, null],
        [1, "task_added", "S-1", "added S-1", "changed", null, null],
      ],
    );
  });

  it("the webview keeps no copy of a source's words: the plain log's labels come from the host", () => {
    const webviewFiles = fs
      .readdirSync(path.join(REPO_ROOT, "webview"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"));
    const copies = webviewFiles.flatMap((f) => {
      const text = fs.readFileSync(path.join(REPO_ROOT, "webview", f), "utf8");
      // "Agent" alone is also the details pane's name of a row's `agent` field; the rest are the view's own.
      return Object.entries(LOG_TIMELINE_FEATURES.words.labels)
        .filter(([name, label]) => name !== "actor" && text.includes(JSON.stringify(label)))
        .map(([, label]) => label)
        .map((label) => `${f}: ${label}`);
    });
    assert.ok(webviewFiles.length > 10, `${webviewFiles.length} webview files`);
    assert.deepEqual(copies, []);
  });

  it("follows a change of its file through the one watcher: tree and Problems update", async () => {
    write(["S-1", "S-2", "S-3"], 0);
    const file = fakeVscode.Uri.file(path.join(dir, ".seam", "state.json")) as FakeUri;
    const watching = fakeWatchers.filter(
      (w) => !w.disposed && w.pattern.pattern === "*" && w.pattern.baseUri.fsPath === path.join(dir, ".seam"),
    );
    assert.equal(watching.length, 1, "one watcher for the folder of the source's file, however many uses it has");
    watching[0].fire("change", file);
    await until(() => !fakeCollections.get("autodev")!.has(file.toString()), "the problem to go");
    const [root] = await tree.getChildren();
    const [tasks] = await tree.getChildren(root);
    assert.equal((await tree.getChildren(tasks)).length, 3);
  });
  it("a folder removed from the workspace goes at once, while the others' detection waits in the worker", async () => {
    const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), "seam2-"));
    fs.mkdirSync(path.join(dir2, ".seam"));
    fs.writeFileSync(path.join(dir2, ".seam", "state.json"), JSON.stringify({ tasks: ["T-1"], bad: 0 }));
    const [first] = fakeVscode.workspace.workspaceFolders;
    const key2 = `file://${dir2}|seam`;
    let open: () => void = () => undefined;
    try {
      fakeVscode.workspace.workspaceFolders = [first, { uri: fakeVscode.Uri.file(dir2), name: "ws2", index: 1 }];
      await folders.sync();
      assert.ok(folders.byKey(key2), "the second folder is shown");
      detectGate = new Promise<void>((resolve) => (open = resolve));
      fakeVscode.workspace.workspaceFolders = [first];
      const syncing = folders.sync();
      await until(() => folders.byKey(key2) === undefined, "the removed folder to go before detection ends");
      open();
      await syncing;
      assert.deepEqual(
        folders.all.map((f) => f.key),
        [`file://${dir}|seam`],
      );
    } finally {
      open();
      detectGate = null;
      fakeVscode.workspace.workspaceFolders = [first];
      fs.rmSync(dir2, { recursive: true, force: true });
    }
  });
});
