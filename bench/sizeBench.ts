/**
 * Targets 2 and the RSS bound of the bench: the lifecycle ledger at 10, 100
 * and 500 MB. The CLI's verify in a fresh process against the floor, and
 * where that process's time goes: Node's own start-up (an empty script), the
 * CLI's start (`--version`: the loader and the CLI bundle from the code
 * cache), the verify itself, and the same verify without the code cache. Then,
 * in child processes of the bench bundle (benchChild.ts): one thread, a
 * warm re-verify, the longest event-loop block, first tree data, an append
 * reflected and (at the largest size) a window reload.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { shapeNamed } from "./ledgerShapes";
import { generateShapeLedger } from "./generate";
import { AutodevRun, ROOT, ensureData, ledgerOf, runAutodev, runChild, runPython } from "./benchRunner";
import { compare, median } from "./process/processRunner";
import { cliVerify, floorOf } from "./shapeBench";

/** The figures of one size. */
export interface SizeResult {
  readonly mb: number;
  readonly bytes: number;
  readonly entries: number;
  /** Whole-process medians: floor, ours, an empty Node, the CLI's start (`--version`), ours without the code cache. */
  readonly floorMs: number;
  readonly oursMs: number;
  readonly emptyMs: number;
  readonly loadMs: number;
  readonly noCacheMs: number;
  readonly ratio: number;
  readonly cpuRatio: number;
  readonly oursRssMB: number;
  /**
   * Ours minus Node's start-up against the floor minus the same (medians): what our CLI adds against
   * the floor's own read and hash. NaN when the floor's own work is under 1 ms (within the noise).
   */
  readonly afterStartRatio: number;
  readonly pythonMs: number;
  readonly autodev: AutodevRun | null;
  /** In-process (bench child) figures. */
  readonly oneThreadMs: number;
  readonly warmMs: number;
  readonly blockMs: number;
  readonly tailMs: number;
  readonly appendMs: { status: number; snapshot: number };
  readonly reopen: { ms: number; readMB: number; appendedMB: number; rssMB: number } | null;
}

/** Measures the lifecycle ledger at about `mb` MB. */
export async function measureSize(
  mb: number,
  runs: number,
  pySrc: string | null,
  reopen: boolean,
): Promise<SizeResult> {
  const d = ensureData(`shape-lifecycle-${mb}mb`, (f) => generateShapeLedger(f, shapeNamed("lifecycle"), mb * 1e6));
  const file = ledgerOf(d.dir);
  const empty = { argv: ["node", "-e", ""] };
  const load = { argv: ["node", path.join(ROOT, "dist", "cli.js"), "--version"] };
  const noCache = cliVerify(d.dir, { AUTODEV_STATE_COMPILE_CACHE: "0" });
  const c = compare([floorOf(file), cliVerify(d.dir), empty, load, noCache], runs);
  // Medians first, then the difference: a run-by-run ratio of differences explodes (or goes
  // negative) whenever one empty start-up happens to be slower than the floor's whole run.
  const floorWork = c.ms[0] - c.ms[2];
  const afterStart = floorWork >= 1 ? (c.ms[1] - c.ms[2]) / floorWork : Number.NaN;
  const py = runPython(file);
  const autodev = pySrc && mb <= 100 ? runAutodev(pySrc, d.dir) : null;
  const oneThread = { ...process.env, AUTODEV_VERIFY_THREADS: "1" };
  const single = Array.from({ length: Math.min(runs, 3) }, () => runChild("verify", d.dir, oneThread));
  const def = Array.from({ length: Math.min(runs, 3) }, () => runChild("verify", d.dir));
  const tail = Array.from({ length: Math.min(runs, 3) }, () => runChild("tail", d.dir).ms);
  const app = runChild("append", d.dir);
  let reopenRes: SizeResult["reopen"] = null;
  if (reopen) {
    const setup = runChild("reopenSetup", d.dir);
    try {
      const re = runChild("reopen", String(setup.scratch));
      if (re.mode !== "resumed" || !re.ok) throw new Error(`reopen did not resume: ${JSON.stringify(re)}`);
      reopenRes = {
        ms: re.ms,
        readMB: Number(re.bytesRead) / 1e6,
        appendedMB: Number(setup.appended) / 1e6,
        rssMB: re.maxRssMB,
      };
    } finally {
      fs.rmSync(String(setup.scratch), { recursive: true, force: true });
    }
  }
  return {
    mb,
    bytes: d.bytes,
    entries: d.entries,
    floorMs: c.ms[0],
    oursMs: c.ms[1],
    emptyMs: c.ms[2],
    loadMs: c.ms[3] - c.ms[2],
    noCacheMs: c.ms[4],
    ratio: c.ratioToFirst[1],
    cpuRatio: c.cpuRatioToFirst[1],
    oursRssMB: Math.max(c.maxRssMB[1], ...def.map((x) => x.maxRssMB)),
    afterStartRatio: afterStart,
    pythonMs: py.ms,
    autodev,
    oneThreadMs: median(single.map((x) => x.ms)),
    warmMs: median(def.map((x) => Number(x.warmMs))),
    blockMs: Math.max(...def.map((x) => x.maxBlockMs ?? 0)),
    tailMs: median(tail),
    appendMs: { status: Number(app.smallMs), snapshot: Number(app.snapMs) },
    reopen: reopenRes,
  };
}
