/**
 * The extension's status colours are VS Code theme colours it contributes (package.json
 * `contributes.colors`), the same ones the core's table names (src/core/sources/statusColors.ts):
 * each defaults in dark and high-contrast themes to the built-in colour the tree used before (so
 * nothing changes there), and in light themes either to that colour too or to a darker tone of its
 * hue that reaches WCAG AA 3:1 against the light sidebars. Every `autodevStatus.*` id the code,
 * the webviews and their CSS name is contributed. scripts/ui/theme-checks.mjs measures the result
 * on screen.
 */
import * as assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { STATUS_COLORS, statusColorFallback } from "../../../src/core/sources/statusColors";
import { TASK_STATUS_WORDS } from "../../../src/core/sources/taskStatusIcons";
import { AGLOOP_TIMELINE_FEATURES } from "../../../src/core/sources/agloop/agloopManifest";
import { REPO_ROOT } from "../fixtures";

interface ColorContribution {
  id: string;
  description: string;
  defaults: { light: string; dark: string; highContrast: string; highContrastLight: string };
}

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  contributes: { colors?: ColorContribution[] };
};
const contributed = new Map((manifest.contributes.colors ?? []).map((c) => [c.id, c]));

/** The sidebars of VS Code's default light themes: Light Modern, Light+ (and Light (Visual Studio)). */
const LIGHT_SIDEBARS = { "Light Modern": "#F8F8F8", "Light+": "#F3F3F3" };
/** VS Code's light defaults of the built-in colours a light default may darken (its colour registry). */
const BUILT_IN_LIGHT: Record<string, string> = {
  "testing.iconPassed": "#73C991",
  "charts.yellow": "#BF8803",
  "problemsWarningIcon.foreground": "#BF8803",
};

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** WCAG 2.x contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = rgb(hex).map((c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The HSL hue of a #rrggbb colour, in degrees. */
function hue(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => c / 255);
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  if (d === 0) return 0;
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

/** The `autodevStatus.*` ids named in the files below `dir` with one of `exts` (CSS: `--vscode-autodevStatus-*`). */
function namedIds(dir: string, exts: readonly string[], out = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(join(REPO_ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) namedIds(rel, exts, out);
    if (!e.isFile() || !exts.some((x) => e.name.endsWith(x))) continue;
    for (const m of readFileSync(join(REPO_ROOT, rel), "utf8").matchAll(/autodevStatus[.-]([A-Za-z0-9_]+)/g)) {
      out.set(`autodevStatus.${m[1]}`, rel);
    }
  }
  return out;
}

describe("status colours: the extension's own theme colours", () => {
  it("package.json contributes exactly the core's status colours, with a localized description", () => {
    const ids = Object.values(STATUS_COLORS).map((c) => c.color);
    assert.deepEqual([...contributed.keys()].filter((id) => id.startsWith("autodevStatus.")).sort(), [...ids].sort());
    for (const id of ids) {
      assert.match(contributed.get(id)!.description, /^%colors\.autodevStatus\.\w+\.description%$/);
    }
  });

  it("each id has one dot: a webview's CSS variable replaces only the first (vscode- + id.replace('.', '-'))", () => {
    // The workbench names autodevStatus.inProgress --vscode-autodevStatus-inProgress, and so do webviews;
    // a second dot would stay in the webview's name (--vscode-autodev-status.inProgress) and the
    // timeline and the graph would only ever show their fallback.
    for (const { color } of Object.values(STATUS_COLORS)) assert.match(color, /^[A-Za-z0-9]+\.[A-Za-z0-9]+$/, color);
  });

  it("dark and high-contrast defaults are the built-in colour the tree used before", () => {
    for (const { color, fallbackColor } of Object.values(STATUS_COLORS)) {
      const d = contributed.get(color)!.defaults;
      assert.deepEqual(
        [d.dark, d.highContrast, d.highContrastLight],
        [fallbackColor, fallbackColor, fallbackColor],
        color,
      );
      assert.equal(statusColorFallback(color), fallbackColor);
    }
    assert.equal(statusColorFallback("charts.blue"), undefined);
  });

  it("a light default is that colour, or a tone of its hue reaching 3:1 on every default light sidebar", () => {
    const darkened: string[] = [];
    for (const { color, fallbackColor } of Object.values(STATUS_COLORS)) {
      const light = contributed.get(color)!.defaults.light;
      if (light === fallbackColor) continue;
      assert.match(light, /^#[0-9A-Fa-f]{6}$/, `${color}: light default ${light}`);
      for (const [theme, bg] of Object.entries(LIGHT_SIDEBARS)) {
        const ratio = contrast(light, bg);
        assert.ok(ratio >= 3, `${color} ${light} on ${theme} ${bg}: ${ratio.toFixed(2)}:1`);
      }
      const was = BUILT_IN_LIGHT[fallbackColor];
      assert.ok(was, `${color}: no known light default for ${fallbackColor}`);
      const turn = Math.abs(hue(light) - hue(was));
      assert.ok(Math.min(turn, 360 - turn) <= 5, `${color}: hue ${hue(light).toFixed(0)}° vs ${hue(was).toFixed(0)}°`);
      darkened.push(color);
    }
    // The three that VS Code's own light colours leave below 3:1 on Light Modern.
    assert.deepEqual(darkened.sort(), [
      "autodevStatus.blocked",
      "autodevStatus.complete",
      "autodevStatus.tournamented",
    ]);
  });

  it("the task status language and agloop's timeline use them, with their fallback for the webview", () => {
    const words = [...Object.values(TASK_STATUS_WORDS), ...Object.values(AGLOOP_TIMELINE_FEATURES.words.statuses)];
    for (const w of words.filter((x) => x.color.startsWith("autodev."))) {
      assert.equal(w.fallbackColor, statusColorFallback(w.color), `${w.label}: ${w.color}`);
    }
    assert.equal(TASK_STATUS_WORDS.complete.color, "autodevStatus.complete");
    assert.ok(Object.values(TASK_STATUS_WORDS).every((w) => w.color.startsWith("autodevStatus.")));
  });

  it("every autodevStatus.* id the code, the webviews and the CSS name is contributed", () => {
    const named = new Map([
      ...namedIds("src", [".ts"]),
      ...namedIds("webview", [".ts"]),
      ...namedIds("media", [".css"]),
    ]);
    assert.ok(named.size >= 7, `only ${named.size} ids named`);
    assert.deepEqual(
      [...named].filter(([id]) => !contributed.has(id)).map(([id, file]) => `${id} (${file})`),
      [],
    );
  });
});
