/**
 * Target 1 of the bench: every ledger shape (ledgerShapes.ts) verified by
 * the CLI in a fresh process with its default settings
 * (`autodev-state verify DIR --json`), against the floor (read + sha256 per
 * line, bench/process/floor.ts) run interleaved with it, the Python stdlib
 * reference and — when its source is given — Python AutoDev's own
 * `read_entries` / `replay_ledger`.
 */
import * as path from "node:path";
import { LedgerShape } from "./ledgerShapes";
import { generateShapeLedger } from "./generate";
import { AutodevRun, ROOT, ensureData, ledgerOf, runAutodev, runPython } from "./benchRunner";
import { Cmd, compare, median } from "./process/processRunner";

/** The measured figures of one shape. */
export interface ShapeResult {
  readonly shape: LedgerShape;
  readonly mb: number;
  readonly bytes: number;
  readonly entries: number;
  readonly damaged: number;
  /** Medians of the whole-process runs: ours, the floor. */
  readonly oursMs: number;
  readonly floorMs: number;
  readonly oursCpuMs: number;
  readonly floorCpuMs: number;
  /** Medians of the run-by-run ratios ours / floor. */
  readonly ratio: number;
  readonly cpuRatio: number;
  readonly oursRssMB: number;
  /** Python stdlib reference (its own timing, interpreter start-up excluded). */
  readonly pythonMs: number;
  /** Python AutoDev (null when not run). */
  readonly autodev: AutodevRun | null;
  /** What verify said. */
  readonly ok: boolean;
  readonly findings: number;
  readonly warnings: number;
}

/** The CLI verify of a workspace folder, as a user runs it. */
export const cliVerify = (dir: string, env?: NodeJS.ProcessEnv): Cmd => ({
  argv: ["node", path.join(ROOT, "dist", "cli.js"), "verify", dir, "--json"],
  env,
  okCodes: [0, 1],
});

/** The floor on a file. */
export const floorOf = (file: string): Cmd => ({ argv: ["node", path.join(ROOT, "dist", "bench", "floor.js"), file] });

/** Generates (once) and measures one shape at about `mb` MB. */
export function measureShape(
  shape: LedgerShape,
  mb: number,
  runs: number,
  pythonRuns: number,
  autodevSrc: string | null,
): ShapeResult {
  const d = ensureData(`shape-${shape.name}-${mb}mb`, (f) => generateShapeLedger(f, shape, mb * 1e6));
  const file = ledgerOf(d.dir);
  const c = compare([floorOf(file), cliVerify(d.dir)], runs);
  const out = JSON.parse(c.runs[1][0].stdout) as {
    ok: boolean;
    entries: number;
    errors: unknown[];
    warnings: { kind: string }[];
  };
  const py = Array.from({ length: pythonRuns }, () => runPython(file));
  if (py[0].entries !== out.entries) {
    throw new Error(`${shape.name}: verify read ${out.entries} entries, the Python reference ${py[0].entries}`);
  }
  if (out.ok !== (d.damaged === 0)) {
    throw new Error(`${shape.name}: verify said ok=${out.ok} with ${d.damaged} damaged`);
  }
  const autodev = autodevSrc ? runAutodev(autodevSrc, d.dir) : null;
  return {
    shape,
    mb,
    bytes: d.bytes,
    entries: out.entries,
    damaged: d.damaged,
    oursMs: c.ms[1],
    floorMs: c.ms[0],
    oursCpuMs: c.cpuMs[1],
    floorCpuMs: c.cpuMs[0],
    ratio: c.ratioToFirst[1],
    cpuRatio: c.cpuRatioToFirst[1],
    oursRssMB: c.maxRssMB[1],
    pythonMs: median(py.map((x) => x.ms)),
    autodev,
    ok: out.ok,
    findings: out.errors.length,
    warnings: out.warnings.filter((w) => w.kind === "fsm_violation").length,
  };
}
