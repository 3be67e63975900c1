// Headless Chromium for the integration runner, the demo screenshot and later UI tests:
// Debian's /usr/bin/chromium driven by playwright-core (no browser download; closed network).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { ensureDebianPackages } from "./debian.mjs";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** The Chromium flags that work on these closed-network machines (as root, headless). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Installs Debian's Chromium when missing and running as root; otherwise throws with the fix. */
export async function assertChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.env.CHROMIUM) throw new Error(`Chromium not found at ${CHROMIUM} (the CHROMIUM variable)`);
  await ensureDebianPackages({ chromium: () => existsSync(CHROMIUM) }, "the headless workbench");
}

/** Launches Chromium with a fresh profile in `profileDir`; returns the Playwright BrowserContext. */
export async function launchBrowser(profileDir, { width = 1400, height = 900 } = {}) {
  await assertChromium();
  mkdirSync(profileDir, { recursive: true });
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width, height },
    // Our launchers clean up (server, browser, temp folders) on signals themselves; Playwright's
    // own handlers would exit the process first and orphan the server.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    // Debian's wrapper keeps crash reports under $XDG_CONFIG_HOME: keep them out of $HOME.
    env: {
      ...process.env,
      XDG_CONFIG_HOME: join(profileDir, "xdg-config"),
      XDG_CACHE_HOME: join(profileDir, "xdg-cache"),
    },
  });
}
