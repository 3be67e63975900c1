/**
 * The house's rooms say what they hold (issue 33, CONTRIBUTING.md "Layout"): no folder of the
 * code, the tests, the scripts or the benchmarks holds more than {@link MAX_FILES_IN_FOLDER} files
 * of its own (a larger one is split by capability), no production file (src/, webview/) is over
 * {@link MAX_LINES} lines, and every path of scripts/ that the manifest, CI, the editor's tasks
 * and the docs name, and every relative import between the scripts, reaches a file, so a move
 * cannot leave a command pointing nowhere.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT } from "../fixtures";

/** Files a folder may hold directly ("about 15"). */
const MAX_FILES_IN_FOLDER = 15;
/** Lines a production file may have. */
const MAX_LINES = 400;
/** The folders whose every subfolder is held to the file count (test fixtures are data, not rooms). */
const ROOMS = ["src", "webview", "test", "scripts", "bench"];
const NOT_ROOMS = new Set(["test/fixtures"]);

/** Every folder under `rel` (itself included), as repository-relative POSIX paths. */
function folders(rel: string): string[] {
  if (NOT_ROOMS.has(rel)) return [];
  const out = [rel];
  for (const e of fs.readdirSync(path.join(REPO_ROOT, rel), { withFileTypes: true })) {
    if (e.isDirectory()) out.push(...folders(path.posix.join(rel, e.name)));
  }
  return out;
}

/** The files directly in `rel`. */
function filesIn(rel: string): string[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, rel), { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.posix.join(rel, e.name));
}

const read = (rel: string) => fs.readFileSync(path.join(REPO_ROOT, rel), "utf8");

describe("layout: rooms that say what they hold", () => {
  it(`no folder of ${ROOMS.join(", ")} holds more than ${MAX_FILES_IN_FOLDER} files`, () => {
    const crowded = ROOMS.flatMap(folders)
      .map((f) => ({ f, n: filesIn(f).length }))
      .filter(({ n }) => n > MAX_FILES_IN_FOLDER)
      .map(({ f, n }) => `${f}: ${n}`);
    assert.deepEqual(crowded, []);
  });

  it(`no production file (src/, webview/) is over ${MAX_LINES} lines`, () => {
    const long = ["src", "webview"]
      .flatMap(folders)
      .flatMap(filesIn)
      .filter((f) => f.endsWith(".ts"))
      .map((f) => ({ f, n: read(f).split("\n").length - (read(f).endsWith("\n") ? 1 : 0) }))
      .filter(({ n }) => n > MAX_LINES)
      .map(({ f, n }) => `${f}: ${n}`);
    assert.deepEqual(long, []);
  });

  it("every scripts/ path the manifest, CI, the editor's tasks and the docs name is a file", () => {
    const namers = [
      "package.json",
      ".ci/run",
      ".vscode/tasks.json",
      ".vscode/launch.json",
      "CONTRIBUTING.md",
      "README.md",
    ];
    namers.push(
      ...folders("docs")
        .flatMap(filesIn)
        .filter((f) => f.endsWith(".md")),
    );
    const missing: string[] = [];
    let named = 0;
    for (const file of namers.filter((f) => fs.existsSync(path.join(REPO_ROOT, f)))) {
      for (const m of read(file).matchAll(/\bscripts\/[\w./-]+\.(?:mjs|cjs)\b/g)) {
        named++;
        if (!fs.existsSync(path.join(REPO_ROOT, m[0]))) missing.push(`${file}: ${m[0]}`);
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(named > 10, `${named} paths named`);
  });

  it("every relative import between the scripts reaches a file", () => {
    const broken: string[] = [];
    for (const file of folders("scripts")
      .flatMap(filesIn)
      .filter((f) => /\.(mjs|cjs)$/.test(f))) {
      for (const m of read(file).matchAll(/(?:from\s+|import\(|require\()["'](\.{1,2}\/[^"']+)["']/g)) {
        const target = path.posix.join(path.posix.dirname(file), m[1]);
        if (!fs.existsSync(path.join(REPO_ROOT, target))) broken.push(`${file}: ${m[1]}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it("the UI runners wait for a condition (scripts/ui/poll.mjs), never a fixed sleep", () => {
    const sleeps = folders("scripts")
      .flatMap(filesIn)
      .filter((f) => /\.(mjs|cjs|js)$/.test(f))
      .flatMap((f) =>
        read(f)
          .split("\n")
          .flatMap((line, i) => (/\.waitForTimeout\(/.test(line) ? [`${f}:${i + 1}`] : [])),
      );
    assert.deepEqual(sleeps, []);
  });
});
