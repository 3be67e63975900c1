// The plan graph in a real VS Code (code-server + headless Chromium): the demo workspace
// (AutoDev, agloop and engine_state side by side), "AutoDev: Show Plan Graph" from the palette,
// in the light, dark and high-contrast themes. Checks: the page draws a card per task and a path
// per dependency; every card has a screen-reader label; the keyboard moves along dependencies;
// a click reveals the task in the Plan tree; the agloop tab draws its graph; the CSP is intact.
// Pictures go to test-artifacts/graph-{light,dark,hc}.png (and, with --readme, to
// media/screenshots/graph-{light,dark,hc}.png).
//
//   npm run build && node scripts/graph-screenshots.mjs [--readme]
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "./browser.mjs";
import { QUIET_SETTINGS, ROOT, startServer } from "./vscode-server.mjs";
import { runCommand, setTheme, waitFor } from "./timeline-ui-helpers.mjs";

const ARTIFACTS = join(ROOT, "test-artifacts");
const SCREENSHOTS = join(ROOT, "media", "screenshots");
const say = (msg) => console.log(`[graph-shots] ${msg}`);
const results = [];

function check(name, ok, detail = "") {
  results.push({ name, ok: Boolean(ok) });
  say(`${ok ? "✔" : "✘"} ${name}${detail ? ` — ${detail}` : ""}`);
}

async function graphFrame(page, timeoutMs = 60_000) {
  let found = null;
  await waitFor(async () => {
    for (const f of page.frames()) {
      if (await f.$("#graph-root .graph-node").catch(() => null)) {
        found = f;
        return true;
      }
    }
    return false;
  }, timeoutMs);
  if (!found) throw new Error("the graph webview did not draw any task");
  return found;
}

async function main() {
  for (const f of ["dist/extension.js", "dist/makeDemo.js", "dist/graphWorker.js", "dist/webview/graph.js"]) {
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run npm run build first`);
  }
  const readme = process.argv.includes("--readme");
  mkdirSync(ARTIFACTS, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), "autodev-graph-shots-"));
  let server = null;
  let browser = null;
  const dialogs = [];
  try {
    const folder = join(work, "workspace");
    const made = spawnSync(process.execPath, [join(ROOT, "dist", "makeDemo.js"), folder], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`demo workspace: ${made.stderr}`);
    if (process.env.AUTODEV_GRAPH_AGLOOP_BROKEN) {
      rmSync(join(folder, ".agloop"), { recursive: true, force: true });
      cpSync(join(ROOT, "test/fixtures/agloop-broken/.agloop"), join(folder, ".agloop"), { recursive: true });
    }
    const extensions = join(work, "extensions");
    mkdirSync(extensions, { recursive: true });
    symlinkSync(ROOT, join(extensions, "autodev-state.autodev-state-0.1.0"), "dir");
    const userData = join(work, "user-data");
    mkdirSync(join(userData, "User"), { recursive: true });
    writeFileSync(
      join(userData, "User", "settings.json"),
      JSON.stringify({
        ...QUIET_SETTINGS,
        "workbench.colorTheme": "Default Light Modern",
        "window.commandCenter": false,
      }),
    );
    server = await startServer({ folder, userDataDir: userData, extensionsDir: extensions });
    browser = await launchBrowser(join(work, "chromium"), { width: 1400, height: 860 });
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(server.url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    const icon = page.locator('.activitybar [aria-label^="AutoDev"]').first();
    await icon.waitFor({ timeout: 90_000 });
    await icon.click();
    await waitFor(async () => (await page.locator('.sidebar .monaco-list-row[aria-level="2"]').count()) >= 3, 60_000);
    const t0 = Date.now();
    await runCommand(page, "AutoDev: Show Plan Graph");
    const frame = await graphFrame(page);
    say(`graph drawn ${Date.now() - t0} ms after the command`);
    const facts = await frame.evaluate(() => ({
      cards: document.querySelectorAll(".graph-node").length,
      paths: document.querySelectorAll(".graph-edge").length,
      labelled: [...document.querySelectorAll(".graph-node")].every((n) =>
        /^Task /.test(n.getAttribute("aria-label") ?? ""),
      ),
      tabs: [...document.querySelectorAll(".graph-tab")].map((t) => t.textContent),
      summary: document.querySelector(".graph-summary")?.textContent ?? "",
      csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "",
    }));
    check(
      "a card per task and a path per dependency",
      facts.cards >= 8 && facts.paths >= 5,
      `${facts.cards} cards, ${facts.paths} paths`,
    );
    check("every card has a screen-reader label", facts.labelled);
    check(
      "AutoDev and agloop tabs",
      facts.tabs.some((t) => t.startsWith("AutoDev")) && facts.tabs.some((t) => t.startsWith("agloop")),
      facts.tabs.join(", "),
    );
    check("the summary names the critical path", /critical path/.test(facts.summary), facts.summary);
    check(
      "CSP: default-src 'none', script by nonce",
      /default-src 'none'/.test(facts.csp) && /script-src 'nonce-/.test(facts.csp),
    );
    const first = frame.locator(".graph-node").first();
    await first.focus();
    const before = await frame.evaluate(() => document.activeElement?.getAttribute("data-id"));
    await page.keyboard.press("ArrowRight");
    const after = await frame.evaluate(() => document.activeElement?.getAttribute("data-id"));
    check("ArrowRight moves to a dependant", before && after && before !== after, `${before} → ${after}`);
    const target = frame.locator('.graph-node[data-id="2.1"]');
    if ((await target.count()) > 0) {
      await target.click();
      const revealed = await waitFor(
        async () =>
          (await page.locator(".sidebar .monaco-list-row.selected .label-name").allInnerTexts()).some(
            (t) => t.trim() === "2.1",
          ),
        10_000,
      );
      check("a click reveals the task in the Plan tree", revealed);
    } else check("the demo plan has task 2.1", false);
    await frame.locator(".graph-tab", { hasText: "agloop" }).click();
    const agloop = await waitFor(
      async () =>
        (await frame.evaluate(() => document.querySelector(".graph-summary")?.textContent ?? "")).startsWith("agloop"),
      10_000,
    );
    check("the agloop tab draws agloop's graph", agloop);
    await frame.locator(".graph-tab", { hasText: "AutoDev" }).click();
    await page.waitForTimeout(500);
    for (const [label, cls, name] of [
      ["Light Modern", "vs", "light"],
      ["Dark Modern", "vs-dark", "dark"],
      ["Dark High Contrast", "hc-black", "hc"],
    ]) {
      check(`theme: ${label}`, await setTheme(page, label, cls));
      await page.mouse.move(1390, 850);
      await page.waitForTimeout(1200);
      const editor = await page.locator(".part.editor").boundingBox();
      const clip = { x: editor.x, y: editor.y, width: editor.width, height: Math.min(editor.height, 560) };
      await page.screenshot({ path: join(ARTIFACTS, `graph-${name}.png`), clip });
      if (readme) {
        mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: join(SCREENSHOTS, `graph-${name}.png`), clip });
      }
      say(`saved graph-${name}.png`);
    }
    check("no dialog opened", dialogs.length === 0, dialogs.join(" | "));
    if (readme) {
      // The README's picture: the three themes side by side, each cut to the graph's top left.
      const shot = await browser.newPage();
      const imgs = ["light", "dark", "hc"]
        .map(
          (n) =>
            `<img src="data:image/png;base64,${readFileSync(join(SCREENSHOTS, `graph-${n}.png`)).toString("base64")}">`,
        )
        .join("");
      await shot.setViewportSize({ width: 1560, height: 420 });
      await shot.setContent(
        `<style>body{margin:0;display:flex;gap:6px;background:#888}img{width:516px;height:420px;object-fit:cover;object-position:0 0}</style>${imgs}`,
      );
      await shot.screenshot({ path: join(SCREENSHOTS, "graph-themes.png") });
      say("saved media/screenshots/graph-themes.png");
    }
  } finally {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
  const failed = results.filter((r) => !r.ok);
  say(`${results.length - failed.length}/${results.length} checks passed; pictures in ${ARTIFACTS}`);
  return failed.length === 0 ? 0 : 1;
}

process.exitCode = await main().catch((err) => {
  say(`FAILED: ${err.stack ?? err.message}`);
  return 1;
});
