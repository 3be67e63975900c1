// `npm run test:one -- FILE… [mocha options]`: builds (bundles and tests, as `npm run pretest`),
// then runs only the named unit test files with mocha (.mocharc.json's options, none of its files).
//
//   npm run test:one -- test/unit/writer/ledgerWriter.test.ts
//   npm run test:one -- test/unit/cli/cli.test.ts test/unit/cli/cliMistakes.test.ts --grep "exit 2"
//   npm run test:one -- ledgerWriter          (a bare name: test/unit/**/<name>.test.ts)
//
// A file may be named by its source (test/unit/x.test.ts) or its compiled form (out/test/unit/x.test.js).
// Set AUTODEV_TEST_ONE_NO_BUILD=1 to skip the build (when `npm run watch` keeps out/ current).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const say = (msg) => console.error(`[test:one] ${msg}`);

/** The test file of a bare NAME: the NAME.test.ts found below test/unit (else test/unit/NAME.test.ts). */
function bareTest(name) {
  const found = readdirSync(join(ROOT, "test/unit"), { recursive: true, encoding: "utf8" })
    .map((f) => f.split("\\").join("/"))
    .find((f) => f === `${name}.test.ts` || f.endsWith(`/${name}.test.ts`));
  return `test/unit/${found ?? `${name}.test.ts`}`;
}

/** The compiled test file for what the user typed, or null when there is none. */
function compiledTest(arg) {
  const bare = /^[\w-]+$/.test(arg) ? bareTest(arg) : arg;
  const rel = relative(ROOT, resolve(bare)).split("\\").join("/");
  const source = rel.startsWith("out/") ? rel.slice(4).replace(/\.js$/, ".ts") : rel;
  if (!/\.test\.ts$/.test(source)) return null;
  return { source, compiled: join("out", source.replace(/\.ts$/, ".js")) };
}

const args = process.argv.slice(2);
const files = [];
const mochaArgs = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg.startsWith("-")) {
    mochaArgs.push(arg);
    // an option's value (`--grep X`): the next word, unless it names a test file
    const next = args[i + 1];
    if (!arg.includes("=") && next !== undefined && !next.startsWith("-") && !/\.test\.[jt]s$/.test(next)) {
      mochaArgs.push(args[++i]);
    }
    continue;
  }
  const test = compiledTest(arg);
  if (!test) {
    say(`${arg} is not a test file (expected test/…/NAME.test.ts)`);
    process.exit(2);
  }
  files.push(test);
}
if (files.length === 0) {
  say("name one or more test files: npm run test:one -- test/unit/NAME.test.ts [mocha options]");
  process.exit(2);
}

if (process.env.AUTODEV_TEST_ONE_NO_BUILD !== "1") {
  const build = spawnSync(process.execPath, [join(ROOT, "esbuild.mjs"), "--tests"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
for (const { source, compiled } of files) {
  if (!existsSync(join(ROOT, compiled))) {
    say(`${source} does not exist (no ${compiled} after the build)`);
    process.exit(2);
  }
}
const mocha = join(ROOT, "node_modules", "mocha", "bin", "mocha.js");
const run = spawnSync(process.execPath, [mocha, ...mochaArgs, ...files.map((f) => f.compiled)], {
  cwd: ROOT,
  stdio: "inherit",
});
process.exit(run.status ?? 1);
