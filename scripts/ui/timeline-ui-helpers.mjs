// Helpers of scripts/ui/timeline-ui-test.mjs: the command palette, finding the timeline's webview
// frame, reading the Plan tree, switching the colour theme with "Preferences: Color Theme",
// appending a ledger entry with the CLI (it takes the lock as Python does), generating a big
// ledger with the benchmark's generator, and measuring scrolling inside the webview.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { ROOT } from "../vscode-server.mjs";
import { waitFor } from "./poll.mjs";

/**
 * The frame of a webview page that shows `selector` (a VS Code webview's inner frame); throws
 * `missing` when none does within `timeoutMs`.
 */
export async function webviewFrame(page, selector, timeoutMs, missing) {
  let found = null;
  const ok = await waitFor(async () => {
    for (const f of page.frames()) {
      if (await f.$(selector).catch(() => null)) {
        found = f;
        return true;
      }
    }
    return false;
  }, timeoutMs);
  if (!ok || !found) throw new Error(missing);
  return found;
}

/** The frame that holds the timeline page (the inner frame of a VS Code webview). */
export async function timelineFrame(page, timeoutMs = 30_000) {
  return webviewFrame(page, "#timeline-root .tl-toolbar", timeoutMs, "the timeline webview did not appear");
}

/** Clicks the quick-pick row whose label is exactly `label`; false when none shows up in time. */
async function clickPick(page, label, timeoutMs) {
  let target = null;
  await waitFor(async () => {
    for (const row of await page.locator(".quick-input-list .monaco-list-row").all()) {
      if ((await row.locator(".label-name").first().innerText()).trim() === label) {
        target = row;
        return true;
      }
    }
    return false;
  }, timeoutMs);
  if (!target) return false;
  await target.click();
  return true;
}

/** Runs a command from the palette by its title; retries while the extension is still activating. */
export async function runCommand(page, title, timeoutMs = 90_000) {
  let ranAt = 0;
  const ran = await waitFor(async () => {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input");
    await input.waitFor({ timeout: 20_000 });
    await input.fill(`>${title}`);
    if (await clickPick(page, title, 5_000)) return (ranAt = Date.now());
    await page.keyboard.press("Escape");
    await input.waitFor({ state: "hidden", timeout: 5_000 });
    return false;
  }, timeoutMs);
  if (!ran) throw new Error(`command "${title}" not found in the palette`);
  return ranAt;
}

/** Runs "AutoDev: Show Ledger Timeline" from the command palette; returns the webview frame and when the command ran. */
export async function openTimeline(page) {
  const ranAt = await runCommand(page, "AutoDev: Show Ledger Timeline");
  return { frame: await timelineFrame(page), ranAt };
}

/** The extension's output channel lines (its log files under the user data folder). */
export function hostLog(userDataDir) {
  const out = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, name.name);
      if (name.isDirectory()) walk(full);
      else if (name.name === "AutoDev State.log") out.push(...readFileSync(full, "utf8").split("\n"));
    }
  };
  walk(join(userDataDir, "logs"));
  return out;
}

/** Texts of the rows of the Plan view (the sidebar must show the AutoDev container). */
export async function treeRows(page) {
  return (await page.locator(".sidebar .monaco-list-row").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());
}

/** Switches the colour theme with "Preferences: Color Theme" and waits for the workbench to repaint. */
export async function setTheme(page, label, workbenchClass) {
  await runCommand(page, "Preferences: Color Theme");
  await page.locator(".quick-input-widget input").fill(label);
  if (!(await clickPick(page, label, 10_000))) throw new Error(`no theme "${label}" in the picker`);
  return waitFor(
    async () => (await page.locator(".monaco-workbench").getAttribute("class")).split(/\s+/).includes(workbenchClass),
    15_000,
  );
}

/** Appends one entry with the extension's CLI (locked, atomic, as Python AutoDev appends). */
export function appendLedgerEntry(dir, op, payload, session) {
  const r = spawnSync(
    process.execPath,
    [join(ROOT, "dist", "cli.js"), "append", dir, op, "--payload", JSON.stringify(payload), "--session", session],
    { encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`cli append failed: ${r.stderr || r.stdout}`);
}

/** How many entries (non-empty lines) `dir/.autodev/plan-ledger.jsonl` holds now. */
export function ledgerLineCount(dir) {
  const text = readFileSync(join(dir, ".autodev", "plan-ledger.jsonl"), "utf8");
  return text.split("\n").filter((line) => line.trim() !== "").length;
}

/** Writes a ledger of `count` small entries into `dir/.autodev/` with bench/generate.ts. */
export async function generateBigLedger(dir, count) {
  const out = join(tmpdir(), `autodev-bench-generate-${process.pid}.cjs`);
  await esbuild.build({
    entryPoints: [join(ROOT, "bench", "generate.ts")],
    bundle: true,
    platform: "node",
    format: "cjs",
    outfile: out,
    logLevel: "warning",
  });
  const { generateSmallEntriesLedger } = createRequire(import.meta.url)(out);
  rmSync(out, { force: true });
  mkdirSync(join(dir, ".autodev"), { recursive: true });
  const t0 = Date.now();
  const res = generateSmallEntriesLedger(join(dir, ".autodev", "plan-ledger.jsonl"), count);
  return { ...res, ms: Date.now() - t0 };
}

/**
 * Scrolls the list frame by frame for 240 frames of a fast wheel (3 rows a frame) and reports frame
 * times and the share of rows still blank (their page in flight); then makes 10 far jumps (as when
 * dragging the thumb) and reports how long each took until no row in view was blank.
 */
export async function measureScroll(frame) {
  return frame.evaluate(
    () =>
      new Promise((resolve) => {
        const list = document.querySelector(".tl-list");
        const frames = [];
        const fills = [];
        let rows = 0;
        let blank = 0;
        let step = 0;
        let last = performance.now();
        let jumpedAt = 0;
        const max = list.scrollHeight - list.clientHeight;
        const q = (arr, x) => {
          const sorted = arr.slice().sort((a, b) => a - b);
          return Math.round(sorted[Math.floor(x * (sorted.length - 1))] * 10) / 10;
        };
        const visible = () =>
          [...list.querySelectorAll(".tl-row:not([hidden])")].filter((r) => {
            const top = Number(r.dataset.index ?? -1) * 22;
            return top + 22 > list.scrollTop && top < list.scrollTop + list.clientHeight;
          });
        const tick = (now) => {
          if (step < 240) {
            frames.push(now - last);
            const shown = visible();
            rows += shown.length;
            blank += shown.filter((r) => r.classList.contains("placeholder")).length;
            list.scrollTop += 66;
          } else if (fills.length < 10) {
            if (jumpedAt === 0 || !visible().some((r) => r.classList.contains("placeholder"))) {
              if (jumpedAt !== 0) fills.push(now - jumpedAt);
              if (fills.length < 10) {
                list.scrollTop = Math.floor(Math.random() * max);
                jumpedAt = now;
              }
            }
          } else {
            const wheel = frames.slice(1);
            return resolve({
              wheel: {
                frames: wheel.length,
                p50: q(wheel, 0.5),
                p95: q(wheel, 0.95),
                max: q(wheel, 1),
                blankRatio: Math.round((blank / Math.max(1, rows)) * 1000) / 1000,
              },
              jumps: { jumps: fills.length, fillP50: q(fills, 0.5), fillMax: q(fills, 1) },
            });
          }
          last = now;
          step++;
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/** What the webview holds: JS heap, DOM nodes, rows rendered. */
export async function pageOf(frame) {
  return frame.evaluate(() => ({
    heapMB: performance.memory ? Math.round((performance.memory.usedJSHeapSize / 1048576) * 10) / 10 : null,
    domNodes: document.getElementsByTagName("*").length,
    rowsInDom: document.querySelectorAll(".tl-row").length,
  }));
}
