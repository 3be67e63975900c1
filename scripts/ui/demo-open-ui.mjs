// "AutoDev: Open Demo Workspace" as a new user runs it (issue 22 item 14): code-server on an empty
// folder, headless Chromium, the command from the palette; then the window the command opens is
// followed until the AutoDev view shows the demo's rows. Prints where each part of the wait goes
// (the command to the demo's window, that window to its first sidebar, to the AutoDev rows) and
// checks that the window lands on the AutoDev view (not the Explorer) with the demo's run waiting
// on a delegation and its Knowledge. Times are printed, never asserted; quote them as ratios
// measured in one run (farm-bench) on this shared machine.
//
//   node scripts/ui/demo-open-ui.mjs        exit code 0 = all checks pass; test-artifacts/demo-open.png
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../browser.mjs";
import { ROOT, linkedProfile, startServer } from "../vscode-server.mjs";
import { hostLog, runCommand } from "./timeline-ui-helpers.mjs";
import { waitFor } from "./poll.mjs";

const say = (msg) => console.log(`[demo-open] ${msg}`);
const results = [];

function check(name, ok, detail = "") {
  results.push({ name, ok: Boolean(ok) });
  say(`${ok ? "✔" : "✘"} ${name}${detail ? ` — ${detail}` : ""}`);
}

/** The title of the side bar's view container ("EXPLORER", "AUTODEV: …"), "" while there is none. */
async function sidebarTitle(page) {
  const title = page.locator(".part.sidebar .composite.title .title-label").first();
  return (await title.count()) ? ((await title.innerText().catch(() => "")) ?? "").trim() : "";
}

/** The page that shows the demo: the same tab navigated to `?folder=…demo…`, or a tab the command opened. */
async function demoPage(context, timeoutMs) {
  const find = () => context.pages().find((p) => /[?&]folder=[^&]*units-converter-/.test(decodeURIComponent(p.url())));
  return (await waitFor(async () => find() !== undefined, timeoutMs)) ? find() : null;
}

async function main() {
  if (!existsSync(join(ROOT, "dist/extension.js"))) throw new Error("dist/extension.js is missing: npm run build");
  const work = mkdtempSync(join(tmpdir(), "autodev-demo-open-"));
  let server = null;
  let browser = null;
  try {
    const empty = join(work, "empty");
    mkdirSync(empty);
    const { extensionsDir, userDataDir: userData } = linkedProfile(work, { "window.commandCenter": false });
    server = await startServer({ folder: empty, userDataDir: userData, extensionsDir });
    browser = await launchBrowser(join(work, "chromium"), { width: 1280, height: 800 });
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(server.url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.locator(".part.activitybar").waitFor({ timeout: 90_000 });
    const t0 = await runCommand(page, "AutoDev: Open Demo Workspace");
    const demo = await demoPage(browser, 60_000);
    const tWindow = Date.now();
    check("the command opens the demo workspace", demo !== null);
    if (!demo) return 1;
    say(`opened in ${demo === page ? "the same window" : "a new window"}`);
    await demo.locator(".part.activitybar").waitFor({ timeout: 90_000 });
    let first = "";
    await waitFor(async () => (first = await sidebarTitle(demo)) !== "", 60_000);
    const tSidebar = Date.now();
    const waiting = await waitFor(
      async () => /Waiting on reviewer for 1\.3/.test(await demo.locator(".part.sidebar").innerText()),
      60_000,
    );
    const tRows = Date.now();
    const landed = await sidebarTitle(demo);
    say(
      `command → demo window ${tWindow - t0} ms; → first side bar (${first || "none"}) ${tSidebar - t0} ms; → AutoDev rows ${waiting ? `${tRows - t0} ms` : "never"}`,
    );
    const generated = hostLog(userData).find((l) => /demo workspace generated in/.test(l));
    say(`extension host: ${generated?.replace(/ at \/.*?;/, ";") ?? "no generation line in the log"}`);
    check("the demo window lands on the AutoDev view, not the Explorer", /^AUTODEV/i.test(landed), landed);
    check("the AutoDev view shows the run waiting on a delegation (Waiting on reviewer for 1.3)", waiting);
    const sidebarText = () => demo.locator(".part.sidebar").innerText();
    check("the AutoDev view shows Knowledge", /Knowledge/.test(await sidebarText()));
    // agloop's folder is detected and read after AutoDev's, so its wait row may come later
    // (a loaded machine: seconds); wait for it as the AutoDev rows are waited for.
    const approval = await waitFor(async () => /Waiting for your approval/.test(await sidebarText()), 30_000);
    check("agloop waits for the user's approval", approval, approval ? "" : (await sidebarText()).slice(-400));
    mkdirSync(join(ROOT, "test-artifacts"), { recursive: true });
    await demo.screenshot({ path: join(ROOT, "test-artifacts", "demo-open.png") });
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  const failed = results.filter((r) => !r.ok);
  say(`${results.length - failed.length}/${results.length} checks passed`);
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main().catch((err) => {
  say(`FAILED: ${err.stack ?? err.message}`);
  return 1;
});
