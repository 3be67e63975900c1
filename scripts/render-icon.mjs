// Renders media/icon.svg to media/icon.png (128×128, the marketplace icon) with Debian's headless
// Chromium. Run after editing the SVG: `node scripts/render-icon.mjs`.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser } from "./browser.mjs";
import { ROOT } from "./vscode-server.mjs";

const svg = readFileSync(join(ROOT, "media", "icon.svg"), "utf8");
const profile = mkdtempSync(join(tmpdir(), "autodev-icon-"));
const browser = await launchBrowser(profile, { width: 128, height: 128 });
try {
  const page = browser.pages()[0] ?? (await browser.newPage());
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  await page.locator("svg").screenshot({ path: join(ROOT, "media", "icon.png"), omitBackground: true });
  console.log("media/icon.png written");
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}
