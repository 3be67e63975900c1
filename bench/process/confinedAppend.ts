/**
 * What the confined ledger append costs against the append by path it
 * replaced (issue 21: `.autodev/` opened once and checked, every file reached
 * through its descriptor, the copy's source checked to be the file read).
 * Both sides read the last entry, build the next one and replace the ledger by
 * copy + append + rename; the lock is left out (the same on both sides).
 * Rounds alternate old and new on the same ledger, so the machine's noise
 * falls on both; the ratio is the median of the rounds' ratios.
 *
 * usage: node dist/bench/confinedAppend.js [LEDGER_KIB=64] [APPENDS_PER_ROUND=100] [ROUNDS=7]
 *        node dist/bench/confinedAppend.js old|new [LEDGER_KIB] [APPENDS]   one side only, for
 *        farm-bench --vs (whole processes, paired runs)
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { atomicAppendCopy } from "../../src/core/fs/atomicFile";
import { appendEntry, buildEntry, readLastEntryHead } from "../../src/core/sources/autodev/ledger/ledgerWriter";
import { autodevRoot, ledgerPath } from "../../src/core/sources/autodev/autodevPaths";
import type { PyObject } from "../../src/core/pyjson/pyValue";

/** The append before issue 21's write confinement: by path, no checks of the folder. */
async function appendByPath(cwd: string, payload: PyObject): Promise<void> {
  await fs.promises.mkdir(autodevRoot(cwd), { recursive: true });
  const head = await readLastEntryHead(cwd);
  const { line } = buildEntry(head, "impl_tournament_complete", payload, "bench");
  await atomicAppendCopy(ledgerPath(cwd), head.missingFinalNewline ? "\n" + line : line, ".ledger.");
}

/** The confined append (ledgerWriter.appendEntry, opening `.autodev/` itself as a one-off append does). */
async function appendConfined(cwd: string, payload: PyObject): Promise<void> {
  await appendEntry(cwd, "impl_tournament_complete", payload, "bench");
}

/** CPU and wall milliseconds of `n` appends with `append`. */
async function timeAppends(
  cwd: string,
  n: number,
  append: (cwd: string, p: PyObject) => Promise<void>,
): Promise<{ cpu: number; wall: number }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await append(cwd, new Map([["i", i]]));
  const c = process.cpuUsage(cpu0);
  return { cpu: (c.user + c.system) / 1000, wall: performance.now() - t0 };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const side = process.argv[2] === "old" || process.argv[2] === "new" ? process.argv[2] : null;
  const [kib = 64, perRound = 100, rounds = 7] = process.argv.slice(side ? 3 : 2).map(Number);
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "confined-append-"));
  try {
    fs.mkdirSync(autodevRoot(cwd));
    await appendConfined(cwd, new Map([["pad", "x".repeat(kib * 1024)]])); // one big first entry: the ledger's size
    if (side !== null) {
      await timeAppends(cwd, perRound, side === "old" ? appendByPath : appendConfined);
      return;
    }
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let r = 0; r < rounds + 1; r++) {
      const first = r % 2 === 0;
      const a = await timeAppends(cwd, perRound, first ? appendByPath : appendConfined);
      const b = await timeAppends(cwd, perRound, first ? appendConfined : appendByPath);
      const [old, confined] = first ? [a, b] : [b, a];
      if (r === 0) continue; // warm-up
      cpu.push(confined.cpu / old.cpu);
      wall.push(confined.wall / old.wall);
    }
    const size = fs.statSync(ledgerPath(cwd)).size;
    console.log(
      JSON.stringify({
        ledgerBytes: size,
        appendsPerRound: perRound,
        rounds,
        cpuRatioConfinedToByPath: Number(median(cpu).toFixed(3)),
        wallRatioConfinedToByPath: Number(median(wall).toFixed(3)),
      }),
    );
  } finally {
    fs.rmSync(cwd, { recursive: true, force: true });
  }
}

void main();
