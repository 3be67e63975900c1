// The soak bench (test/helpers/soak.ts): Python AutoDev's PlanManager writing in bursts for
// --minutes M (default 30) with the editor's path open; prints RSS over time, write → shown
// latency early and late, and the final state against `verify`. Needs AUTODEV_PY_SRC (AutoDev's
// src) and AUTODEV_PYTHON; run after `npm run build -- --tests`.
//   node bench/soak.mjs [--minutes M] [--sample S]
import { createRequire } from "node:module";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(path.join(root, "out", "x.js"));
require(path.join(root, "out/test/unit/helpers/fakeVscode.js"));
const { soak } = require(path.join(root, "out/test/helpers/soak.js"));
const minutes = Number(opt("--minutes", "30"));
const r = await soak(minutes * 60, Number(opt("--sample", "30")));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(0) : "-";
};
console.log(`soak: ${minutes} min, ${r.writes} writes by AutoDev's PlanManager`);
console.log("RSS (host and worker, one process) over time: t s, RSS MB, entries shown");
for (const [t, mb, n] of r.rss) {
  console.log(`  ${t.toFixed(0).padStart(5)}  ${mb.toFixed(1).padStart(7)}  ${n}`);
}
const warm = r.rss.find(([t]) => t >= 60) ?? r.rss[0];
const last = r.rss[r.rss.length - 1];
console.log(`growth after warm-up (t=${warm[0].toFixed(0)} s → end): ${(last[1] - warm[1]).toFixed(1)} MB`);
console.log(`write → shown, first minute: p50 ${pct(r.early, 50)} / p95 ${pct(r.early, 95)} ms (${r.early.length})`);
console.log(`write → shown, last minute:  p50 ${pct(r.late, 50)} / p95 ${pct(r.late, 95)} ms (${r.late.length})`);
console.log(`final: shown ${JSON.stringify(r.shown)}; verify ${JSON.stringify(r.verify)}`);
process.exit(0);
