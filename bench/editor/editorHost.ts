/**
 * The editor bench inside a real VS Code's extension host (loaded as
 * `extensionTestsPath` by bench/editor/run.mjs; not part of `npm test`).
 *
 * The workspace opens with its state folders staged aside, so the extension
 * is not active yet. Then:
 * 1. once the host is quiet (the built-in extensions it starts with the window
 *    have settled: a 250 ms spell under 5% busy, at most 10 s), the folders
 *    are put in place (renames) and the extension is activated:
 *    the extension host's main-thread time (event-loop utilization) and wall
 *    time until the state tree's `getChildren` first answered with roots (the
 *    first paint with content: sources are detected in the worker), and until
 *    the extension's start-up work ended (`StateApi.firstPaint`); with
 *    AUTODEV_EDITOR_ACTIVATION_ONLY=1 it stops there (bench --starts N), and
 *    AUTODEV_EDITOR_PROFILE=FILE writes a CPU profile of that span;
 * 2. once every folder is verified, the host's RSS with three sources open
 *    (AutoDev at 1 MB and 100 MB, agloop, engine_state);
 * 3. N external appends to each ledger, each by Python (AutoDev's own writer
 *    when its source is given: lock, copy, append, fsync, os.replace), and the
 *    time until the tree (an event, the task's new status in the data it
 *    renders) and Problems (the new FSM warning at the new line) both show it:
 *    from the writer's atomic replace (when a reader can first see the new
 *    ledger: the new ledger's ctime, the kernel's time of the rename, or the
 *    writer's own clock right after `os.replace` returned, whichever is
 *    earlier), and from the new ledger's last write (its mtime: before the
 *    writer's fsync of the whole copy and its replace). The host polls while
 *    Python runs, so the figure does not wait for the interpreter to exit.
 *    Appends alternate (A B B A …) between the state worker's own watch of the
 *    ledger (the default) and the editor's file watcher alone (as before:
 *    `StateFolders.live.enabled = false`), so both are timed side by side in
 *    one host; each append's steps (the editor's event, the refresh request,
 *    the worker's time, the tree's change) are kept in `breakdown`;
 * 4. the timeline webview opened on the biggest ledger, and appends timed until
 *    the webview reported the repainted timeline with the new row
 *    (timelineAppends.ts), and until the tree and Problems showed them.
 * Writes the figures as JSON to AUTODEV_EDITOR_BENCH_OUT.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { performance } from "node:perf_hooks";
import * as inspector from "node:inspector";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import type { AutodevApi } from "../../src/extension/sources/autodev/autodevAdapter";
import { timeTimelineAppends } from "./timelineAppends";
import { sleep, until as waitUntil } from "./hostWait";

const EXTENSION_ID = "autodev-state.autodev-state";
const APPEND_PY = path.join(__dirname, "..", "..", "..", "bench", "editor", "python_append.py");

/** Every state folder staged in `<folder>/_staged/` moves into the folder. */
function unstage(folder: string): void {
  const staged = path.join(folder, "_staged");
  for (const name of fs.readdirSync(staged)) fs.renameSync(path.join(staged, name), path.join(folder, name));
  fs.rmdirSync(staged);
}

/**
 * Runs the Python append; resolves with when the ledger was last written and replaced, and the new
 * seq. `snapshot`: the status change and a snapshot of the whole plan after it, as PlanManager's
 * update_task_status appends them (the times are the snapshot's, the seq is the snapshot's).
 */
function pythonAppend(
  cwd: string,
  taskId: string,
  status: string,
  snapshot = false,
): Promise<{ writtenAtMs: number; replacedAtMs: number; seq: number }> {
  // The writer's own clock after `os.replace` returned can be late (AutoDev's append returns through a
  // thread and the asyncio loop, and frees the 100 MB copy first); the rename's ctime is not.
  const python = process.env.AUTODEV_PYTHON ?? "python3";
  const env = { ...process.env, ...(process.env.AUTODEV_PY_SRC ? { PYTHONPATH: process.env.AUTODEV_PY_SRC } : {}) };
  return new Promise((resolve, reject) =>
    execFile(
      python,
      [APPEND_PY, cwd, taskId, status, ...(snapshot ? ["snapshot"] : [])],
      { env },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`python append failed: ${stderr || err.message}`));
        const out = JSON.parse(stdout.trim().split("\n").pop()!) as {
          written_at_ms: number;
          replaced_at_ms: number;
          renamed_at_ms: number;
          seq: number;
        };
        const replacedAtMs = Math.min(out.replaced_at_ms, out.renamed_at_ms);
        resolve({ writtenAtMs: out.written_at_ms, replacedAtMs, seq: out.seq });
      },
    ),
  );
}

/** Waits (up to 10 s) for a 250 ms spell with the host's main thread busy under 5% of it; resolves with the wait. */
async function hostQuiet(): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < 10_000) {
    const elu0 = performance.eventLoopUtilization();
    await sleep(250);
    if (performance.eventLoopUtilization(elu0).utilization < 0.05) break;
  }
  return performance.now() - t0;
}

/** Starts a CPU profile of this thread; the returned function stops it and resolves with the profile. */
async function startProfile(): Promise<() => Promise<unknown>> {
  const session = new inspector.Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
    );
  await post("Profiler.enable");
  await post("Profiler.setSamplingInterval", { interval: 100 });
  await post("Profiler.start");
  return async () => {
    const res = (await post("Profiler.stop")) as { profile: unknown };
    session.disconnect();
    return res.profile;
  };
}

/** Polls `check` every 2 ms until true (or throws after `timeoutMs`). */
const until = (check: () => boolean, timeoutMs: number, what: string): Promise<void> =>
  waitUntil(check, timeoutMs, what, 2);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/**
 * Where an append's time goes, seen from the bench's side of the host (nothing in the extension is
 * changed for it): the bench's own watcher on `.autodev/**` hears code-server's event when the
 * extension's does; the worker client's `request` and each folder's memento are wrapped to time
 * the round trips (the refresh's result says how long the worker itself took). Times are epoch ms
 * (the writer's clock is the same machine's).
 */
function traceLivePath(api: StateApi, autodev: AutodevApi) {
  let eventAt = 0;
  const treeTimes: number[] = [];
  const treeSub = api.tree.onDidChangeTreeData(() => treeTimes.push(Date.now()));
  const requests: { type: string; cwd?: string; sentAt: number; doneAt: number; workerMs?: number }[] = [];
  const mementos: { startAt: number; doneAt: number }[] = [];
  const watcher = vscode.workspace.createFileSystemWatcher("**/.autodev/plan-ledger.jsonl");
  const heard = () => (eventAt ||= Date.now());
  const subs = [watcher.onDidCreate(heard), watcher.onDidChange(heard), watcher, { dispose: () => undefined }];
  const worker = (
    api.folders as unknown as { worker: { request: (req: { type: string }, ...rest: unknown[]) => Promise<unknown> } }
  ).worker;
  const request = worker.request.bind(worker);
  worker.request = (req, ...rest) => {
    const src = req as unknown as { kind?: string; cwd?: string; request?: { type: string } };
    const type = req.type === "source" ? `${src.kind}.${src.request?.type}` : req.type;
    const r = { type, cwd: src.cwd, sentAt: Date.now(), doneAt: 0, workerMs: undefined as number | undefined };
    requests.push(r);
    const p = request(req, ...rest);
    void p.then(
      (v) => {
        r.doneAt = Date.now();
        const ms = (v as { ms?: unknown } | null)?.ms;
        if (typeof ms === "number") r.workerMs = ms;
      },
      () => (r.doneAt = Date.now()),
    );
    return p;
  };
  for (const f of autodev.folders.folders) {
    const memento = (f as unknown as { services: { memento: vscode.Memento } }).services.memento;
    const update = memento.update.bind(memento);
    memento.update = (key: string, value: unknown) => {
      const m = { startAt: Date.now(), doneAt: 0 };
      mementos.push(m);
      return update(key, value).then(() => void (m.doneAt = Date.now()));
    };
  }
  return {
    reset() {
      eventAt = 0;
      requests.length = 0;
      treeTimes.length = 0;
      mementos.length = 0;
    },
    /** Each step's time after the writer's replace (ms; null when it did not happen). */
    steps(cwd: string, replacedAt: number, shownAt: number) {
      const rel = (t: number | undefined) => (t ? t - replacedAt : null);
      const mine = requests.filter((r) => r.cwd === cwd);
      const refresh = mine.find((r) => r.type === "autodev.refresh" && r.sentAt >= replacedAt - 50);
      const after = mine.filter((r) => r.sentAt >= (refresh?.sentAt ?? Infinity) && r.sentAt <= shownAt);
      return {
        event: rel(eventAt),
        refreshSent: rel(refresh?.sentAt),
        refreshDone: rel(refresh?.doneAt),
        workerMs: refresh?.workerMs ?? null,
        requestsAfter: after.map((r) => `${r.type}@${rel(r.sentAt)}-${rel(r.doneAt)}`),
        mementos: mementos.map((m) => `${rel(m.startAt)}-${rel(m.doneAt)}`),
        treeFired: rel(treeTimes.find((t) => t >= (refresh?.doneAt ?? Infinity))),
        shown: rel(shownAt),
      };
    },
    dispose: () => [...subs, treeSub].forEach((d) => d.dispose()),
  };
}

/** VS Code calls this (extensionTestsPath). */
export async function run(): Promise<void> {
  const out = process.env.AUTODEV_EDITOR_BENCH_OUT;
  if (!out) throw new Error("AUTODEV_EDITOR_BENCH_OUT is not set");
  const appends = Number(process.env.AUTODEV_EDITOR_APPENDS ?? 20);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const result: Record<string, unknown> = { wasActive: ext.isActive, vscode: vscode.version, node: process.version };

  // The host starts the built-in extensions as the window opens; their work would count as ours.
  result.quietAfterMs = await hostQuiet();
  for (const f of folders) unstage(f);
  const profile = process.env.AUTODEV_EDITOR_PROFILE ? await startProfile() : null;
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const api = (await ext.activate()) as StateApi;
  const activatedHostMs = performance.eventLoopUtilization(elu0).active;
  const autodev = api.adapters.autodev as AutodevApi;
  while ((await api.tree.getChildren()).length === 0) await sleep(2);
  const elu = performance.eventLoopUtilization(elu0);
  const wallMs = performance.now() - t0;
  // Older builds have no firstPaint: their start-up work is all done by the first answer.
  await (api as Partial<StateApi>).firstPaint;
  const totalHostMs = performance.eventLoopUtilization(elu0).active;
  result.activation = { wallMs, hostMs: elu.active, activatedHostMs, totalHostMs };
  if (profile) fs.writeFileSync(process.env.AUTODEV_EDITOR_PROFILE!, JSON.stringify(await profile()));
  if (process.env.AUTODEV_EDITOR_ACTIVATION_ONLY === "1") {
    fs.writeFileSync(out, JSON.stringify(result, null, 2));
    return;
  }

  await until(
    () => autodev.folders.folders.length === folders.length && autodev.folders.folders.every((f) => f.report !== null),
    600_000,
    "every ledger verified",
  );
  result.firstVerifyMs = performance.now() - t0;
  await sleep(3000);
  result.rssMB = process.memoryUsage().rss / 2 ** 20;
  result.sources = (await api.tree.getChildren()).length;

  let treeEvents = 0;
  const sub = api.tree.onDidChangeTreeData(() => treeEvents++);
  const trace = traceLivePath(api, autodev);
  // Side by side in one host: appends alternate (A B B A …) between the worker's own watch of the
  // ledger (the default) and the editor's watcher alone (as before).
  const modes = ["live", "editorWatcher"] as const;
  const times = Object.fromEntries(modes.map((m) => [m, { replace: {}, write: {} }])) as Record<
    (typeof modes)[number],
    { replace: Record<string, number[]>; write: Record<string, number[]> }
  >;
  const breakdown: Record<string, unknown>[] = [];
  for (const folder of autodev.folders.folders) {
    const name = path.basename(folder.cwd);
    // The PlanManager ledger gets what PlanManager appends: the status change, then the plan's snapshot.
    const snapshots = name === "snapshots";
    const task = folder.plan!.phases[0].tasks[0].id;
    const uri = vscode.Uri.file(folder.ledgerFile);
    for (const m of modes) {
      times[m].replace[name] = [];
      times[m].write[name] = [];
    }
    for (let i = 0; i < appends; i++) {
      const mode = i % 4 === 0 || i % 4 === 3 ? "live" : "editorWatcher";
      api.folders.live.enabled = mode === "live";
      const status = i % 2 === 0 ? "pending" : "complete"; // never an FSM edge from the other: a warning each time
      const events = treeEvents;
      trace.reset();
      const seq = folder.entries + (snapshots ? 2 : 1); // nothing else writes this ledger
      const statusSeq = snapshots ? seq - 1 : seq; // the status change (its line: seq, one entry a line)
      const shown = (async () => {
        await until(
          () => {
            const t = folder.plan?.phases[0].tasks[0];
            const problems = vscode.languages.getDiagnostics(uri);
            return (
              treeEvents > events &&
              folder.entries === seq &&
              t?.status === status &&
              problems.some((d) => d.range.start.line === statusSeq - 1 && /state machine/.test(d.message))
            );
          },
          60_000,
          `append ${seq} of ${name} in the tree and Problems`,
        );
        return Date.now();
      })();
      const written = await pythonAppend(folder.cwd, task, status, snapshots);
      if (written.seq !== seq) throw new Error(`append to ${name} wrote seq ${written.seq}, expected ${seq}`);
      const shownAt = await shown;
      times[mode].replace[name].push(shownAt - written.replacedAtMs);
      times[mode].write[name].push(shownAt - written.writtenAtMs);
      breakdown.push({ folder: name, mode, ...trace.steps(folder.cwd, written.replacedAtMs, shownAt) });
      await sleep(300);
    }
  }
  api.folders.live.enabled = true;
  sub.dispose();
  // The timeline webview open on the biggest ledger (the 100 MB lifecycle one when there): the same appends reach it too.
  const biggest =
    autodev.folders.folders.find((f) => path.basename(f.cwd) === "big") ??
    [...autodev.folders.folders].sort((x, y) => fs.statSync(y.ledgerFile).size - fs.statSync(x.ledgerFile).size)[0];
  const tl = await timeTimelineAppends(biggest, path.basename(biggest.cwd), Math.max(2, Math.min(appends, 10)), {
    append: pythonAppend,
    until,
    sleep,
  });
  const stats = (v: number[]) => ({ n: v.length, p50: pct(v, 50), p95: pct(v, 95), all: v });
  const table = (r: Record<string, number[]>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, stats(v)]));
  result.appends = table(times.live.replace);
  result.appendsFromWrite = table(times.live.write);
  result.appendsEditorWatcher = table(times.editorWatcher.replace);
  result.breakdown = breakdown;
  result.timelineAppends = {
    folder: tl.folder,
    timeline: stats(tl.timeline),
    treeAndProblems: stats(tl.treeAndProblems),
  };
  trace.dispose();
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}
