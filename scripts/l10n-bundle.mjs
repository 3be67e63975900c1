// Writes l10n/bundle.l10n.json: every string the extension passes to vscode.l10n.t(...) (and the
// timeline webview to its own l10n.t, webview/l10n.ts, which reads the same bundle from the host), as
// VS Code's localization convention expects (a translator copies it to bundle.l10n.<lang>.json).
// The same collection `@vscode/l10n-dev export` makes, without the dependency: the messages must be
// plain string literals ("…", '…' or `…` without ${}), with {0}, {1}… for the arguments.
//
//   node scripts/l10n-bundle.mjs                         rewrite l10n/bundle.l10n.json
//   node scripts/l10n-bundle.mjs --check [--bundle FILE]  exit 1 when the bundle (default l10n/bundle.l10n.json)
//                                                        is not up to date, naming the missing and stale keys
//                                                        (a unit test runs this)
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const bundleArg = process.argv.indexOf("--bundle");
const BUNDLE =
  bundleArg > 0 && process.argv[bundleArg + 1] ? process.argv[bundleArg + 1] : join(ROOT, "l10n", "bundle.l10n.json");

function tsFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Every message of `l10n.t(` calls under src/extension/ and webview/, sorted; throws on a call whose message is not a literal. */
export function collectMessages() {
  const messages = new Set();
  const call = /\b(?:l10n\.t|msg)\(\s*/g;
  const files = ["extension", "core"].flatMap((d) => tsFiles(join(ROOT, "src", d)));
  for (const file of [...files, ...tsFiles(join(ROOT, "webview"))]) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(call)) {
      const rest = text.slice(m.index + m[0].length);
      const lit = /^(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\$]|\\.)*)`)/.exec(rest);
      if (!lit) {
        throw new Error(
          `${relative(ROOT, file)}: l10n.t( must take a string literal (at ${text.slice(0, m.index).split("\n").length})`,
        );
      }
      const raw = lit[1] ?? lit[2] ?? lit[3];
      messages.add(lit[1] !== undefined ? JSON.parse(`"${raw}"`) : raw.replace(/\\(.)/g, "$1"));
    }
  }
  return [...messages].sort();
}

const messages = collectMessages();
const text = JSON.stringify(Object.fromEntries(messages.map((m) => [m, m])), null, 2) + "\n";
if (process.argv.includes("--check")) {
  let current = "";
  try {
    current = readFileSync(BUNDLE, "utf8");
  } catch {
    /* missing */
  }
  if (current !== text) {
    let keys = [];
    try {
      keys = Object.keys(JSON.parse(current));
    } catch {
      /* missing or not JSON: every message is missing */
    }
    const missing = messages.filter((m) => !keys.includes(m));
    const stale = keys.filter((k) => !messages.includes(k));
    console.error(`${relative(ROOT, BUNDLE)} is out of date: run \`node scripts/l10n-bundle.mjs\``);
    for (const m of missing) console.error(`  missing: ${JSON.stringify(m)}`);
    for (const k of stale) console.error(`  stale: ${JSON.stringify(k)}`);
    process.exit(1);
  }
} else {
  mkdirSync(dirname(BUNDLE), { recursive: true });
  writeFileSync(BUNDLE, text);
  console.log(`l10n/bundle.l10n.json: ${Object.keys(JSON.parse(text)).length} messages`);
}
