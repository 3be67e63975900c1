// Entry point VS Code calls inside the extension host (`extensionTestsPath`): runs every
// out/test/integration/**/*.test.js with mocha and rejects when any test fails.
// Both launchers (code-server + Playwright, and @vscode/test-electron) load this file.
// `*.reload.test.js` files are left out: they check what survives a new window on the same
// workspace state, and reloadIndex.ts runs them after this suite, in a fresh workbench.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";

/** Every `*.test.js` below `dir` (`reload`: only the `*.reload.test.js`, else all others), sorted for a stable order. */
export function testFiles(dir: string, reload = false): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".test.js") && name.endsWith(".reload.test.js") === reload)
    .sort()
    .map((name) => join(dir, name));
}

export function run(): Promise<void> {
  return runFiles(testFiles(__dirname));
}

/** Runs mocha over `files`; rejects when any test fails. */
export function runFiles(files: readonly string[]): Promise<void> {
  const mocha = new Mocha({
    ui: "bdd",
    color: false,
    timeout: 60_000,
    forbidOnly: true,
    // AUTODEV_IT_GREP=<regexp> runs only the matching tests (the launchers pass the variable on).
    grep: process.env.AUTODEV_IT_GREP || undefined,
    // Mocha's spec reporter writes to process.stdout, which nobody sees inside a remote extension
    // host; this reporter prints through console.log, which VS Code forwards to the launcher.
    reporter: ConsoleSpecReporter,
  });
  for (const file of files) mocha.addFile(file);
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => {
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * Prefix for every reporter line. The code-server launcher sets AUTODEV_IT_MARK so it can tell the
 * test output apart from the workbench's own log, which arrives on the same channel.
 */
const MARK = process.env.AUTODEV_IT_MARK ?? "";

/** A spec-like reporter that prints whole lines with console.log (no colours, no cursor tricks). */
class ConsoleSpecReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    const print = (text: string) => {
      for (const line of text.split("\n")) console.log(MARK + line);
    };
    const { EVENT_SUITE_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } =
      Mocha.Runner.constants;
    const failed: Array<{ title: string; err: Error }> = [];
    const pad = (titles: string[]) => "  ".repeat(titles.length);
    const started = Date.now();

    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.title) print(`${pad(suite.titlePath())}${suite.title}`);
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      print(`${pad(test.titlePath())}✔ ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
      print(`${pad(test.titlePath())}- ${test.title}`);
    });
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, err: Error) => {
      failed.push({ title: test.fullTitle(), err });
      print(`${pad(test.titlePath())}✘ ${failed.length}) ${test.title}`);
    });
    runner.once(EVENT_RUN_END, () => {
      const stats = this.stats;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      print(`\n  ${stats.passes} passing (${seconds} s)`);
      if (stats.pending) print(`  ${stats.pending} pending`);
      if (stats.failures) print(`  ${stats.failures} failing`);
      failed.forEach(({ title, err }, i) => {
        print(`\n  ${i + 1}) ${title}:\n     ${err.stack ?? err.message}`);
      });
    });
  }
}
