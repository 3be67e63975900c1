/**
 * Rules of the test suites that mocha alone does not keep: a test is skipped only through
 * `skipUnless` (test/helpers/environmentNeeds.ts), which prints what the machine lacks and leaves the
 * test pending, never passed; no `it.skip`, `xit`, `describe.skip` or bare `this.skip()` anywhere.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

const SKIP_HELPER = "test/helpers/environmentNeeds.ts";

/** Every TypeScript file under test/ except the fixtures, relative to the repository. */
function testSources(dir = "test"): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (rel !== "test/fixtures") out.push(...testSources(rel));
    } else if (entry.name.endsWith(".ts")) {
      out.push(rel);
    }
  }
  return out;
}

const NOBODY_HELPER = "test/helpers/asNobody.ts";
const SELF = "test/unit/rules/suiteRules.test.ts";

describe("test suite rules", () => {
  it("runs a program as another user only through asNobody.ts, which stages it where that user reaches", () => {
    const offenders = testSources().filter(
      (file) =>
        file !== NOBODY_HELPER &&
        file !== SELF &&
        /["'`]setpriv["'`]/.test(fs.readFileSync(path.join(REPO_ROOT, file), "utf8")),
    );
    assert.deepEqual(offenders, [], `run as nobody through nobodyStage (${NOBODY_HELPER})`);
    assert.match(fs.readFileSync(path.join(REPO_ROOT, NOBODY_HELPER), "utf8"), /spawnSync\("setpriv"/);
  });

  it("no test is skipped except through skipUnless, which says why", () => {
    const skips =
      /\b(?:it|describe|context|specify|test)\.skip\s*\(|\bx(?:it|describe|context|specify)\s*\(|\.skip\(\s*\)/;
    const offenders: string[] = [];
    for (const file of testSources()) {
      if (file === SKIP_HELPER) continue;
      fs.readFileSync(path.join(REPO_ROOT, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (!/^\s*(\*|\/\/)/.test(line) && skips.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    assert.deepEqual(offenders, [], "skip through skipUnless(this, available, need) instead");
    assert.match(fs.readFileSync(path.join(REPO_ROOT, SKIP_HELPER), "utf8"), /console\.log\(`\s*skipped \(needs/);
  });
});
