// Round trips and ledger opens per append of an AutoDev ledger, and how long after AutoDev's
// suspension the editor knows whom the run waits on (test/helpers/waitLatency.ts), on the editor's path (the real
// adapters over fake vscode, the worker's dispatcher in-thread, Python AutoDev's writer):
// test/helpers/appendCounts.ts. Counts, not times, so one run says it.
//   node bench/appendCounts.mjs [--appends N] [--waits N] [--baseline DIR]
// DIR: another checkout built with `npm run build -- --tests` (its out/), counted in the same run.
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const appends = Number(opt("--appends", "4"));
const waitRuns = Number(opt("--waits", "5"));
const here = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const roots = [["this checkout", here]];
if (opt("--baseline", null)) roots.push(["baseline", path.resolve(opt("--baseline"))]);

for (const [name, root] of roots) {
  const require = createRequire(path.join(root, "out", "x.js"));
  require(path.join(root, "out/test/unit/helpers/fakeVscode.js"));
  const { countAppends } = require(path.join(root, "out/test/helpers/appendCounts.js"));
  const counts = await countAppends(appends, 1500);
  const mean = (f) => (counts.reduce((a, c) => a + f(c), 0) / counts.length).toFixed(1);
  console.log(
    `${name} (${root}): round trips per append ${mean((c) => c.roundTrips)}, ledger opens per append ${mean((c) => c.ledgerOpens)}`,
  );
  for (const c of counts) {
    console.log(`  ${c.roundTrips} round trips, ${c.ledgerOpens} ledger opens: ${JSON.stringify(c.requests)}`);
  }
  const waits = await require(path.join(root, "out/test/helpers/waitLatency.js")).waitLatencies(waitRuns);
  const sorted = [...waits].sort((a, b) => a - b);
  console.log(
    `  AutoDev's last write (inline-state.json) → the editor waits on the reviewer: p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms (${waits.map((w) => w.toFixed(0)).join(", ")})`,
  );
}
process.exit(0);
