// The run report against hostile state (issue 32 items 13 and 14): an unreadable tournament file
// fails the report as it fails `tournaments`, and no title becomes a link in a renderer that
// autolinks (markdown-it with linkify, as GitHub's own renderer autolinks bare URLs).
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import MarkdownIt from "markdown-it";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

function cli(...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

describe("the run report on hostile state @slow", function () {
  this.timeout(60_000);

  it("an unreadable tournament history fails the report (exit 1) and is named in it, as `tournaments` does", () => {
    const ws = path.join(copyFixture("python-full"), "workspace");
    const dir = path.join(ws, ".autodev/tournaments/plan-9fbfb941");
    fs.writeFileSync(path.join(dir, "history.json"), '[{"pass_num": "one"}, 7, null]');
    const t = cli("tournaments", ws);
    assert.equal(t.code, 1, "the oracle: `tournaments` fails");
    const errors = t.err.split("\n").filter((l) => l.includes("history.json entry"));
    assert.equal(errors.length, 3, t.err);
    for (const format of ["md", "html"]) {
      const r = cli("report", ws, "--format", format);
      assert.equal(r.code, 1, `${format}: exit ${r.code}`);
      const text = r.out.replace(/\\(.)/g, "$1").replace(/&#95;|&#x5f;/gi, "_");
      assert.match(text, /plan-9fbfb941.*unreadable \(3 errors/s, format);
      for (const e of errors) {
        const what = e.slice(e.indexOf("history.json entry"));
        assert.ok(text.includes(what), `${format} names "${what}"`);
      }
    }
    const out = path.join(ws, "..", "report.md");
    const r = cli("report", ws, "--out", out);
    assert.equal(r.code, 1);
    assert.match(r.err, /3 tournament read errors/);
  });

  it("bare URLs, www names, domains and e-mail addresses in titles render as text, not links", () => {
    const dir = copyFixture("python-small");
    const plan = JSON.parse(fs.readFileSync(path.join(dir, ".autodev/plan.json"), "utf8"));
    const bait = [
      "https://evil.example/pay?x=1",
      "http://127.0.0.1:8080/",
      "www.evil.example",
      "evil.example.com",
      "mailto:boss@evil.example",
      "boss@evil.example",
      "ftp://evil.example/file",
      "HTTPS://EVIL.EXAMPLE",
      "xmpp:boss@evil.example",
      "<https://evil.example>",
      "[click](https://evil.example)",
      "![img](https://evil.example/x.png)",
    ];
    plan.phases[0].title = bait.join(" ");
    plan.phases[0].tasks.forEach((t: { title: string; description: string }, i: number) => {
      t.title = `${bait[i % bait.length]} then ${bait[(i + 5) % bait.length]}`;
    });
    plan.metadata.title = bait.join(", ");
    fs.rmSync(path.join(dir, ".autodev"), { recursive: true });
    const file = path.join(dir, "plan-in.json");
    fs.writeFileSync(file, JSON.stringify(plan));
    assert.equal(cli("init", dir, "--plan", file).code, 0);
    const r = cli("report", dir, "--format", "md");
    assert.equal(r.code, 0, r.err);
    for (const [name, md] of [
      ["markdown-it linkify", new MarkdownIt({ linkify: true })],
      [
        "markdown-it linkify, fuzzy off",
        new MarkdownIt({ linkify: true }).use((m) => m.linkify.set({ fuzzyLink: false })),
      ],
      ["markdown-it html", new MarkdownIt({ html: true, linkify: true })],
    ] as const) {
      const html = md.render(r.out);
      assert.doesNotMatch(
        html,
        /<a\s|<img|<script|href=|src=/i,
        `${name} made a link:\n${(/.{0,80}<a\s.{0,120}/s.exec(html) ?? [""])[0]}`,
      );
      const text = html
        .replace(/<[^>]+>/g, "")
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"');
      for (const b of bait.slice(0, 9)) assert.ok(text.includes(b), `${name}: "${b}" reads as written`);
    }
  });
});
