/**
 * The editor bench inside a real VS Code's extension host (loaded as
 * `extensionTestsPath` by bench/editor/run.mjs; not part of `npm test`).
 *
 * The workspace opens with its state folders staged aside, so the extension
 * is not active yet. Then:
 * 1. the folders are put in place (renames) and the extension is activated:
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
 *    ledger), and from the new ledger's last write (its mtime: before the
 *    writer's fsync of the whole copy and its replace). The host polls while
 *    Python runs, so the figure does not wait for the interpreter to exit.
 *    Appends alternate (A B B A …) between folders hearing of the first change
 *    at once (the default) and after `autodev.debounceMs` only (as before
 *    issue 24), so both are timed side by side in one host.
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

const EXTENSION_ID = "autodev-state.autodev-state";
const APPEND_PY = path.join(__dirname, "..", "..", "..", "bench", "editor", "python_append.py");

/** Every state folder staged in `<folder>/_staged/` moves into the folder. */
function unstage(folder: string): void {
  const staged = path.join(folder, "_staged");
  for (const name of fs.readdirSync(staged)) fs.renameSync(path.join(staged, name), path.join(folder, name));
  fs.rmdirSync(staged);
}

/** Runs the Python append; resolves with when the ledger was last written and replaced, and the new seq. */
function pythonAppend(
  cwd: string,
  taskId: string,
  status: string,
): Promise<{ writtenAtMs: number; replacedAtMs: number; seq: number }> {
  const python = process.env.AUTODEV_PYTHON ?? "python3";
  const env = { ...process.env, ...(process.env.AUTODEV_PY_SRC ? { PYTHONPATH: process.env.AUTODEV_PY_SRC } : {}) };
  return new Promise((resolve, reject) =>
    execFile(python, [APPEND_PY, cwd, taskId, status], { env }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`python append failed: ${stderr || err.message}`));
      const out = JSON.parse(stdout.trim().split("\n").pop()!) as {
        written_at_ms: number;
        replaced_at_ms: number;
        seq: number;
      };
      resolve({ writtenAtMs: out.written_at_ms, replacedAtMs: out.replaced_at_ms, seq: out.seq });
    }),
  );
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 2 ms until true (or throws after `timeoutMs`). */
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(2);
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** VS Code calls this (extensionTestsPath). */
export async function run(): Promise<void> {
  const out = process.env.AUTODEV_EDITOR_BENCH_OUT;
  if (!out) throw new Error("AUTODEV_EDITOR_BENCH_OUT is not set");
  const appends = Number(process.env.AUTODEV_EDITOR_APPENDS ?? 20);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not loaded`);
  const result: Record<string, unknown> = { wasActive: ext.isActive, vscode: vscode.version, node: process.version };

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
  // Side by side in one host: appends alternate (A B B A …) between the folders hearing of the first
  // change at once (readsAtOnce, the default) and after the debounce spell only (as before).
  const modes = ["atOnce", "afterSpell"] as const;
  const times = Object.fromEntries(modes.map((m) => [m, { replace: {}, write: {} }])) as Record<
    (typeof modes)[number],
    { replace: Record<string, number[]>; write: Record<string, number[]> }
  >;
  for (const folder of autodev.folders.folders) {
    const name = path.basename(folder.cwd);
    const task = folder.plan!.phases[0].tasks[0].id;
    const uri = vscode.Uri.file(folder.ledgerFile);
    for (const m of modes) {
      times[m].replace[name] = [];
      times[m].write[name] = [];
    }
    for (let i = 0; i < appends; i++) {
      const mode = i % 4 === 0 || i % 4 === 3 ? "atOnce" : "afterSpell";
      api.folders.readsAtOnce = mode === "atOnce";
      const status = i % 2 === 0 ? "pending" : "complete"; // never an FSM edge from the other: a warning each time
      const events = treeEvents;
      const seq = folder.entries + 1; // nothing else writes this ledger
      const shown = (async () => {
        await until(
          () => {
            const t = folder.plan?.phases[0].tasks[0];
            const problems = vscode.languages.getDiagnostics(uri);
            return (
              treeEvents > events &&
              folder.entries === seq &&
              t?.status === status &&
              problems.some((d) => d.range.start.line === seq - 1 && /state machine/.test(d.message))
            );
          },
          60_000,
          `append ${seq} of ${name} in the tree and Problems`,
        );
        return Date.now();
      })();
      const written = await pythonAppend(folder.cwd, task, status);
      if (written.seq !== seq) throw new Error(`append to ${name} wrote seq ${written.seq}, expected ${seq}`);
      const shownAt = await shown;
      times[mode].replace[name].push(shownAt - written.replacedAtMs);
      times[mode].write[name].push(shownAt - written.writtenAtMs);
      await sleep(300);
    }
  }
  api.folders.readsAtOnce = true;
  sub.dispose();
  const stats = (v: number[]) => ({ n: v.length, p50: pct(v, 50), p95: pct(v, 95), all: v });
  const table = (r: Record<string, number[]>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, stats(v)]));
  result.appends = table(times.atOnce.replace);
  result.appendsFromWrite = table(times.atOnce.write);
  result.appendsAfterSpell = table(times.afterSpell.replace);
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}
