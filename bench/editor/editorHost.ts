/**
 * The editor bench inside a real VS Code's extension host (loaded as
 * `extensionTestsPath` by bench/editor/run.mjs; not part of `npm test`).
 *
 * The workspace opens with its state folders staged aside, so the extension
 * is not active yet. Then:
 * 1. the folders are put in place (renames) and the extension is activated:
 *    the extension host's main-thread time (event-loop utilization) and wall
 *    time until the state tree's `getChildren` first answered with roots (the
 *    first paint with content: sources are detected in the worker);
 * 2. once every folder is verified, the host's RSS with three sources open
 *    (AutoDev at 1 MB and 100 MB, agloop, engine_state);
 * 3. N external appends to each ledger, each by Python (AutoDev's own writer
 *    when its source is given: lock, copy, append, fsync, os.replace), and the
 *    time from the new ledger's last write to the tree (an event, the task's
 *    new status in the data it renders) and Problems (the new FSM warning at
 *    the new line) both showing it.
 * Writes the figures as JSON to AUTODEV_EDITOR_BENCH_OUT.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { performance } from "node:perf_hooks";
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

/** Runs the Python append; resolves with when the ledger was last written and the new seq. */
function pythonAppend(cwd: string, taskId: string, status: string): Promise<{ writtenAtMs: number; seq: number }> {
  const python = process.env.AUTODEV_PYTHON ?? "python3";
  const env = { ...process.env, ...(process.env.AUTODEV_PY_SRC ? { PYTHONPATH: process.env.AUTODEV_PY_SRC } : {}) };
  return new Promise((resolve, reject) =>
    execFile(python, [APPEND_PY, cwd, taskId, status], { env }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`python append failed: ${stderr || err.message}`));
      const out = JSON.parse(stdout.trim().split("\n").pop()!) as { written_at_ms: number; seq: number };
      resolve({ writtenAtMs: out.written_at_ms, seq: out.seq });
    }),
  );
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
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  const api = (await ext.activate()) as StateApi;
  const autodev = api.adapters.autodev as AutodevApi;
  while ((await api.tree.getChildren()).length === 0) await sleep(2);
  const elu = performance.eventLoopUtilization(elu0);
  result.activation = { wallMs: performance.now() - t0, hostMs: elu.active };

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
  const latencies: Record<string, number[]> = {};
  for (const folder of autodev.folders.folders) {
    const name = path.basename(folder.cwd);
    const task = folder.plan!.phases[0].tasks[0].id;
    const uri = vscode.Uri.file(folder.ledgerFile);
    const list: number[] = [];
    for (let i = 0; i < appends; i++) {
      const status = i % 2 === 0 ? "pending" : "complete"; // never an FSM edge from the other: a warning each time
      const events = treeEvents;
      const { writtenAtMs, seq } = await pythonAppend(folder.cwd, task, status);
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
      list.push(Date.now() - writtenAtMs);
      await sleep(300);
    }
    latencies[name] = list;
  }
  sub.dispose();
  result.appends = Object.fromEntries(
    Object.entries(latencies).map(([k, v]) => [k, { n: v.length, p50: pct(v, 50), p95: pct(v, 95), all: v }]),
  );
  fs.writeFileSync(out, JSON.stringify(result, null, 2));
}
