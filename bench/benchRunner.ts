/**
 * The runner side of `npm run bench`: starts the child measurements and the
 * Python references, keeps the generated data, and formats numbers.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import type { ChildResult } from "./process/benchChild";

/** Bump when the generators change, so cached data is regenerated. */
const DATA_VERSION = 2;
/** The repository root. */
export const ROOT = path.resolve(__dirname, "../..");
/** Where generated ledgers and the last table are kept (gitignored). */
export const DATA = path.join(ROOT, "bench", "data");
const SELF = __filename;

/** The ledger file of a workspace folder. */
export const ledgerOf = (dir: string) => path.join(dir, ".autodev", "plan-ledger.jsonl");

/** Runs one child measurement in a fresh process. */
export function runChild(mode: string, arg: string, env: NodeJS.ProcessEnv = process.env): ChildResult {
  const res = spawnSync(process.execPath, [SELF, "--child", mode, arg], { encoding: "utf8", maxBuffer: 1 << 24, env });
  if (res.status !== 0) throw new Error(`child ${mode} ${arg} failed (${res.status}): ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split("\n").pop()!) as ChildResult;
}

/** The Python stdlib reference on a ledger file. */
export function runPython(file: string): { ms: number; cpuMs: number; ok: boolean; entries: number; bad: number } {
  const res = spawnSync("python3", [path.join(ROOT, "bench", "python", "python_reference.py"), file], {
    encoding: "utf8",
  });
  if (res.status !== 0) throw new Error(`python reference failed: ${res.stderr || res.stdout}`);
  const out = JSON.parse(res.stdout.trim()) as {
    seconds: number;
    cpu_seconds: number;
    ok: boolean;
    entries: number;
    bad: number;
  };
  return { ms: out.seconds * 1000, cpuMs: out.cpu_seconds * 1000, ok: out.ok, entries: out.entries, bad: out.bad };
}

/** Where Python AutoDev's src/ is (`--autodev-src DIR` or AUTODEV_PY_SRC), or null when not given or not there. */
export function autodevSrc(argv: string[]): string | null {
  const i = argv.indexOf("--autodev-src");
  const dir = i >= 0 ? argv[i + 1] : process.env.AUTODEV_PY_SRC;
  return dir && fs.existsSync(path.join(dir, "state", "ledger.py")) ? path.resolve(dir) : null;
}

/** What Python AutoDev's own replay took. */
export interface AutodevRun {
  ms: number;
  readMs: number;
  cpuMs: number;
  peakMB: number;
  ok: boolean;
  entries: number;
  /** What it raised (a damaged ledger: `LedgerCorruptError` at the first bad line), or null. */
  error: string | null;
}

/** Python AutoDev's own `replay_ledger` (which runs `read_entries`) on a workspace, real pydantic. */
export function runAutodev(src: string, dir: string): AutodevRun {
  const python = process.env.AUTODEV_PYTHON ?? "python3";
  const res = spawnSync(python, [path.join(ROOT, "bench", "python", "python_autodev.py"), dir], {
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: src },
  });
  const out = JSON.parse(res.stdout.trim() || "{}") as {
    replay_seconds?: number;
    read_seconds: number;
    cpu_seconds: number;
    peak_rss_mb: number;
    ok: boolean;
    entries: number;
    error: string | null;
  };
  if (out.replay_seconds === undefined) throw new Error(`Python AutoDev did not run: ${res.stderr}`);
  return {
    ms: out.replay_seconds * 1000,
    readMs: out.read_seconds * 1000,
    cpuMs: out.cpu_seconds * 1000,
    peakMB: out.peak_rss_mb,
    ok: out.ok,
    entries: out.entries,
    error: out.error,
  };
}

/** The fastest of `runs` runs (the least disturbed on a shared machine), and all of them. */
export function best<T extends { ms: number }>(runs: number, f: () => T): { best: T; all: T[] } {
  const all: T[] = [];
  for (let i = 0; i < runs; i++) all.push(f());
  return { best: all.reduce((a, b) => (b.ms < a.ms ? b : a)), all };
}

/** What a generator reports about the data it wrote. */
export interface Made {
  bytes: number;
  entries: number;
  /** Lines damaged on purpose. */
  damaged?: number;
  /** The size of the file the cache checks (set by ensureData). */
  fileBytes?: number;
  /** The generator's recipe the data was made by (set by ensureData). */
  recipe?: string;
}

interface Manifest {
  version: number;
  files: Record<string, Made>;
}

function readManifest(): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(path.join(DATA, "manifest.json"), "utf8")) as Manifest;
    if (m.version === DATA_VERSION) return m;
  } catch {
    /* none yet */
  }
  return { version: DATA_VERSION, files: {} };
}

/**
 * The workspace of a generated ledger, generated once (kept in bench/data/). `recipe` names the
 * generator's version for this data set: change it when the generator changes what it makes, and
 * data made by another recipe is made again (the cache otherwise checks only the file's size).
 */
export function ensureData(
  name: string,
  make: (file: string) => Made,
  fileIn: (dir: string) => string = ledgerOf,
  recipe = "1",
): Made & { dir: string; damaged: number } {
  const dir = path.join(DATA, name);
  const file = fileIn(dir);
  const manifest = readManifest();
  const known = manifest.files[name];
  if (known && (known.recipe ?? "1") === recipe && fs.existsSync(file) && fs.statSync(file).size === known.fileBytes) {
    return { dir, damaged: 0, ...known };
  }
  process.stderr.write(`generating ${name} … `);
  const t = performance.now();
  fs.rmSync(dir, { recursive: true, force: true });
  const made = { ...make(file) };
  made.fileBytes = fs.statSync(file).size;
  made.recipe = recipe;
  process.stderr.write(
    `${(made.bytes / 1e6).toFixed(1)} MB, ${made.entries} entries in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
  );
  manifest.files[name] = made;
  fs.writeFileSync(path.join(DATA, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
  return { dir, damaged: 0, ...made };
}

/** The machine, Node and Python, for the table's header. */
export function machine(): string[] {
  const cpu =
    fs.readFileSync("/proc/cpuinfo", "utf8").match(/^model name\s*:\s*(.*)$/m)?.[1] ?? os.cpus()[0]?.model ?? "unknown";
  let py = "python3 ?";
  try {
    py = execFileSync("python3", ["--version"], { encoding: "utf8" }).trim();
  } catch {
    /* reported as unknown */
  }
  return [
    `nproc ${os.availableParallelism?.() ?? os.cpus().length}, CPU "${cpu}", ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM`,
    `node ${process.version}, ${py}, ${os.type()} ${os.release()}`,
  ];
}

/** A duration for the table. */
export const fmtMs = (ms: number) =>
  !Number.isFinite(ms)
    ? "—"
    : ms >= 10_000
      ? `${(ms / 1000).toFixed(1)} s`
      : ms >= 100
        ? `${ms.toFixed(0)} ms`
        : `${ms.toFixed(1)} ms`;

/** A ratio for the table. */
export const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : "—");
/** A target's verdict. */
export const verdict = (met: boolean) => (met ? "**met**" : "**missed**");
