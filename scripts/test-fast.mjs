// `npm run test:fast`: the unit suite without the cases tagged `@slow`, in parallel (one mocha
// worker process per core, at least two), after `npm run pretest` has built out/. At the end it
// names the untagged tests that took longest, so the loop stays fast as tests are added. It only
// reports: no test fails for its duration (speed is the benchmarks' business, not an assertion).
//
//   npm run test:fast                 the loop you run while you work
//   AUTODEV_FAST_JOBS=1 npm run test:fast   one process, in file order (to chase an ordering bug)
import { readFileSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Mocha from "mocha";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** A test longer than this is named in the report. */
const REPORT_ABOVE_MS = 2000;

/** Every compiled unit test file, in a stable order. */
function unitTestFiles() {
  const dir = join(ROOT, "out/test/unit");
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.js"))
    .sort()
    .map((f) => join(dir, f));
}

const jobs = Number(process.env.AUTODEV_FAST_JOBS) || Math.max(2, availableParallelism());
/** .mocharc.json's options, named as Mocha's constructor names them (`forbid-only` → `forbidOnly`). */
const options = Object.fromEntries(
  Object.entries(JSON.parse(readFileSync(join(ROOT, ".mocharc.json"), "utf8"))).map(([k, v]) => [
    k.replace(/-(\w)/g, (_, c) => c.toUpperCase()),
    v,
  ]),
);
const mocha = new Mocha({ ...options, grep: "@slow", invert: true, parallel: jobs > 1, jobs });
for (const file of unitTestFiles()) mocha.addFile(file);

const durations = [];
const started = Date.now();
const record = (test) => durations.push({ title: test.fullTitle(), ms: test.duration ?? 0 });
const runner = mocha.run((failures) => {
  const wall = ((Date.now() - started) / 1000).toFixed(1);
  const inTests = (durations.reduce((sum, d) => sum + d.ms, 0) / 1000).toFixed(1);
  console.log(`\n  test:fast: ${durations.length} tests, ${inTests} s in tests, ${wall} s wall, ${jobs} jobs`);
  const long = durations.filter((d) => d.ms > REPORT_ABOVE_MS).sort((a, b) => b.ms - a.ms);
  if (long.length > 0) {
    console.log(`  not tagged @slow but over ${REPORT_ABOVE_MS / 1000} s here (tag a soak or corpus test @slow):`);
    for (const d of long.slice(0, 10)) console.log(`    ${(d.ms / 1000).toFixed(1)} s  ${d.title}`);
  }
  process.exitCode = failures > 0 ? 1 : 0;
});
runner.on(Mocha.Runner.constants.EVENT_TEST_PASS, record);
runner.on(Mocha.Runner.constants.EVENT_TEST_FAIL, record);
