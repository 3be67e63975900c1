/**
 * Runtime strings are translatable: every message src/extension/ passes to
 * `vscode.l10n.t` (and the timeline webview to its `l10n.t`, which reads the
 * host's bundle) is a key of l10n/bundle.l10n.json and the bundle has no
 * other key (scripts/l10n-bundle.mjs --check, which names what is missing or
 * stale), messages number their placeholders {0}…{n-1} without gaps, and no
 * message, tree label, quick pick, input box, thrown error or webview label
 * is an English literal outside `l10n.t`. Strings that come from src/core
 * (problem messages, check findings, summaries) stay English: they are the
 * CLI's output too.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

const SCRIPT = path.join(REPO_ROOT, "scripts", "l10n-bundle.mjs");
const BUNDLE = path.join(REPO_ROOT, "l10n", "bundle.l10n.json");

function check(bundle?: string): { status: number | null; stderr: string } {
  const args = [SCRIPT, "--check", ...(bundle ? ["--bundle", bundle] : [])];
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  return { status: r.status, stderr: r.stderr };
}

function tsFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
    );
}

/**
 * Where src/extension/ or webview/ hands English to the UI without l10n.t: a literal as the
 * message of show…Message, the label of a TreeItem, a placeholder, a prompt, an aria-label, a
 * webview notice or an Error the extension throws (the webview's only guard its own code); or,
 * when the literal has words outside its `${…}` (a file name is not English), the label of an
 * evidence row or a webview button, or the value of a property the UI shows (title, tooltip,
 * label, description, detail, message, name, text). A line marked `l10n-ignore` is a code or a
 * deliberate exception, not shown through this check.
 */
function untranslated(): string[] {
  const lit = String.raw`(?:"[^"\n]*"|'[^'\n]*'|` + "`[^`]*`)";
  const always = [
    new RegExp(String.raw`\.show(?:Information|Warning|Error)Message\(\s*${lit}`),
    new RegExp(String.raw`new vscode\.TreeItem\(\s*${lit}`),
    new RegExp(String.raw`\b(?:placeHolder|placeholder|prompt)\s*:\s*${lit}`),
    new RegExp(String.raw`"aria-label"\s*:\s*${lit}`),
    new RegExp(String.raw`\.(?:notice|showOverlay|empty)\(\s*${lit}`),
  ];
  const thrownLiteral = new RegExp(String.raw`new Error\(\s*${lit}`);
  const shown = new RegExp(
    String.raw`(?:\b(?:title|tooltip|label|description|detail|message|name|text)\s*[:=]|\b(?:warningItem|errorItem)\(|\b(?:button|toggle)\(\s*"[^"]*",)\s*(${lit})`,
    "g",
  );
  const words = /[A-Za-z]{2,}\s+[A-Za-z]{2,}/;
  const out: string[] = [];
  for (const file of [
    ...tsFiles(path.join(REPO_ROOT, "src", "extension")),
    ...tsFiles(path.join(REPO_ROOT, "webview")),
  ]) {
    fs.readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "");
        if (
          /^\s*(?:\*|\/\*\*)/.test(code) ||
          /\blog\.(?:info|warn|error)\(/.test(code) ||
          line.includes("l10n-ignore")
        ) {
          return;
        }
        const where = `${path.relative(REPO_ROOT, file)}:${i + 1}`;
        const thrown = file.startsWith(path.join(REPO_ROOT, "src")) && thrownLiteral.test(code);
        if (thrown || always.some((re) => re.test(code))) out.push(`${where}: ${code.trim()}`);
        for (const m of code.matchAll(shown)) {
          let inner = m[1].slice(1, -1);
          while (/\{[^{}]*\}/.test(inner)) inner = inner.replace(/\{[^{}]*\}/g, "");
          if (words.test(inner)) out.push(`${where}: ${m[0]}`);
        }
      });
  }
  return out;
}

describe("l10n: runtime strings", () => {
  it("l10n/bundle.l10n.json holds exactly the messages of the extension's l10n.t calls", () => {
    const r = check();
    assert.equal(r.status, 0, r.stderr);
    const bundle = JSON.parse(fs.readFileSync(BUNDLE, "utf8")) as Record<string, string>;
    assert.ok(Object.keys(bundle).length > 200, `only ${Object.keys(bundle).length} messages`);
    for (const [k, v] of Object.entries(bundle)) assert.equal(v, k, "the default bundle maps each message to itself");
  });

  it("the check fails on a message missing from the bundle and on a stale key, and names both", () => {
    const bundle = JSON.parse(fs.readFileSync(BUNDLE, "utf8")) as Record<string, string>;
    const dropped = "Which task?";
    assert.ok(dropped in bundle, `${dropped} is no longer a message; pick another`);
    delete bundle[dropped];
    bundle["A message no code uses any more"] = "A message no code uses any more";
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-l10n-"));
    try {
      const file = path.join(dir, "bundle.l10n.json");
      fs.writeFileSync(file, JSON.stringify(bundle, null, 2) + "\n");
      const r = check(file);
      assert.equal(r.status, 1, "an out-of-date bundle must fail the check");
      assert.match(r.stderr, /missing: "Which task\?"/);
      assert.match(r.stderr, /stale: "A message no code uses any more"/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every message numbers its placeholders {0}…{n-1} without gaps", () => {
    const bundle = JSON.parse(fs.readFileSync(BUNDLE, "utf8")) as Record<string, string>;
    const gaps = Object.keys(bundle).filter((m) => {
      const used = new Set([...m.matchAll(/\{(\d+)\}/g)].map((x) => Number(x[1])));
      return [...used].some((n) => n >= used.size);
    });
    assert.deepEqual(gaps, []);
  });

  it("src/extension and the webview show no English literal outside l10n.t", () => {
    assert.deepEqual(untranslated(), []);
  });
});
