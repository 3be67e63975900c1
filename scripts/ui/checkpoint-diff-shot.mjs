// A picture of an agloop checkpoint diff (issue 22: the UI suite's pictures include a checkpoint
// diff; item 13: diffs of state are read-only). In the demo workspace's Plan view: the agloop root
// expanded, its Checkpoints, a click on the newest phase-transition checkpoint (it differs from state.json). Checks: a diff editor opens
// titled "<checkpoint> ↔ state.json" with text on both sides; typing into either side changes
// nothing (VS Code says the editor is read-only, no tab turns dirty) and state.json on disk is
// byte for byte what it was. Saves test-artifacts/checkpoint-diff.png. Called by
// tree-screenshots.mjs with its check().
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand, setTheme } from "./timeline-ui-helpers.mjs";
import { screenSettled, settled, waitFor } from "./poll.mjs";

/** Clicks the twistie of `row` when it is collapsed. */
async function expand(row) {
  if ((await row.getAttribute("aria-expanded")) === "false") await row.locator(".monaco-tl-twistie").click();
}

/** Opens the checkpoint diff from the tree of the demo workspace `folder`, checks it and saves its picture. */
export async function checkCheckpointDiff({ page, check, artifacts, folder }) {
  await setTheme(page, "Dark Modern", "vs-dark");
  const stateFile = join(folder, ".agloop", "state.json");
  const before = readFileSync(stateFile);
  const sidebar = page.locator(".sidebar");
  // Roots collapsed but agloop's, so the checkpoints are in view at 800 px.
  for (let i = 0; i < 6; i++) {
    const open = sidebar.locator('.monaco-list-row[aria-level="1"][aria-expanded="true"]');
    if ((await open.count()) === 0) break;
    await open
      .first()
      .locator(".monaco-tl-twistie")
      .click({ timeout: 5_000 })
      .catch(() => {}); // the list redrew under the click: tried again once it settles
    await settled(() =>
      sidebar.locator(".monaco-list-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("aria-expanded"))),
    );
  }
  const root = sidebar.locator('.monaco-list-row[aria-level="1"]', { hasText: "agloop" }).first();
  await expand(root);
  const group = sidebar
    .locator('.monaco-list-row[aria-level="2"]')
    .filter({ has: page.locator(".label-name", { hasText: /^Checkpoints$/ }) })
    .first();
  await group.waitFor({ timeout: 15_000 });
  await expand(group);
  const cp = sidebar
    .locator('.monaco-list-row[aria-level="3"]')
    .filter({ has: page.locator(".label-name", { hasText: /^phase-transition-/ }) })
    .first();
  await cp.waitFor({ timeout: 15_000 });
  const name = (await cp.locator(".label-name").innerText()).trim();
  await cp.click();
  const diff = page.locator(".editor-instance .monaco-diff-editor").first();
  const lines = async (side) => diff.locator(`.editor.${side} .view-line`).count();
  const opened = await waitFor(
    async () => (await diff.count()) > 0 && (await lines("original")) > 5 && (await lines("modified")) > 5,
    20_000,
  );
  const tab = page.locator(".tabs-container .tab.active");
  const title = opened ? ((await tab.getAttribute("aria-label")) ?? (await tab.innerText())) : "";
  const [left, right] = opened ? [await lines("original"), await lines("modified")] : [0, 0];
  check(
    "a checkpoint opens as a diff against state.json, text on both sides",
    opened && title.includes(`${name} ↔ state.json`) && left > 5 && right > 5,
    `${name}: tab "${title}", ${left} | ${right} lines`,
  );

  // The picture shows a change: the editor's "Next Change" scrolls to the first one.
  if (opened) {
    await diff.locator(".editor.modified .view-line").first().click();
    await page.keyboard.press("Alt+F5");
  }
  const marks = ".line-insert, .line-delete, .char-insert, .char-delete, .gutter-insert, .gutter-delete";
  const changed = await waitFor(async () => (await diff.locator(marks).count()) > 0, 5_000);
  check("the checkpoint diff's picture shows a changed line", opened && changed);
  await page.mouse.move(900, 790);
  await screenSettled(page);
  const file = join(artifacts, "checkpoint-diff.png");
  await page.screenshot({ path: file });

  // Try to change both sides: a read-only editor refuses and says so; nothing turns dirty or reaches the disk.
  let refused = 0;
  for (const side of ["modified", "original"]) {
    if (!opened) break;
    await diff.locator(`.editor.${side} .view-line`).nth(2).click();
    await page.keyboard.press("End");
    await page.keyboard.type("XX");
    await page.keyboard.press("Enter");
    const said = await waitFor(
      async () => /read-only/i.test(await page.locator(".editor-instance").innerText()),
      3_000,
    );
    if (said) refused++;
    await page.keyboard.press("Escape");
    await waitFor(async () => !/read-only/i.test(await page.locator(".editor-instance").innerText()), 3_000);
  }
  const typed = opened ? (await diff.innerText()).includes("XX") : true;
  const dirty = await page.locator(".tabs-container .tab.dirty").count();
  check(
    "both sides of the checkpoint diff are read-only (typing is refused, nothing dirty, state.json unchanged)",
    opened && refused === 2 && !typed && dirty === 0 && readFileSync(stateFile).equals(before),
    `refused ${refused}/2, typed text shown: ${typed}, dirty tabs: ${dirty}`,
  );
  await runCommand(page, "View: Close All Editors");
  return file;
}
