// What a theme screenshot of the Plan view must show, measured rather than compared pixel by pixel
// (font antialiasing differs between machines; these do not): the sidebar is painted in the
// theme's own sideBar.background (read from the theme file VS Code ships, not from the page); every
// task's icon has its status's colour (the icon language of src/core/sources/taskStatusIcons.ts,
// restated here as the spec: the extension's own theme colours, package.json contributes.colors)
// both in the DOM and in the picture; in dark and high-contrast themes those are the built-in
// colours they default to; labels and descriptions reach WCAG AA contrast against that background
// (4.5:1 for text, 3:1 for icons); no row reaches past the 300 px sidebar and no phase or task label
// or task status is cut off. tree-screenshots.mjs runs them once per theme.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CODE_SERVER_DIR } from "../vscode-server.mjs";

const THEMES_DIR = join(CODE_SERVER_DIR, "node_modules/code-server/lib/vscode/extensions/theme-defaults/themes");

/** The theme colour each task status's icon has (the spec the tree must follow). */
export const STATUS_ICON_COLOR = {
  pending: "autodevStatus.pending",
  "in progress": "autodevStatus.inProgress",
  coded: "autodevStatus.inProgress",
  "auto-gated": "autodevStatus.inProgress",
  reviewed: "autodevStatus.reviewed",
  tested: "autodevStatus.reviewed",
  tournamented: "autodevStatus.tournamented",
  complete: "autodevStatus.complete",
  blocked: "autodevStatus.blocked",
  skipped: "autodevStatus.skipped",
};

/** The built-in colour each status colour defaults to outside light themes (what the tree used before). */
const BUILT_IN_COLOR = {
  pending: "descriptionForeground",
  "in progress": "charts.blue",
  coded: "charts.blue",
  "auto-gated": "charts.blue",
  reviewed: "charts.purple",
  tested: "charts.purple",
  tournamented: "charts.yellow",
  complete: "testing.iconPassed",
  blocked: "problemsWarningIcon.foreground",
  skipped: "descriptionForeground",
};
/** The statuses whose light default is a darker tone than the built-in colour (VS Code's is below 3:1 on Light Modern). */
const DARKENED_IN_LIGHT = ["blocked", "complete", "tournamented"];

/** WCAG 2.x AA: normal text, and user-interface components (icons). */
const AA_TEXT = 4.5;
const AA_ICON = 3;

/** A theme file's colours, its `include` chain first (the including file wins). */
export function themeFileColors(file) {
  const theme = JSON.parse(readFileSync(join(THEMES_DIR, file), "utf8"));
  const base = theme.include ? themeFileColors(join(dirname(file), theme.include)) : {};
  return { ...base, ...(theme.colors ?? {}) };
}

/** The background the theme gives the sidebar: its sideBar.background, else (high contrast) the editor's. */
export function sidebarBackgroundOf(file) {
  const colors = themeFileColors(file);
  return parseHex(colors["sideBar.background"] ?? colors["editor.background"]);
}

function parseHex(hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})?$/i.exec(hex ?? "");
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  return [1, 2, 3].map((i) => parseInt(m[i], 16));
}

/** WCAG relative luminance of an sRGB colour. */
function luminance([r, g, b]) {
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two sRGB colours (1 to 21). */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const distance = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
const hex = (c) => `#${c.map((v) => v.toString(16).padStart(2, "0")).join("")}`;

/**
 * What the page says about every row of the Plan view: its label and description, their colours
 * (with the opacity applied, over `bg`), the icon's colour and box, the status's own colour and its
 * built-in one as the theme resolves them (a probe coloured `var(--vscode-TOKEN)`), and whether
 * anything is cut off.
 */
function readRows(page, statusColors, builtInColors) {
  return page.evaluate(
    ([statusColors, builtInColors]) => {
      const rgba = (css) => (css.match(/[\d.]+/g) ?? []).map(Number);
      const sidebar = document.querySelector(".part.sidebar").getBoundingClientRect();
      const probe = document.createElement("span");
      document.querySelector(".monaco-workbench").appendChild(probe);
      const tokenColor = (token) => {
        probe.style.color = `var(--vscode-${token.replace(/\./g, "-")})`;
        return rgba(getComputedStyle(probe).color);
      };
      const tokens = Object.fromEntries(Object.entries(statusColors).map(([s, t]) => [s, tokenColor(t)]));
      const builtIns = Object.fromEntries(Object.entries(builtInColors).map(([s, t]) => [s, tokenColor(t)]));
      probe.remove();
      /** The right edge of the first `n` characters of `el`'s text (all of it when `n` is null), where they end on screen. */
      const textRight = (el, n) => {
        if (!el) return null;
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        const range = document.createRange();
        let first = true;
        let left = n ?? Infinity;
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (first) range.setStart(node, 0);
          first = false;
          const take = Math.min(left, node.textContent.length);
          range.setEnd(node, take);
          left -= take;
          if (left <= 0) break;
        }
        return first ? null : range.getBoundingClientRect().right;
      };
      const rows = [...document.querySelectorAll(".sidebar .pane-body .monaco-list-row")];
      return rows.map((row) => {
        const name = row.querySelector(".label-name");
        const desc = row.querySelector(".label-description");
        const icon = row.querySelector(".custom-view-tree-node-item-icon");
        const clipEl = row.querySelector(".monaco-icon-label-container") ?? row;
        const label = name?.textContent?.trim() ?? "";
        const description = desc?.textContent?.trim() ?? "";
        const status = Object.keys(statusColors).find((s) => description === s || description.startsWith(`${s} `));
        const box = icon?.getBoundingClientRect();
        const ds = desc ? getComputedStyle(desc) : null;
        return {
          level: Number(row.getAttribute("aria-level")),
          label,
          description,
          status: status ?? null,
          selected: row.classList.contains("selected") || row.classList.contains("focused"),
          nameColor: name ? rgba(getComputedStyle(name).color) : null,
          descColor: ds ? rgba(ds.color) : null,
          descOpacity: ds ? Number(ds.opacity) : 1,
          iconColor: icon ? rgba(getComputedStyle(icon).color) : null,
          iconBox: box && box.width > 0 ? { x: box.x, y: box.y, width: box.width, height: box.height } : null,
          expected: status ? tokens[status] : null,
          builtIn: status ? builtIns[status] : null,
          rowRight: row.getBoundingClientRect().right,
          clipRight: clipEl.getBoundingClientRect().right,
          nameRight: textRight(name, null),
          statusRight: status ? textRight(desc, status.length) : null,
          sidebarRight: sidebar.right,
        };
      });
    },
    [statusColors, builtInColors],
  );
}

/**
 * Decodes the screenshot `png` in the page (a canvas) and answers, in page pixels: the most common
 * colour of `region`, and for each box its pixel most covered by the wanted colour over `bg`.
 */
function readPixels(page, png, region, boxes, bg) {
  return page.evaluate(
    async ({ b64, region, boxes, bg }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const canvas = document.createElement("canvas");
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext("2d", { willReadFrequently: true });
      ctx.drawImage(img, 0, 0);
      const px = (x, y, w, h) => ctx.getImageData(Math.round(x), Math.round(y), Math.round(w), Math.round(h)).data;
      const counts = new Map();
      const all = px(region.x, region.y, region.width, region.height);
      for (let i = 0; i < all.length; i += 4) {
        const key = `${all[i]},${all[i + 1]},${all[i + 2]}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      const [mode, n] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0];
      // A pixel of an icon painted in `want` over `bg` lies on the line from bg to want (antialiasing
      // only moves it along the line): the best pixel is the most covered one that stays on it.
      const nearest = boxes.map(({ x, y, width, height, want }) => {
        const d = px(x, y, width, height);
        const span = want.map((v, k) => v - bg[k]);
        const len2 = span.reduce((a, v) => a + v * v, 0) || 1;
        let best = null;
        for (let i = 0; i < d.length; i += 4) {
          const c = [d[i], d[i + 1], d[i + 2]];
          const alpha = Math.min(1, Math.max(0, c.reduce((a, v, k) => a + (v - bg[k]) * span[k], 0) / len2));
          const off = Math.max(...c.map((v, k) => Math.abs(v - (bg[k] + alpha * span[k]))));
          if (off <= 16 && (best === null || alpha > best.alpha)) best = { alpha, color: c };
        }
        return best;
      });
      return { mode: mode.split(",").map(Number), share: n / (all.length / 4), nearest };
    },
    { b64: png.toString("base64"), region, boxes, bg },
  );
}

/**
 * Runs the checks of one theme on the page as it is now (tree expanded, theme applied, mouse away):
 * `themeFile` is the theme's file under theme-defaults/themes, `light` whether it is a light theme
 * (not high contrast), `clip` the screenshot's region and `png` the screenshot itself. Each check
 * goes through `check(name, ok, detail)`.
 */
export async function checkTheme({ page, check, name, themeFile, light, clip, png, sidebarPx }) {
  const bg = sidebarBackgroundOf(themeFile);
  const rows = await readRows(page, STATUS_ICON_COLOR, BUILT_IN_COLOR);
  const sidebar = await page.locator(".part.sidebar").boundingBox();
  const blend = (c, alpha) => c.slice(0, 3).map((v, i) => Math.round(v * alpha + bg[i] * (1 - alpha)));
  // A selected row's icon takes the selection's colour (VS Code's rule), so it is left out. `seen`:
  // the status colour as it shows over the sidebar (a token may be translucent: #ffffffb3).
  const tasks = rows
    .filter((r) => r.status !== null && r.iconBox !== null && !r.selected)
    .map((r) => ({
      ...r,
      seen: blend(r.expected, r.expected[3] ?? 1),
      shown: r.iconColor ? blend(r.iconColor, r.iconColor[3] ?? 1) : bg,
    }));
  const iconBoxes = tasks.map((r) => ({
    ...r.iconBox,
    x: r.iconBox.x - clip.x,
    y: r.iconBox.y - clip.y,
    want: r.seen,
  }));
  const region = { x: sidebar.x - clip.x, y: 0, width: sidebar.width, height: clip.height };
  const pixels = await readPixels(page, png, region, iconBoxes, bg);

  check(
    `${name}: the sidebar is painted in the theme's sideBar.background ${hex(bg)}`,
    distance(pixels.mode, bg) <= 2 && pixels.share > 0.5,
    `most common colour ${hex(pixels.mode)} (${Math.round(pixels.share * 100)}% of the sidebar)`,
  );
  const statuses = [...new Set(tasks.map((r) => r.status))];
  const wrongDom = tasks.filter((r) => r.iconColor === null || r.iconColor.join() !== r.expected.join());
  check(
    `${name}: each task icon has its status's colour (${statuses.length} statuses, ${tasks.length} tasks)`,
    tasks.length >= 8 && statuses.length >= 3 && wrongDom.length === 0,
    wrongDom.map((r) => `${r.label} ${r.status}: ${r.iconColor} ≠ ${r.expected}`).join("; "),
  );
  // Outside light themes every status colour is the built-in one it defaults to; in a light one only
  // the darkened ones differ (a status the demo does not show is not checked).
  const changed = [...new Set(tasks.filter((r) => r.expected.join() !== r.builtIn.join()).map((r) => r.status))];
  const mayChange = light ? DARKENED_IN_LIGHT : [];
  const wantChanged = mayChange.filter((s) => statuses.includes(s));
  check(
    `${name}: the status colours are VS Code's built-in ones${light ? `, but ${mayChange.join(", ")} (darker)` : ""}`,
    changed.sort().join() === wantChanged.join(),
    changed.map((s) => `${s}: ${hex(tasks.find((r) => r.status === s).seen)}`).join(", ") || "none differs",
  );
  const unpainted = tasks.filter((r, i) => pixels.nearest[i] === null || pixels.nearest[i].alpha < 0.6);
  check(
    `${name}: the picture shows each task icon in that colour`,
    tasks.length > 0 && unpainted.length === 0,
    unpainted
      .map(
        (r) =>
          `${r.label}: at most ${Math.round((pixels.nearest[tasks.indexOf(r)]?.alpha ?? 0) * 100)}% ${hex(r.seen)}`,
      )
      .join("; "),
  );
  const plain = rows.filter((r) => !r.selected && r.label !== "");
  const text = plain.flatMap((r) => [
    { what: `${r.label} label`, ratio: contrast(blend(r.nameColor, r.nameColor[3] ?? 1), bg) },
    ...(r.description
      ? [
          {
            what: `${r.label} description`,
            ratio: contrast(blend(r.descColor, (r.descColor[3] ?? 1) * r.descOpacity), bg),
          },
        ]
      : []),
  ]);
  const lowText = text.filter((t) => t.ratio < AA_TEXT);
  const worst = text.reduce((a, b) => (b.ratio < a.ratio ? b : a), { ratio: 21 });
  check(
    `${name}: labels and descriptions reach ${AA_TEXT}:1 contrast (WCAG AA)`,
    text.length > 0 && lowText.length === 0,
    `lowest ${worst.ratio.toFixed(2)}:1 (${worst.what})${lowText.length ? `; below: ${lowText.map((t) => `${t.what} ${t.ratio.toFixed(2)}`).join(", ")}` : ""}`,
  );
  const lowIcons = [...new Set(tasks.filter((r) => contrast(r.shown, bg) < AA_ICON).map((r) => r.status))];
  const icons = statuses.map(
    (s) => `${s} ${Math.min(...tasks.filter((r) => r.status === s).map((r) => contrast(r.shown, bg))).toFixed(2)}`,
  );
  check(
    `${name}: status icons reach ${AA_ICON}:1 against the sidebar (WCAG AA)`,
    statuses.length > 0 && lowIcons.length === 0,
    `${icons.join(", ")}${lowIcons.length ? `; below: ${lowIcons.join(", ")}` : ""}`,
  );
  const over = rows.filter(
    (r) =>
      r.rowRight > r.sidebarRight + 1 ||
      ((r.level <= 2 || r.status !== null) && (r.nameRight === null || r.nameRight > r.clipRight + 0.5)) ||
      (r.statusRight !== null && r.statusRight > r.clipRight + 0.5),
  );
  check(
    `${name}: within ${sidebarPx} px every row fits; phase and task labels and task statuses are whole`,
    rows.length >= 10 && over.length === 0,
    over
      .map(
        (r) =>
          `${r.label}: ends at ${Math.round(r.nameRight)}, status at ${r.statusRight === null ? "—" : Math.round(r.statusRight)}, clip ${Math.round(r.clipRight)}`,
      )
      .join("; ") || `${rows.length} rows`,
  );
}
