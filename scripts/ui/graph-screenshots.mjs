// The plan graph in a real VS Code (code-server + headless Chromium): the demo workspace
// (AutoDev, agloop and engine_state side by side), "AutoDev: Show Plan Graph" from the palette,
// in the light, dark and high-contrast themes. Checks: the page draws a card per task and a path
// per dependency; every card has a screen-reader label; the keyboard moves along dependencies;
// a click reveals the task in the Plan tree; the agloop tab draws its graph; the CSP is intact.
// Pictures go to test-artifacts/graph-{light,dark,hc}.png (and, with --readme, to
// media/screenshots/graph-{light,dark,hc}.png). AUTODEV_GRAPH_BIG=N replaces the demo's plan
// with an N-task one (written by `autodev-state init`) and reports the time to the first picture,
// a live status change's redraw, zoom-to-fit and scrolling frame times.
//
//   npm run build && node scripts/ui/graph-screenshots.mjs [--readme]
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "../browser.mjs";
import { ROOT, linkedProfile, startServer } from "../vscode-server.mjs";
import { runCommand, setTheme, webviewFrame } from "./timeline-ui-helpers.mjs";
import { screenSettled, waitFor } from "./poll.mjs";

const ARTIFACTS = join(ROOT, "test-artifacts");
const SCREENSHOTS = join(ROOT, "media", "screenshots");
const say = (msg) => console.log(`[graph-shots] ${msg}`);
const results = [];

function check(name, ok, detail = "") {
  results.push({ name, ok: Boolean(ok) });
  say(`${ok ? "✔" : "✘"} ${name}${detail ? ` — ${detail}` : ""}`);
}

async function graphFrame(page, timeoutMs = 60_000) {
  return webviewFrame(page, "#graph-root .graph-node", timeoutMs, "the graph webview did not draw any task");
}

/** Replaces the workspace's .autodev/ with an N-task plan in 20 phases (chained, plus random extra dependencies). */
function writeBigPlan(folder, n) {
  const phases = [];
  const per = Math.ceil(n / 20);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let p = 1; p <= 20; p++) {
    const tasks = [];
    for (let t = 1; t <= per && (p - 1) * per + t <= n; t++) {
      const deps = t > 1 ? [`${p}.${t - 1}`] : p > 1 ? [`${p - 1}.${per}`] : [];
      if (t > 2 && rnd() < 0.3) deps.push(`${p}.${1 + Math.floor(rnd() * (t - 2))}`);
      tasks.push({ id: `${p}.${t}`, phase_id: String(p), title: `Task ${p}.${t}`, description: "", depends_on: deps });
    }
    phases.push({ id: String(p), title: `Phase ${p}`, tasks });
  }
  const plan = { plan_id: "big", spec_hash: "0", phases, created_at: "", updated_at: "" };
  rmSync(join(folder, ".autodev"), { recursive: true, force: true });
  const file = join(folder, "big-plan.json");
  writeFileSync(file, JSON.stringify(plan));
  const r = spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), "init", folder, "--plan", file], {
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`init: ${r.stderr}`);
}

/** Live redraw after a status change, zoom to fit, and scroll frame times of a big graph. */
async function measureBig(frame, folder, n) {
  const cards = await frame.evaluate(() => document.querySelectorAll(".graph-node").length);
  check(`${n} cards drawn`, cards === n, `${cards}`);
  const t1 = Date.now();
  spawnSync(process.execPath, [join(ROOT, "dist", "cli.js"), "set-status", folder, "1.1", "in_progress"], {
    encoding: "utf8",
  });
  const live = await waitFor(
    async () =>
      (
        await frame.evaluate(
          () => document.querySelector('.graph-node[data-id="1.1"]')?.getAttribute("aria-label") ?? "",
        )
      ).includes("in progress"),
    60_000,
  );
  check(
    "a status change reaches the graph",
    live,
    `${Date.now() - t1} ms after set-status (watcher debounce + read + analysis, cached layout)`,
  );
  const fit = await frame.evaluate(() => {
    const t = performance.now();
    document.querySelector('[aria-label="Fit the graph"]')?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    return new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now() - t)));
  });
  say(`zoom to fit: ${fit.toFixed(1)} ms to the next frame`);
  const scroll = await frame.evaluate(
    () =>
      new Promise((resolve) => {
        document.querySelector('[aria-label="Zoom in"]')?.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        const v = document.querySelector(".graph-viewport");
        const frames = [];
        let last = performance.now();
        let step = 0;
        const tick = (now) => {
          frames.push(now - last);
          last = now;
          v.scrollLeft += 120;
          v.scrollTop += 20;
          if (++step < 180) requestAnimationFrame(tick);
          else {
            const s = frames.slice(1).sort((a, b) => a - b);
            resolve({ p50: s[Math.floor(s.length / 2)], p95: s[Math.floor(s.length * 0.95)], max: s[s.length - 1] });
          }
        };
        requestAnimationFrame(tick);
      }),
  );
  say(
    `scrolling: frame p50 ${scroll.p50.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(1)} ms`,
  );
}

/**
 * The cards' status icons (Light Modern) have the extension's own colours, not their fallback: each
 * `.tone-autodevStatus-X` is painted in the webview's --vscode-autodevStatus-X, and a complete
 * task's icon in the light default of package.json (VS Code's testing.iconPassed is below 3:1).
 */
async function checkToneColors(frame) {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const light = manifest.contributes.colors.find((c) => c.id === "autodevStatus.complete").defaults.light;
  const want = `rgb(${[1, 3, 5].map((i) => parseInt(light.slice(i, i + 2), 16)).join(", ")})`;
  const tones = await frame.evaluate(() => {
    const probe = document.createElement("span");
    document.body.appendChild(probe);
    const out = [...document.querySelectorAll(".graph-node [class*='tone-autodevStatus-']")].map((el) => {
      const tone = [...el.classList].find((c) => c.startsWith("tone-autodevStatus-")).slice(5);
      probe.style.color = `var(--vscode-${tone})`;
      return { tone, color: getComputedStyle(el).color, own: getComputedStyle(probe).color };
    });
    probe.remove();
    return out;
  });
  const wrong = tones.filter((t) => t.color !== t.own);
  const complete = tones.find((t) => t.tone === "autodevStatus-complete");
  check(
    "cards' status icons have the extension's status colours (a complete one the light default)",
    new Set(tones.map((t) => t.tone)).size >= 3 && wrong.length === 0 && complete?.color === want,
    `${[...new Set(tones.map((t) => `${t.tone} ${t.color}`))].join(", ")}${wrong.length ? `; not their own: ${wrong.map((t) => t.tone).join(", ")}` : ""} (complete: want ${want})`,
  );
}

async function main() {
  for (const f of ["dist/extension.js", "dist/makeDemo.js", "dist/stateWorker.js", "dist/webview/graph.js"]) {
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
    const big = Number(process.env.AUTODEV_GRAPH_BIG ?? 0);
    if (big > 0) writeBigPlan(folder, big);
    const profile = linkedProfile(work, {
      "workbench.colorTheme": "Default Light Modern",
      "window.commandCenter": false,
    });
    server = await startServer({ folder, ...profile });
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
    const frame = await graphFrame(page, big > 0 ? 180_000 : 60_000);
    say(`graph drawn ${Date.now() - t0} ms after the command`);
    if (big > 0) {
      await measureBig(frame, folder, big);
      return;
    }
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
    await checkToneColors(frame);
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
    await waitFor(
      async () =>
        !(await frame.evaluate(() => document.querySelector(".graph-summary")?.textContent ?? "agloop")).startsWith(
          "agloop",
        ),
      10_000,
    );
    for (const [label, cls, name] of [
      ["Light Modern", "vs", "light"],
      ["Dark Modern", "vs-dark", "dark"],
      ["Dark High Contrast", "hc-black", "hc"],
    ]) {
      check(`theme: ${label}`, await setTheme(page, label, cls));
      await page.mouse.move(1390, 850);
      check(`theme: ${label} painted`, await screenSettled(page));
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
