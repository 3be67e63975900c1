/**
 * The CLI executable's code cache (src/cli/cliEntry.ts): the built dist/cli.js
 * in a child process writes V8's cached data into the user's cache folder after
 * its first run, gives the same answers with it, and neither reads nor writes a
 * folder that others could write to, nor anything when turned off.
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Module } from "node:module";
import { REPO_ROOT } from "../fixtures";

/** Node ≥ 22.1 keeps its own compile cache (its own file layout) in the folder instead of ours. */
const NATIVE = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === "function";

const CLI = path.join(REPO_ROOT, "dist/cli.js");
const FIXTURE = path.join(REPO_ROOT, "test/fixtures/python-evidence");

function cli(env: NodeJS.ProcessEnv, ...args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** Files under `dir`, recursively (relative paths). */
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile())
    : [];

describe("CLI code cache (dist/cli.js) @slow", function () {
  this.timeout(60_000);
  let base: string;
  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-cc-"));
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it("writes the cache after the first run and gives the same answer from it", () => {
    const dir = path.join(base, "cache");
    const env = { AUTODEV_STATE_CACHE_DIR: dir, AUTODEV_STATE_COMPILE_CACHE: "" };
    const first = cli(env, "verify", FIXTURE, "--json");
    assert.equal(first.code, 0, first.err);
    const cached = filesUnder(dir);
    assert.ok(cached.length >= 1, "a cache file was written");
    if (!NATIVE) {
      assert.equal(cached.length, 1, `one cache file expected, found ${cached.join(", ")}`);
      assert.match(cached[0], /cliVerify\.js-v\d+\.\d+\.\d+-[a-z0-9]+-\d+-\d+\.cache$/);
      assert.ok(fs.statSync(path.join(dir, cached[0])).size > 10_000, "the cache holds compiled code");
    }
    const second = cli(env, "verify", FIXTURE, "--json");
    assert.equal(second.code, 0, second.err);
    assert.equal(second.out, first.out);
    assert.deepEqual(filesUnder(dir), cached, "a valid cache is kept as it is");
    assert.equal(fs.statSync(path.join(dir, "v8")).mode & 0o077, 0, "the folder is the user's alone");
  });

  it("ignores a cache folder others can write to, and a cache that is not V8's", function () {
    const dir = path.join(base, "shared");
    fs.mkdirSync(path.join(dir, "v8"), { recursive: true });
    fs.chmodSync(path.join(dir, "v8"), 0o777);
    const r = cli({ AUTODEV_STATE_CACHE_DIR: dir, AUTODEV_STATE_COMPILE_CACHE: "" }, "verify", FIXTURE, "--json");
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(filesUnder(dir), [], "nothing written into a world-writable folder");

    if (NATIVE) return; // Node's own cache checks its files itself
    const own = path.join(base, "own");
    const env = { AUTODEV_STATE_CACHE_DIR: own, AUTODEV_STATE_COMPILE_CACHE: "" };
    const good = cli(env, "verify", FIXTURE, "--json");
    const [name] = filesUnder(own);
    fs.writeFileSync(path.join(own, name), "not a code cache");
    const again = cli(env, "verify", FIXTURE, "--json");
    assert.equal(again.code, 0, again.err);
    assert.equal(again.out, good.out);
    assert.ok(fs.statSync(path.join(own, name)).size > 10_000, "a rejected cache is written anew");
  });

  it("writes nothing when turned off", () => {
    const dir = path.join(base, "off");
    const r = cli({ AUTODEV_STATE_CACHE_DIR: dir, AUTODEV_STATE_COMPILE_CACHE: "0" }, "--version");
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^autodev-state \d/);
    assert.equal(fs.existsSync(dir), false);
  });

  it("ignores a relative XDG_CACHE_HOME or AUTODEV_STATE_CACHE_DIR: nothing is written in the current folder", () => {
    const home = path.join(base, "home");
    const cwd = path.join(base, "workspace");
    fs.mkdirSync(home);
    fs.mkdirSync(cwd);
    for (const env of [
      { XDG_CACHE_HOME: "cache", AUTODEV_STATE_CACHE_DIR: "" },
      { XDG_CACHE_HOME: "", AUTODEV_STATE_CACHE_DIR: "own-cache" },
    ]) {
      const r = spawnSync(process.execPath, [CLI, "verify", FIXTURE, "--json"], {
        encoding: "utf8",
        cwd,
        env: { ...process.env, ...env, HOME: home, AUTODEV_STATE_COMPILE_CACHE: "" },
      });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(fs.readdirSync(cwd), [], `${JSON.stringify(env)}: the current folder stays empty`);
      assert.ok(filesUnder(path.join(home, ".cache/autodev-state")).length >= 1, "the cache is in ~/.cache");
      fs.rmSync(path.join(home, ".cache"), { recursive: true });
    }
  });
});
