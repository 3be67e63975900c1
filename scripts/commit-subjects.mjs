// Checks that every commit subject since the rule began is at most 72 characters, so that
// `git log --oneline` stays readable (CONTRIBUTING.md, "Commits"). Part of `npm run lint`.
//
//   node scripts/commit-subjects.mjs            checks RULE_START..HEAD
//   node scripts/commit-subjects.mjs REV        checks REV..HEAD
//
// Without git history (a tarball, a shallow clone that lacks RULE_START) it says why it checked
// nothing and exits 0: the rule is about history, and there is none to read.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

/** The last commit before the rule: its subjects and older ones are history, not checked. */
const RULE_START = "a60f49f";
const MAX_SUBJECT = 72;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const start = process.argv[2] ?? RULE_START;

function git(...args) {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

let log;
try {
  git("rev-parse", "--verify", "--quiet", `${start}^{commit}`);
  log = git("log", "--format=%h%x09%s", `${start}..HEAD`);
} catch {
  console.log(`commit subjects: not checked (no git history with ${start} here)`);
  process.exit(0);
}

const long = log
  .split("\n")
  .filter(Boolean)
  .map((line) => line.split("\t"))
  .filter(([, subject]) => [...subject].length > MAX_SUBJECT);
if (long.length > 0) {
  console.error(`commit subjects over ${MAX_SUBJECT} characters (put the detail in the body):`);
  for (const [hash, subject] of long) console.error(`  ${hash} (${[...subject].length}): ${subject}`);
  process.exit(1);
}
console.log(
  `commit subjects: ${log.split("\n").filter(Boolean).length} since ${start}, each ≤ ${MAX_SUBJECT} characters`,
);
