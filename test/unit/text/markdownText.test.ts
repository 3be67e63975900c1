// One Markdown escaper (issue 33 "one of each helper"): text from state files renders, in a
// Markdown renderer that autolinks (markdown-it with HTML on and linkify set as VS Code's preview
// sets it: URLs and e-mail addresses, no bare domains), exactly as written — no element, link,
// code block, strike-through or entity comes from the data — while the Markdown source of plain
// text reads as the text ("task it-7", "1.5s"), and AutoDev's and agloop's hovers show it alike.
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import MarkdownIt from "markdown-it";
import { spawnSync } from "node:child_process";
import { REPO_ROOT, copyFixture } from "../fixtures";
import { initWith } from "../../helpers/initPlan";
import { MARKDOWN_MAX_CHARS, escapeMarkdown, markdownFence } from "../../../src/core/text/markdownText";
import { escapeHidden } from "../../../src/core/text/untrustedText";
import { STATE_SOURCES } from "../../../src/core/sources/sourceRegistry";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";

/** Markup a state file may carry, one kind per line (a line start, an indent, a CRLF, hidden characters). */
const BAIT = [
  "see https://evil.example/x?a=1 and boss@evil.example or www.evil.example",
  "<img src=x onerror=alert(1)> [a](javascript:x) ![i](y) **b** _c_ `d` ~~e~~ $x$ &amp; | f |",
  "# heading",
  "1. list",
  "- item",
  "> quote",
  "===",
  "    indented four\r",
  "\tand a tab",
  "bidi \u202eevil\u202c zero\u200bwidth tag\u{e0041} esc \u001b[2J",
  "protocol-relative //evil.example and ///evil.example, mailto:boss@evil.example",
].join("\n");

/** Plain text whose Markdown source must read as written (the views and hovers showed these so). */
const PLAIN = [
  "task it-7",
  "developer succeeded: 1 file changed in 1.5s",
  "retries: 2 of 3 (AutoDev's default)",
  "it7/old.md → it7/new.md (renamed)",
  "in_progress → coded; update_task_status",
  "a & b, 50% done! {ok}? 'quoted' \"too\"; 1.2.3 #7 x-y+z=w",
];

/** The built CLI, for `init` (AutoDev's tree is read from the ledger it writes). */
function cli(...args: string[]): { code: number; err: string } {
  const r = spawnSync(process.execPath, [path.join(REPO_ROOT, "dist/cli.js"), ...args], { encoding: "utf8" });
  return { code: r.status ?? -1, err: r.stderr };
}

const md = new MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: false });

/** Autolinks of GitHub and of VS Code's hovers (GFM): a scheme's `//`, `www.`, an e-mail address. */
const GFM_AUTOLINK = /\/\/|\bwww\.|[A-Za-z0-9._+-]@[A-Za-z0-9]/i;

/** What a reader sees: the text of the rendered HTML, `<br>` as a newline, no-break spaces as spaces. */
function seen(markdown: string): { text: string; tags: string[] } {
  const html = md.render(markdown);
  const tags = [...html.matchAll(/<([a-z0-9]+)/gi)]
    .map((m) => m[1].toLowerCase())
    .filter((t) => t !== "p" && t !== "br");
  const text = html
    .replace(/<br\s*\/?>\n?/g, "\n")
    .replace(/<\/?p>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\u00a0/g, " ")
    .trim();
  return { text, tags };
}

/** The bait as the one escaper promises it is seen: CR gone, hidden characters as visible escapes, a tab as four spaces at a line start. */
const EXPECTED = escapeHidden(BAIT.replace(/\r\n?/g, "\n"), true).replace(/^\t/gm, "    ");

/** What a hover's own Markdown makes (a bold title, an italic note); the text check catches data that made one. */
const OWN_MARKUP = new Set(["strong", "em"]);

describe("the one Markdown escaper", () => {
  it("renders hostile text as written: no element, link, code block or entity from the data", () => {
    const escaped = escapeMarkdown(BAIT);
    const r = seen(escaped);
    assert.deepEqual(r.tags, []);
    assert.equal(r.text, EXPECTED);
    assert.doesNotMatch(escaped.replace(/\\./g, "\\"), GFM_AUTOLINK, "a GFM autolink is left in one piece");
  });

  it("leaves plain text as written: only what can start markup where it stands is escaped", () => {
    for (const text of PLAIN) {
      assert.equal(escapeMarkdown(text), text);
      assert.equal(escapeMarkdown(text, { oneLine: true }), text);
      assert.equal(seen(text).text, text, "the sample itself renders as written");
    }
    assert.equal(
      escapeMarkdown("1. a\n10) b\n1.5 c\n- d\n+ e\n# f\n== g"),
      "1\\. a  \n10\\) b  \n1.5 c  \n\\- d  \n\\+ e  \n\\# f  \n\\== g",
    );
    assert.equal(escapeMarkdown("- x | y", { oneLine: true, lineStart: false }), "- x \\| y");
    assert.equal(escapeMarkdown("_a_ b_c __d__"), "\\_a\\_ b_c \\_\\_d\\_\\_");
    assert.equal(escapeMarkdown("&amp; &#65; & &x"), "\\&amp; \\&#65; & &x");
  });

  it("one line: every run of white space is one space, and a table cell cannot be broken", () => {
    const cell = escapeMarkdown("a |\n b\t\tc | d", { oneLine: true });
    assert.equal(cell, "a \\| b c \\| d");
    const table = seen(`| h |\n|---|\n| ${cell} |\n`);
    assert.deepEqual(
      table.tags.filter((t) => t === "td"),
      ["td"],
    );
  });

  it("cuts at max with the length said, before escaping, and never splits a surrogate pair", () => {
    assert.equal(escapeMarkdown("a*b*c*d", { max: 3 }), "a\\*b… (7 chars)");
    assert.equal(escapeMarkdown("ab😀c", { max: 3 }), "ab… (5 chars)");
    assert.equal(escapeMarkdown("x".repeat(9000), { max: Infinity }).length, 9000);
    assert.equal(escapeMarkdown("x".repeat(9000)), `${"x".repeat(MARKDOWN_MAX_CHARS)}… (9000 chars)`);
  });

  it("fences so that no backtick run in the text closes the block", () => {
    assert.equal(markdownFence("a ``` b ```` c"), "`````\na ``` b ```` c\n`````\n");
  });

  it("AutoDev's and agloop's tree hovers show the same hostile text the same way", async () => {
    const autodev = initWith(cli, (plan) => Object.assign(plan.phases[0].tasks[0], { description: BAIT }));
    const agloop = copyFixture("agloop-clean");
    const stateFile = path.join(agloop, ".agloop/state.json");
    const state = JSON.parse(fs.readFileSync(stateFile, "utf8"));
    state.feature_description = BAIT;
    fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));

    const shown = new Map<string, string[]>();
    for (const ws of [autodev, agloop]) {
      for (const source of STATE_SOURCES) {
        const location = await source.detect(ws);
        if (!location) continue;
        const walk = (nodes: readonly SourceTreeNode[]): void => {
          for (const n of nodes) {
            if (n.tooltip !== undefined) {
              const r = seen(n.tooltip);
              if (r.text.includes("see https://evil")) {
                const fromData = r.tags.filter((t) => !OWN_MARKUP.has(t));
                assert.deepEqual(fromData, [], `${source.kind} hover of ${n.label}: markup from the data`);
                shown.set(source.kind, [...(shown.get(source.kind) ?? []), r.text]);
              }
            }
            walk(n.children ?? []);
          }
        };
        walk(await source.tree(location));
      }
    }
    assert.deepEqual([...shown.keys()].sort(), ["agloop", "autodev"]);
    for (const [kind, texts] of shown) {
      for (const t of texts) assert.ok(t.includes(EXPECTED), `${kind} hover shows the text as written:\n${t}`);
    }
  });
});
