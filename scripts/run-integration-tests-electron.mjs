// Runs the same integration suite (out/test/integration/index.js) in desktop VS Code through
// @vscode/test-electron. For machines with a desktop VS Code or internet access; CI and the
// closed-network machines use scripts/run-integration-tests.mjs (code-server) instead.
//
//   npm run pretest && node scripts/run-integration-tests-electron.mjs
//
// Same workspace as the code-server launcher (scripts/test-workspace.mjs; AUTODEV_IT_FIXTURES,
// AUTODEV_IT_GREP work the same).
// Env: VSCODE_EXECUTABLE=/path/to/code  use that VS Code instead of downloading one into
//      .vscode-test/; VSCODE_VERSION=1.95.0 pins the downloaded version (default: stable).
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runTests } from "@vscode/test-electron";
import { fixtureFolders, makeTestWorkspace } from "./test-workspace.mjs";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const TESTS_INDEX = join(ROOT, "out", "test", "integration", "index.js");

async function main() {
  if (!existsSync(TESTS_INDEX)) {
    console.error(`${TESTS_INDEX} is missing: build the tests first (npm run pretest)`);
    return 1;
  }
  const work = mkdtempSync(join(tmpdir(), "autodev-it-electron-"));
  const folder = makeTestWorkspace(work, fixtureFolders(ROOT));
  try {
    return await runTests({
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: TESTS_INDEX,
      vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
      version: process.env.VSCODE_VERSION || undefined,
      launchArgs: [
        folder,
        "--disable-extensions",
        "--disable-workspace-trust",
        "--skip-welcome",
        "--skip-release-notes",
        "--user-data-dir",
        join(work, "user-data"),
        "--extensions-dir",
        join(work, "extensions"),
      ],
    });
  } catch (err) {
    console.error(`[integration:electron] failed: ${err instanceof Error ? err.message : err}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = await main();
