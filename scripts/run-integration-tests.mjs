// Runs the integration suite (out/test/integration/index.js) inside a real VS Code: code-server
// (VS Code 1.139) on loopback, its workbench opened by headless Chromium through Playwright with
// the smoke-test driver's payload (extensionDevelopmentPath + extensionTestsPath). The page
// reports the log and the exit code through window.codeAutomationLog / codeAutomationExit.
//
//   node scripts/run-integration-tests.mjs        (npm run test:integration; `npm test` builds first)
//
// Env: AUTODEV_IT_TIMEOUT_MS (default 1200000), AUTODEV_IT_VERBOSE=1 (all workbench log lines),
//      AUTODEV_IT_GREP=<regexp> (only the matching tests; read by test/integration/index.ts),
//      AUTODEV_IT_FIXTURES (comma-separated folders of test/fixtures/, default
//      "python-small,python-unicode,agloop-clean,agloop-broken,python-full/workspace"), CHROMIUM (default /usr/bin/chromium).
//
// The tests get fresh temporary copies of the fixtures (so they may write): one folder opens as
// itself, several as a multi-root workspace in that order (python-small first: the tests'
// workspaceFolders[0]).
//
// Two windows: when the suite (index.js) passes, the workbench is opened again on the same
// workspace, user data and browser profile — a new window on the same workspace state — and
// reloadIndex.js runs the *.reload.test.js files (what must survive it: reviewed marks).
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertChromium, launchBrowser } from "./browser.mjs";
import { fixtureFolders, makeTestWorkspace } from "./test-workspace.mjs";
import { ROOT, startServer } from "./vscode-server.mjs";

const TIMEOUT_MS = Number(process.env.AUTODEV_IT_TIMEOUT_MS ?? 1_200_000);
const VERBOSE = process.env.AUTODEV_IT_VERBOSE === "1";
const FIXTURES = fixtureFolders(ROOT);
const TESTS_INDEX = join(ROOT, "out", "test", "integration", "index.js");
const RELOAD_INDEX = join(ROOT, "out", "test", "integration", "reloadIndex.js");
const ARTIFACTS = join(ROOT, "test-artifacts");
const say = (msg) => console.log(`[integration] ${msg}`);

/** Fails early, with the fix, when a prerequisite is missing. */
async function preflight() {
  if (!existsSync(TESTS_INDEX)) {
    throw new Error(`${TESTS_INDEX} is missing: build the tests first (\`npm run pretest\`, which \`npm test\` runs)`);
  }
  if (!existsSync(join(ROOT, "dist", "extension.js"))) {
    throw new Error("dist/extension.js is missing: run `npm run build` (or `npm test`)");
  }
  await assertChromium();
}

/** The workbench URL whose payload makes VS Code load the extension and run the tests. */
export function workbenchUrl(port, target, extensionPath, testsPath) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ["extensionDevelopmentPath", remote(extensionPath)],
    ["extensionTestsPath", remote(testsPath)],
    ["skipWelcome", "true"],
  ];
  const kind = target.endsWith(".code-workspace") ? "workspace" : "folder";
  return `http://127.0.0.1:${port}/?${kind}=${encodeURIComponent(target)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Formats one codeAutomationLog call: VS Code passes a level and the log line (or its parts). */
function formatLog(type, args) {
  const parts = Array.isArray(args) ? args : [args];
  const text = parts.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ");
  return { type: String(type), text };
}

/** Prefix test/integration/index.ts puts on its reporter lines when AUTODEV_IT_MARK is set. */
const MARK = "[autodev-it] ";

/** Workbench errors that are expected on a closed network and say nothing about the tests. */
const NOISE = /open-vsx\.org|authentication provider 'github'|api\.github\.com|ENOTFOUND|marketplace/i;

async function main() {
  await preflight();
  const started = Date.now();
  const work = mkdtempSync(join(tmpdir(), "autodev-it-"));
  const transcript = [];
  let server;
  let browser;
  let timer;
  let exitCode; // set by the try block or its catch
  let finish = null;
  let interrupted = false;
  // The server runs in its own process group: on Ctrl-C or a CI kill, stop it through `finally`.
  const onSignal = (signal) => {
    interrupted = true;
    finish?.({ code: 130, why: `interrupted (${signal})` });
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    const folder = makeTestWorkspace(work, FIXTURES);
    server = await startServer({
      folder,
      userDataDir: join(work, "user-data"),
      extensionsDir: join(work, "extensions"),
      env: { AUTODEV_IT_MARK: MARK },
    });
    say(`code-server ready at ${server.url} (${Math.round((Date.now() - started) / 1000)} s)`);
    if (interrupted) throw new Error("interrupted");

    browser = await launchBrowser(join(work, "chromium-profile"));
    const page = browser.pages()[0] ?? (await browser.newPage());

    let finished = new Promise((r) => (finish = r));
    if (interrupted) throw new Error("interrupted");
    await page.exposeFunction("codeAutomationExit", (code) => finish({ code: Number(code) }));
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      const { type: level, text } = formatLog(type, args);
      transcript.push(`[${level}] ${text}`);
      if (VERBOSE) console.log(`[${level}] ${text}`);
      else if (text.startsWith(MARK)) console.log(text.slice(MARK.length));
    });
    page.on("pageerror", (err) => transcript.push(`[pageerror] ${err.message}`));
    page.on("crash", () => finish({ code: 1, why: "the workbench page crashed" }));
    browser.on("close", () => finish({ code: 1, why: "the browser closed" }));
    timer = setTimeout(
      () => finish({ code: 1, why: `timed out after ${TIMEOUT_MS / 1000} s without an exit code from VS Code` }),
      TIMEOUT_MS,
    );

    const url = workbenchUrl(server.port, folder, ROOT, TESTS_INDEX);
    say(`opening the workbench on ${folder}`);
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });

    let outcome = await finished;
    if (outcome.code === 0 && existsSync(RELOAD_INDEX) && !interrupted) {
      // A new window on the same workspace state: the first one flushed its storage when it exited.
      finished = new Promise((r) => (finish = r));
      say("opening the workbench again (a new window on the same workspace state)");
      await page.goto(workbenchUrl(server.port, folder, ROOT, RELOAD_INDEX), {
        waitUntil: "domcontentloaded",
        timeout: 60_000,
      });
      outcome = await finished;
    }
    exitCode = outcome.code;
    if (outcome.why) say(`FAILED: ${outcome.why}`);
    if (exitCode !== 0) {
      printErrors(transcript);
      await saveArtifacts(page, transcript, server).catch((err) => say(`could not save artifacts: ${err.message}`));
    }
  } catch (err) {
    say(`FAILED: ${err.message}`);
    exitCode = 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    clearTimeout(timer);
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  say(`${exitCode === 0 ? "PASSED" : `FAILED (exit code ${exitCode})`} in ${seconds} s`);
  return exitCode;
}

/** After a failure: the workbench's own error lines (an activation error, a test-runner crash). */
function printErrors(transcript) {
  const errors = transcript.filter((line) => line.startsWith("[error]") && !NOISE.test(line));
  if (!errors.length) return;
  say("workbench errors:");
  for (const line of errors.slice(-20)) console.log(`  ${line}`);
}

/** After a failure: a screenshot, the workbench log and the server log under test-artifacts/. */
async function saveArtifacts(page, transcript, server) {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(join(ARTIFACTS, "integration-workbench.log"), transcript.join("\n") + "\n");
  writeFileSync(join(ARTIFACTS, "integration-server.log"), server.output());
  await page.screenshot({ path: join(ARTIFACTS, "integration-failure.png"), timeout: 10_000 });
  say(`saved the screenshot and logs under ${ARTIFACTS}`);
}

process.exitCode = await main();
