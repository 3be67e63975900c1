/**
 * Preloaded (`node --require dist/bench/processStats.js …`) into every
 * whole-process measurement of the bench — ours, the floor and the
 * JavaScript references alike — so each reports the same figures the same
 * way: at exit it appends one JSON line to the file named by
 * AUTODEV_BENCH_STATS with the process's CPU time, peak RSS and its own
 * age (`performance.now()`: milliseconds since the process started, Node's
 * bootstrap included).
 */
import * as fs from "node:fs";

const out = process.env.AUTODEV_BENCH_STATS;
if (out) {
  process.once("exit", (code) => {
    const u = process.resourceUsage();
    const line = JSON.stringify({
      code,
      upMs: performance.now(),
      cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
      maxRssMB: u.maxRSS / 1024,
    });
    fs.appendFileSync(out, line + "\n");
  });
}
