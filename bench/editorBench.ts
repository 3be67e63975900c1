/**
 * Target 4 of the bench, run from `npm run bench` (full mode): prepares a
 * multi-root workspace — `small/` with a 1 MB AutoDev ledger, agloop's and
 * engine_state's fixture folders, `big/` with the 100 MB lifecycle ledger,
 * `snapshots/` with the 100 MB `plan-manager` ledger (appends there are a
 * status change and its snapshot of the whole plan, as PlanManager writes
 * them) — with every state folder staged aside, then runs bench/editor/run.mjs
 * (code-server + the measurement in the extension host, editorHost.ts) and
 * reads its figures.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { shapeNamed } from "./ledgerShapes";
import { generateShapeLedger } from "./generate";
import { ROOT, ensureData } from "./benchRunner";

/** One host start: main-thread time and wall time until the first tree answer with content. */
export interface Activation {
  readonly wallMs: number;
  readonly hostMs: number;
  /** Host time until `activate()` returned (the bundle's load included). */
  readonly activatedHostMs?: number;
  /** Host time until the extension's start-up work ended (`StateApi.firstPaint` settled; absent on older builds). */
  readonly totalHostMs?: number;
}

/** Activation over several host starts, each in the same user-data folder (a user's restarts). */
export interface ActivationStarts {
  /** This checkout's extension; the first start has no compile cache yet. */
  readonly ours: Activation[];
  /** `--baseline DIR`'s extension, started alternately with ours (A B A B …), each in its own user-data folder. */
  readonly baseline?: { dir: string; starts: Activation[] };
}

/** What the extension host measured. */
export interface EditorResult {
  /** Host main-thread time and wall time until the first tree answer; `activate()` itself (the extension's own figure). */
  readonly activation: Activation & { activateMs?: number };
  /** `--starts N`: activation alone over N host starts (absent in older runs). */
  readonly starts?: ActivationStarts;
  readonly firstVerifyMs: number;
  readonly rssMB: number;
  /** From the writer's atomic replace (when a reader can first see the append) to the tree and Problems showing it. */
  readonly appends: Record<string, { n: number; p50: number; p95: number }>;
  /** The same from the new ledger's last write (its mtime; absent in results of older runs). */
  readonly appendsFromWrite?: Record<string, { n: number; p50: number; p95: number }>;
  /** From the replace, with the editor's file watcher alone (no watch in the worker, as before; absent in older runs). */
  readonly appendsEditorWatcher?: Record<string, { n: number; p50: number; p95: number }>;
  /** With the timeline open on the biggest ledger: replace → the webview repainted with the new row, and → tree and Problems (absent in older runs). */
  readonly timelineAppends?: {
    readonly folder: string;
    readonly timeline: { n: number; p50: number; p95: number };
    readonly treeAndProblems: { n: number; p50: number; p95: number };
  };
  readonly vscode: string;
  readonly node: string;
  readonly ledgerBytes: Record<string, number>;
  /** `appendRuns` with a baseline: each extension's runs (absent otherwise). */
  readonly appendRuns?: AppendRuns;
}

/** Options of the editor bench: appends per ledger, host starts for activation, an A/B baseline checkout. */
export interface EditorOptions {
  readonly appends: number;
  /** Host starts measuring activation alone (each a fresh code-server, in one kept user-data folder). */
  readonly starts: number;
  /** Another checkout (built) whose extension is started alternately with ours: an A/B of activation. */
  readonly baseline?: string;
  /** Only these workspace folders (of small, big, snapshots); all three by default. */
  readonly folders?: readonly string[];
  /** With `baseline`: the appends' run this many times for each extension, alternating (B A A B …). */
  readonly appendRuns?: number;
}

/** One extension's append runs of an A/B (`appendRuns`): each run's figures from the replace. */
export interface AppendRuns {
  readonly ours: EditorResult["appends"][];
  readonly baseline: EditorResult["appends"][];
}

/** Runs the editor bench; null (with the reason on stderr) when code-server or Chromium is not available. */
export function measureEditor(options: EditorOptions, say: (s: string) => void): EditorResult | { error: string } {
  const { appends } = options;
  const lifecycle = shapeNamed("lifecycle");
  const small = ensureData("shape-lifecycle-1mb", (f) => generateShapeLedger(f, lifecycle, 1e6));
  const big = ensureData("shape-lifecycle-100mb", (f) => generateShapeLedger(f, lifecycle, 100e6));
  const planManager = shapeNamed("plan-manager");
  const snapshots = ensureData("shape-plan-manager-100mb", (f) => generateShapeLedger(f, planManager, 100e6));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-editor-ws-"));
  try {
    const stage = (folder: string, from: string, name: string) =>
      fs.cpSync(path.join(from, name), path.join(work, folder, "_staged", name), { recursive: true });
    const folders = (options.folders ?? ["small", "big", "snapshots"]).filter((f) =>
      ["small", "big", "snapshots"].includes(f),
    );
    if (folders.includes("small")) {
      stage("small", small.dir, ".autodev");
      stage("small", path.join(ROOT, "test", "fixtures", "agloop-clean"), ".agloop");
      stage("small", path.join(ROOT, "test", "fixtures", "engine-state-small"), "engine_state");
    }
    if (folders.includes("big")) stage("big", big.dir, ".autodev");
    if (folders.includes("snapshots")) stage("snapshots", snapshots.dir, ".autodev");
    const ws = path.join(work, "bench.code-workspace");
    fs.writeFileSync(ws, JSON.stringify({ folders: folders.map((f) => ({ path: f })) }, null, 2));
    const resultFile = path.join(work, "result.json");
    const userData = { ours: path.join(work, "user-data-ours"), baseline: path.join(work, "user-data-baseline") };
    /** One code-server run of bench/editor/run.mjs on a freshly staged copy of the workspace. */
    const runOnce = (env: Record<string, string>): Record<string, unknown> | null => {
      fs.rmSync(resultFile, { force: true });
      for (const folder of folders) {
        const staged = path.join(work, `${folder}-staged-copy`);
        if (!fs.existsSync(staged)) fs.cpSync(path.join(work, folder), staged, { recursive: true });
        fs.rmSync(path.join(work, folder), { recursive: true, force: true });
        fs.cpSync(staged, path.join(work, folder), { recursive: true });
      }
      const res = spawnSync(process.execPath, [path.join(ROOT, "bench", "editor", "run.mjs"), ws, resultFile], {
        encoding: "utf8",
        env: { ...process.env, ...env },
        stdio: ["ignore", "inherit", "inherit"],
      });
      return res.status === 0 && fs.existsSync(resultFile)
        ? (JSON.parse(fs.readFileSync(resultFile, "utf8")) as Record<string, unknown>)
        : null;
    };
    const ours: Activation[] = [];
    const base: Activation[] = [];
    for (let i = 0; i < options.starts; i++) {
      for (const which of options.baseline ? (["baseline", "ours"] as const) : (["ours"] as const)) {
        say(`start ${i + 1}/${options.starts} ${which} … `);
        const r = runOnce({
          AUTODEV_EDITOR_ACTIVATION_ONLY: "1",
          AUTODEV_EDITOR_USER_DATA: userData[which],
          ...(which === "baseline" ? { AUTODEV_EDITOR_EXTENSION: path.resolve(options.baseline!) } : {}),
        });
        if (!r) return { error: `the editor bench's start ${i + 1} (${which}) failed` };
        (which === "ours" ? ours : base).push(r.activation as Activation);
      }
    }
    const appendRuns: AppendRuns = { ours: [], baseline: [] };
    let lastOurs: Record<string, unknown> | null = null;
    for (let i = 0; options.baseline && i < (options.appendRuns ?? 0); i++) {
      for (const which of i % 2 === 0 ? (["baseline", "ours"] as const) : (["ours", "baseline"] as const)) {
        say(`appends ${i + 1}/${options.appendRuns} ${which} … `);
        const r = runOnce({
          AUTODEV_EDITOR_APPENDS: String(appends),
          ...(which === "baseline" ? { AUTODEV_EDITOR_EXTENSION: path.resolve(options.baseline) } : {}),
        });
        if (!r) return { error: `the editor bench's append run ${i + 1} (${which}) failed` };
        appendRuns[which].push(r.appends as EditorResult["appends"]);
        if (which === "ours") lastOurs = r;
        if (process.env.AUTODEV_EDITOR_RESULT_COPY) {
          fs.writeFileSync(`${process.env.AUTODEV_EDITOR_RESULT_COPY}.${which}.${i + 1}`, JSON.stringify(r));
        }
      }
    }
    // In the kept user-data folder when starts ran before (its compile cache warm, as after a restart);
    // after an A/B of the appends, its last run of ours.
    if (!lastOurs) say("code-server … ");
    const out = (lastOurs ??
      runOnce({
        AUTODEV_EDITOR_APPENDS: String(appends),
        ...(options.starts > 0 ? { AUTODEV_EDITOR_USER_DATA: userData.ours } : {}),
      })) as Omit<EditorResult, "ledgerBytes"> | null;
    if (!out) return { error: "the editor bench failed" };
    // AUTODEV_EDITOR_RESULT_COPY: keep the host's whole result (per-append breakdown included).
    if (process.env.AUTODEV_EDITOR_RESULT_COPY) {
      fs.writeFileSync(process.env.AUTODEV_EDITOR_RESULT_COPY, JSON.stringify(out));
    }
    const starts: ActivationStarts | undefined =
      options.starts > 0
        ? { ours, ...(options.baseline ? { baseline: { dir: options.baseline, starts: base } } : {}) }
        : undefined;
    return {
      ...out,
      ...(starts ? { starts } : {}),
      ...(appendRuns.ours.length > 0 ? { appendRuns } : {}),
      ledgerBytes: { small: small.bytes, big: big.bytes, snapshots: snapshots.bytes },
    };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
