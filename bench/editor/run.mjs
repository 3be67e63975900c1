// The editor bench's launcher: code-server (scripts/vscode-server.mjs) on a prepared multi-root
// workspace, its workbench opened by headless Chromium with the smoke-test driver's payload, whose
// extensionTestsPath is dist/bench/editor/editorHost.js (the measurement, not a test suite). The
// same pattern as scripts/run-integration-tests.mjs; not part of `npm test`.
//
//   node bench/editor/run.mjs WORKSPACE.code-workspace RESULT.json   (bench/run.ts prepares both)
//
// Env passed to the extension host: AUTODEV_EDITOR_APPENDS (default 20), AUTODEV_PYTHON,
// AUTODEV_PY_SRC (Python AutoDev's own writer for the appends). AUTODEV_EDITOR_TIMEOUT_MS (default 900000).
// AUTODEV_EDITOR_USER_DATA: a user-data folder kept across runs (a user's restarts: the extension's
// global storage, with its compile cache, survives), else a fresh one per run.
// AUTODEV_EDITOR_EXTENSION: the extension folder to load (another checkout's, for an A/B), else this one.
// AUTODEV_EDITOR_HOST: what runs in the extension host, a bundle of dist/bench/editor/ (default
// editorHost.js; bench/editor/soak.mjs runs soakHost.js).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../../scripts/browser.mjs";
import { ROOT, startServer } from "../../scripts/vscode-server.mjs";

const [workspace, resultFile] = process.argv.slice(2);
const TIMEOUT_MS = Number(process.env.AUTODEV_EDITOR_TIMEOUT_MS ?? 900_000);
const HOST = join(ROOT, "dist", "bench", "editor", process.env.AUTODEV_EDITOR_HOST || "editorHost.js");
const say = (msg) => process.stderr.write(`[editor-bench] ${msg}\n`);

/** The workbench URL whose payload loads this extension and runs `testsPath` in its host. */
function workbenchUrl(port, target, extensionPath, testsPath) {
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ["extensionDevelopmentPath", remote(extensionPath)],
    ["extensionTestsPath", remote(testsPath)],
    ["skipWelcome", "true"],
  ];
  return `http://127.0.0.1:${port}/?workspace=${encodeURIComponent(target)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "autodev-editor-bench-"));
  let server;
  let browser;
  let timer;
  try {
    server = await startServer({
      folder: workspace,
      userDataDir: process.env.AUTODEV_EDITOR_USER_DATA || join(work, "user-data"),
      extensionsDir: join(work, "extensions"),
      env: { AUTODEV_EDITOR_BENCH_OUT: resultFile },
    });
    browser = await launchBrowser(join(work, "chromium-profile"));
    const page = browser.pages()[0] ?? (await browser.newPage());
    const log = [];
    const finished = new Promise((resolve) => {
      void page.exposeFunction("codeAutomationExit", (code) => resolve({ code: Number(code) }));
      timer = setTimeout(() => resolve({ code: 1, why: `timed out after ${TIMEOUT_MS / 1000} s` }), TIMEOUT_MS);
    });
    await page.exposeFunction("codeAutomationLog", (type, args) => {
      log.push(
        `[${type}] ${(Array.isArray(args) ? args : [args]).map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ")}`,
      );
    });
    await page.goto(workbenchUrl(server.port, workspace, process.env.AUTODEV_EDITOR_EXTENSION || ROOT, HOST), {
      waitUntil: "domcontentloaded",
      timeout: 60_000,
    });
    const outcome = await finished;
    if (outcome.code !== 0) {
      say(`FAILED (${outcome.why ?? `exit code ${outcome.code}`}); last workbench lines:`);
      for (const line of log.filter((l) => l.startsWith("[error]")).slice(-15)) process.stderr.write(`  ${line}\n`);
    }
    return outcome.code;
  } finally {
    clearTimeout(timer);
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
