// The agloop timeline in the real webview (issue 22, item 1): a source's rows show that source's
// fields and only the controls that apply. On a copy of test/fixtures/agloop-clean (log.json written
// by a real agloop install's hooks): rows carry the action, the task, the outcome word and the
// summary, with no question-mark icons, no chain or hash cells and one group per day (agents take
// turns: grouping by actor would put a header every row or two); the details pane shows agloop's
// fields (agent, action, phase…) and "Open line N in .agloop/log.json", never AutoDev's chain badge,
// self_hash, prev_hash or "Show plan as of". Called by timeline-ui-test.mjs with its check().
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { screenSettled, waitFor } from "./poll.mjs";

/**
 * Switches the open timeline to the agloop source labelled `label` (its folder `dir`) and checks
 * what it shows. The switch is made and the page read in one turn of the webview's script, before
 * any answer of the host can arrive: nothing of the previous source may be on screen then.
 */
export async function checkAgloopTimeline({ page, frame, check, artifacts, label, dir }) {
  const entries = readFileSync(join(dir, ".agloop", "log.json"), "utf8")
    .split("\n")
    .filter((l) => l.trim()).length;
  const switched = await frame.evaluate((name) => {
    const select = document.querySelector('select[aria-label="State source"]');
    const option = [...select.options].find((o) => o.label === name || o.textContent === name);
    const count = () => document.querySelector(".tl-count")?.textContent ?? "";
    const before = count();
    select.value = option.value;
    select.dispatchEvent(new Event("change"));
    return { before, after: count(), rows: document.querySelectorAll(".tl-row.entry:not([hidden])").length };
  }, label);
  check(
    "switching sources clears the previous source's rows and count at once",
    switched.rows === 0 && switched.after !== switched.before,
    JSON.stringify(switched),
  );
  const rows = frame.locator(".tl-row.entry:not([hidden])");
  // The agloop log's own count, not any "N entries": the previous source's count matched that at once.
  const shown = await waitFor(
    async () =>
      (await frame.locator(".tl-count").innerText()).startsWith(`${entries} entries`) && (await rows.count()) > 3,
    15_000,
  );
  check(
    "agloop: the source can be chosen and its rows appear",
    shown,
    `${await frame.locator(".tl-count").innerText()}, ${await rows.count()} rows (log.json has ${entries} entries)`,
  );
  const look = await frame.evaluate(() => {
    const entries = [...document.querySelectorAll(".tl-row.entry:not([hidden])")];
    const visible = (el) => el && getComputedStyle(el).display !== "none" && el.getBoundingClientRect().width > 0;
    return {
      rows: entries.length,
      groups: document.querySelectorAll(".tl-row.group:not([hidden])").length,
      questionIcons: entries.filter((r) => r.querySelector(".codicon-question")).length,
      actions: entries.map((r) => r.querySelector(".c-op")?.textContent ?? ""),
      actionShown: entries.filter((r) => visible(r.querySelector(".c-op"))).length,
      statuses: entries.map((r) => r.querySelector(".c-to")?.textContent ?? ""),
      arrows: entries.filter((r) => (r.querySelector(".c-arrow")?.textContent ?? "") !== "").length,
      hashCells: entries.filter((r) => visible(r.querySelector(".c-hashcell"))).length,
      plain: document.querySelector(".tl-list")?.classList.contains("plain") ?? false,
    };
  });
  check(
    "agloop rows: the action shown, the outcome as one word, no question marks, no arrows, no chain or hash",
    look.plain &&
      look.questionIcons === 0 &&
      look.arrows === 0 &&
      look.hashCells === 0 &&
      look.actionShown === look.rows &&
      look.actions.every((a) => a.length > 0) &&
      look.statuses.some((s) => s === "success"),
    JSON.stringify({ ...look, actions: look.actions.slice(0, 4), statuses: look.statuses.slice(0, 4) }),
  );
  check(
    "agloop rows are grouped by day, not by agent (no header every row or two)",
    look.groups >= 1 && look.groups * 3 <= look.rows,
    `${look.groups} headers over ${look.rows} rows`,
  );
  await rows.nth(2).click();
  await frame.locator(".tl-details-title").waitFor({ timeout: 10_000 });
  const pane = await frame.evaluate(() => ({
    text: document.querySelector(".tl-details")?.textContent ?? "",
    labels: [...document.querySelectorAll(".tl-fields dt")].map((d) => d.textContent),
    buttons: [...document.querySelectorAll(".tl-details .tl-actions button")].map((b) => b.textContent),
    badge: document.querySelectorAll(".tl-details .tl-badge").length,
  }));
  check(
    "agloop details: agloop's fields, Open line N in .agloop/log.json, none of AutoDev's controls",
    ["Time", "Agent", "Action", "Phase", "Status"].every((l) => pane.labels.includes(l)) &&
      pane.buttons.some((b) => /^Open line \d+ in \.agloop\/log\.json$/.test(b.trim())) &&
      !pane.buttons.some((b) => /Show plan as of/.test(b)) &&
      pane.badge === 0 &&
      !/self_hash|prev_hash|chain ok/.test(pane.text) &&
      !/payload|snapshot|ledger|What changed/i.test(pane.text),
    JSON.stringify({ labels: pane.labels, buttons: pane.buttons, badge: pane.badge }),
  );
  const hidden = await frame.evaluate(() =>
    [
      "Changes only: status changes, retries, escalations and plan changes",
      "Fold snapshots into the entry they follow",
      "Time-travel the Plan view to the selected entry",
    ].map((t) => {
      const b = [...document.querySelectorAll(".tl-toolbar button")].find((x) => x.getAttribute("aria-label") === t);
      return !b || b.hidden;
    }),
  );
  check(
    "agloop toolbar: no changes-only, snapshot or time-travel toggles",
    hidden.every(Boolean),
    JSON.stringify(hidden),
  );
  check("agloop timeline drawn", await screenSettled(page));
  await page.screenshot({ path: join(artifacts, "timeline-agloop.png") });
}
