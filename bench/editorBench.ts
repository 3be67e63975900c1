/**
 * Target 4 of the bench, run from `npm run bench` (full mode): prepares a
 * multi-root workspace — `small/` with a 1 MB AutoDev ledger, agloop's and
 * engine_state's fixture folders, `big/` with the 100 MB lifecycle ledger —
 * with every state folder staged aside, then runs bench/editor/run.mjs
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

/** What the extension host measured. */
export interface EditorResult {
  /** Host main-thread time and wall time until the first tree answer; `activate()` itself (the extension's own figure). */
  readonly activation: { wallMs: number; hostMs: number; activateMs?: number };
  readonly firstVerifyMs: number;
  readonly rssMB: number;
  /** From the writer's atomic replace (when a reader can first see the append) to the tree and Problems showing it. */
  readonly appends: Record<string, { n: number; p50: number; p95: number }>;
  /** The same from the new ledger's last write (its mtime; absent in results of older runs). */
  readonly appendsFromWrite?: Record<string, { n: number; p50: number; p95: number }>;
  /** From the replace, with every folder told after the debounce spell only (as before; absent in older runs). */
  readonly appendsAfterSpell?: Record<string, { n: number; p50: number; p95: number }>;
  readonly vscode: string;
  readonly node: string;
  readonly ledgerBytes: Record<string, number>;
}

/** Runs the editor bench; null (with the reason on stderr) when code-server or Chromium is not available. */
export function measureEditor(appends: number, say: (s: string) => void): EditorResult | { error: string } {
  const lifecycle = shapeNamed("lifecycle");
  const small = ensureData("shape-lifecycle-1mb", (f) => generateShapeLedger(f, lifecycle, 1e6));
  const big = ensureData("shape-lifecycle-100mb", (f) => generateShapeLedger(f, lifecycle, 100e6));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-editor-ws-"));
  try {
    const stage = (folder: string, from: string, name: string) =>
      fs.cpSync(path.join(from, name), path.join(work, folder, "_staged", name), { recursive: true });
    stage("small", small.dir, ".autodev");
    stage("small", path.join(ROOT, "test", "fixtures", "agloop-clean"), ".agloop");
    stage("small", path.join(ROOT, "test", "fixtures", "engine-state-small"), "engine_state");
    stage("big", big.dir, ".autodev");
    const ws = path.join(work, "bench.code-workspace");
    fs.writeFileSync(ws, JSON.stringify({ folders: [{ path: "small" }, { path: "big" }] }, null, 2));
    const resultFile = path.join(work, "result.json");
    say("code-server … ");
    const res = spawnSync(process.execPath, [path.join(ROOT, "bench", "editor", "run.mjs"), ws, resultFile], {
      encoding: "utf8",
      env: { ...process.env, AUTODEV_EDITOR_APPENDS: String(appends) },
      stdio: ["ignore", "inherit", "inherit"],
    });
    if (res.status !== 0 || !fs.existsSync(resultFile)) {
      return { error: `the editor bench failed (exit ${res.status})` };
    }
    const out = JSON.parse(fs.readFileSync(resultFile, "utf8")) as Omit<EditorResult, "ledgerBytes">;
    return { ...out, ledgerBytes: { small: small.bytes, big: big.bytes } };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
