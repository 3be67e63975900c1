// The timeline's layout in the real webview (issue 22, item 3: titles were cut to three or four
// letters at a 1400 px window with a 300 px sidebar, because the details pane always took its
// share of the width and could be neither closed nor resized; in the sidebar the toolbar took
// three rows). Checks: with nothing selected the list has the whole width; a selection opens the
// details, which close (button, Escape) and resize (drag, arrow keys); in the sidebar the toolbar
// takes two rows and no details pane takes rows while nothing is selected. Screenshots at 1400 px
// and of the sidebar in light, dark and high-contrast themes. Called by timeline-ui-test.mjs.
import { join } from "node:path";
import { setTheme } from "./timeline-ui-helpers.mjs";
import { screenSettled, settled, waitFor } from "./poll.mjs";

/** Sizes that matter, read in the webview. */
function measure(frame) {
  return frame.evaluate(() => {
    const box = (sel) => document.querySelector(sel)?.getBoundingClientRect() ?? null;
    const pane = document.querySelector(".tl-detailswrap");
    const titles = [...document.querySelectorAll(".tl-row.entry:not([hidden]) .c-title")].map(
      (t) => t.getBoundingClientRect().width,
    );
    return {
      main: Math.round(box(".tl-main")?.width ?? 0),
      list: Math.round(box(".tl-listwrap")?.width ?? 0),
      listHeight: Math.round(box(".tl-listwrap")?.height ?? 0),
      details: pane && !pane.hidden ? Math.round(pane.getBoundingClientRect().width) : 0,
      toolbar: Math.round(box(".tl-toolbar")?.height ?? 0),
      title: Math.round(titles.length ? Math.min(...titles) : 0),
    };
  });
}

/** The timeline panel at a 1400 px window: details hidden until selected, closable, resizable. */
export async function checkPanelLayout({ page, frame, check, artifacts }) {
  await page.setViewportSize({ width: 1400, height: 900 });
  await settled(() => measure(frame));
  const close = frame.locator('button[aria-label="Close the details"]');
  if (await close.isVisible()) await close.click();
  const idle = (await settled(() => measure(frame))).value;
  check(
    "1400 px, nothing selected: no details pane, the list has the whole width",
    idle.details === 0 && idle.list >= idle.main - 2,
    JSON.stringify(idle),
  );
  await page.screenshot({ path: join(artifacts, "timeline-1400.png") });
  await frame.locator(".tl-row.entry:not([hidden])").nth(1).click();
  await frame.locator(".tl-details-title").waitFor({ timeout: 10_000 });
  const picked = (await settled(() => measure(frame))).value;
  check(
    "1400 px, a row selected: the details open and titles keep 140 px (about 20 characters)",
    picked.details > 0 && picked.title >= 140,
    JSON.stringify(picked),
  );
  await page.screenshot({ path: join(artifacts, "timeline-1400-details.png") });
  const splitter = frame.locator('[role="separator"][aria-label="Resize the details"]');
  const at = await splitter.boundingBox();
  await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await page.mouse.down();
  await page.mouse.move(at.x + at.width / 2 + 60, at.y + at.height / 2, { steps: 5 });
  await page.mouse.up();
  const dragged = await measure(frame);
  await splitter.focus();
  await splitter.press("ArrowLeft");
  const keyed = await measure(frame);
  check(
    "the details resize: dragging the splitter 60 px right, then ArrowLeft (24 px wider)",
    Math.abs(picked.details - dragged.details - 60) <= 2 && keyed.details - dragged.details === 24,
    `details ${picked.details} → ${dragged.details} → ${keyed.details} px`,
  );
  await frame.locator(".tl-details").focus();
  await frame.locator(".tl-details").press("Escape");
  const closed = await waitFor(async () => (await measure(frame)).details === 0, 5_000);
  check("Escape closes the details", closed);
  await page.setViewportSize({ width: 1500, height: 900 });
}

/**
 * The sidebar Timeline view (`side`, its frame) at the sidebar's width: two toolbar rows, the list
 * below them with no details pane while nothing is selected; a screenshot in each theme.
 */
export async function checkSidebarLayout({ page, side, check, artifacts }) {
  const look = await measure(side);
  check(
    `sidebar (${look.main} px): the toolbar takes two rows, no details pane while nothing is selected`,
    look.main <= 320 && look.toolbar <= 66 && look.details === 0 && look.listHeight > 0,
    JSON.stringify(look),
  );
  for (const [label, cls, file] of [
    ["Light Modern", "vs", "timeline-sidebar-light.png"],
    ["Dark High Contrast", "hc-black", "timeline-sidebar-hc.png"],
    ["Dark Modern", "vs-dark", "timeline-sidebar-dark.png"],
  ]) {
    check(`sidebar theme: ${label}`, await setTheme(page, label, cls));
    check(`sidebar theme: ${label} painted`, await screenSettled(page));
    await page.screenshot({ path: join(artifacts, file) });
  }
}
