// `npm run demo`: builds the extension, generates the demo workspace with the project's own core
// (dist/makeDemo.js: phases, tasks in all ten statuses, evidence of every kind, real diffs,
// tournaments; beside .autodev/ the real writers' .agloop/ and engine_state/) in a temporary
// folder, and opens VS Code on it with the extension loaded. Desktop VS Code (`code` on PATH) when
// there is one; otherwise code-server on 127.0.0.1, printing its URL and staying in the foreground
// until Ctrl-C.
//
//   node scripts/demo.mjs [--server] [--port N] [--vsix] [--screenshot FILE]
//     --server          use code-server even when `code` is on PATH
//     --port N          serve on this port (default: AUTODEV_DEMO_PORT or a free one)
//     --vsix            load the packaged dist/autodev-state.vsix (npm run package) instead of this folder
//     --screenshot FILE open the URL in headless Chromium, open the AutoDev view, save a PNG and exit
//     --theme dark|light|hc  the colour theme of the code-server profile (default: VS Code's)
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { launchBrowser } from "./browser.mjs";
import { screenSettled } from "./ui/poll.mjs";
import { QUIET_SETTINGS, ROOT, installExtension, startServer } from "./vscode-server.mjs";

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const say = (msg) => console.log(`[demo] ${msg}`);
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** Runs an npm script in the repository, or exits with its status. */
function npmRun(script) {
  const result = spawnSync("npm", ["run", "--silent", script], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) {
    say(`npm run ${script} failed`);
    process.exit(result.status ?? 1);
  }
}

/** The desktop VS Code launcher on PATH, if any. */
function desktopCode() {
  const found = spawnSync("sh", ["-c", "command -v code"], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Desktop: hand the folder to VS Code with this repository as a development extension. */
function openDesktop(code, folder) {
  say(`opening desktop VS Code (${code}) on ${folder}`);
  const result = spawnSync(code, ["--new-window", `--extensionDevelopmentPath=${ROOT}`, folder], { stdio: "inherit" });
  process.exit(result.status ?? 1);
}

/** A fresh extensions folder holding the extension: a link to this folder, or the installed .vsix. */
async function prepareExtensions(dir, useVsix) {
  mkdirSync(dir, { recursive: true });
  if (useVsix) {
    const vsix = join(ROOT, "dist", `${manifest.name}.vsix`);
    say(`installing ${vsix}`);
    await installExtension(vsix, dir);
  } else {
    // code-server scans the folder and takes `publisher.name-version` folders as installed extensions.
    symlinkSync(ROOT, join(dir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), "dir");
  }
}

/** Opens `url` in headless Chromium, opens the AutoDev view, checks it has rows, saves a PNG. */
async function screenshot(url, file) {
  const profile = mkdtempSync(join(tmpdir(), "autodev-demo-chromium-"));
  const browser = await launchBrowser(profile, { width: 1400, height: 860 });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    const icon = page.locator('.activitybar [aria-label^="AutoDev"]').first();
    await icon.waitFor({ timeout: 90_000 });
    await icon.click();
    const rows = page.locator(".sidebar .monaco-list-row");
    await rows.first().waitFor({ timeout: 60_000 });
    await page.mouse.move(700, 450); // no hover tooltip in the picture
    await screenSettled(page); // icons and late rows
    const texts = await rows.allInnerTexts();
    say(`AutoDev view rows: ${JSON.stringify(texts.map((t) => t.replace(/\s+/g, " ").trim()))}`);
    mkdirSync(dirname(file), { recursive: true });
    await page.screenshot({ path: file });
    say(`screenshot saved: ${file}`);
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function main() {
  const useVsix = flag("--vsix");
  const shot = option("--screenshot");
  npmRun(useVsix ? "package" : "build");

  const work = mkdtempSync(join(tmpdir(), "autodev-demo-"));
  // Whatever ends this process (a failed install, a failed server start, an exception, Ctrl-C during
  // the install) removes the generated workspace, except when desktop VS Code was handed it.
  let keepWork = false;
  process.on("exit", () => {
    if (!keepWork) rmSync(work, { recursive: true, force: true });
  });
  let server = null;
  const interrupted = async () => {
    if (server) await server.stop(); // its own process group: would outlive us otherwise
    process.exit(130);
  };
  process.on("SIGINT", interrupted);
  process.on("SIGTERM", interrupted);
  const folder = join(work, "workspace");
  const made = spawnSync(process.execPath, [join(ROOT, "dist", "makeDemo.js"), folder], { stdio: "inherit" });
  if (made.status !== 0) {
    say("generating the demo workspace failed");
    process.exit(made.status ?? 1);
  }

  const code = flag("--server") || shot ? null : desktopCode();
  if (code) {
    keepWork = true; // the new VS Code window owns it now
    return openDesktop(code, folder);
  }

  await prepareExtensions(join(work, "extensions"), useVsix);
  const theme = { dark: "Default Dark Modern", light: "Default Light Modern", hc: "Default High Contrast" }[
    option("--theme") ?? ""
  ];
  if (theme) {
    mkdirSync(join(work, "user-data", "User"), { recursive: true });
    writeFileSync(
      join(work, "user-data", "User", "settings.json"),
      JSON.stringify({ ...QUIET_SETTINGS, "workbench.colorTheme": theme }, null, 2),
    );
  }
  const portOption = option("--port") ?? process.env.AUTODEV_DEMO_PORT;
  server = await startServer({
    folder,
    port: portOption ? Number(portOption) : undefined,
    userDataDir: join(work, "user-data"),
    extensionsDir: join(work, "extensions"),
  });
  const cleanup = async () => {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  };

  if (shot) {
    try {
      await screenshot(server.url, resolve(shot));
    } finally {
      await cleanup();
    }
    return;
  }

  say(`VS Code (code-server) is serving the demo workspace (generated at ${folder})`);
  say(`open  ${server.url}  and click the AutoDev icon in the activity bar`);
  say("Ctrl-C stops the server and deletes the generated workspace");
  process.off("SIGINT", interrupted);
  process.off("SIGTERM", interrupted);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    say("stopping…");
    await cleanup();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  server.process.on("exit", (status) => {
    if (stopping) return;
    say(`code-server exited (${status})`);
    rmSync(work, { recursive: true, force: true });
    process.exit(1);
  });
}

await main().catch((err) => {
  say(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1); // the exit handler removes the temporary workspace
});
