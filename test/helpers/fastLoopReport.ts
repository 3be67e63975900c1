/**
 * Loaded by `npm run test:fast` (mocha --require): after the run, names the tests that took longest
 * although they are not tagged `@slow`, so the fast loop stays fast as tests are added. It only
 * reports (no test fails for its duration: speed is the benchmarks' business, not an assertion).
 */

/** A test longer than this is named in the report. */
const REPORT_ABOVE_MS = 2000;

const durations: Array<{ title: string; ms: number }> = [];

/** Mocha's root hooks: record each test's duration, print the longest at the end. */
export const mochaHooks = {
  afterEach(this: Mocha.Context): void {
    const test = this.currentTest;
    if (test?.duration !== undefined) durations.push({ title: test.fullTitle(), ms: test.duration });
  },
  afterAll(): void {
    const long = durations.filter((d) => d.ms > REPORT_ABOVE_MS).sort((a, b) => b.ms - a.ms);
    const total = durations.reduce((sum, d) => sum + d.ms, 0);
    console.log(`\n  test:fast: ${durations.length} tests, ${(total / 1000).toFixed(1)} s in tests`);
    if (long.length === 0) return;
    console.log(`  not tagged @slow but over ${REPORT_ABOVE_MS / 1000} s here (tag a soak or corpus test @slow):`);
    for (const d of long.slice(0, 10)) console.log(`    ${(d.ms / 1000).toFixed(1)} s  ${d.title}`);
  },
};
