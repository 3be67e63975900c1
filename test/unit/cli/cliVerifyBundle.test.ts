/**
 * The verify-only bundle (src/cli/sources/autodev/verifyMain.ts, dist/cliVerify.js): the executable dist/cli.js
 * runs it for a command line that starts with `verify` and asks for no help, and it must print and
 * exit exactly as the whole CLI (dist/cliMain.js) does — answers, findings, usage errors and their
 * hints, bad limit options, missing folders. Help still comes from the whole CLI.
 */
import { strict as assert } from "node:assert";
import { execFile, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Module } from "node:module";
import { REPO_ROOT, copyFixture } from "../fixtures";

const NATIVE = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === "function";
const DIST = path.join(REPO_ROOT, "dist");

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** `node -e` code: loads bundle argv[2] through the loader argv[1], runs argv[3…] with it. */
const WHOLE_CLI =
  "const c = require(process.argv[1]).loadCli(process.argv[2]);" +
  "c.runCli(process.argv.slice(3)).then((code) => c.exitAfterOutput(code));";

/** Runs a bundle in a child, as `run` does, without waiting for it (the cases run side by side). */
function runAsync(script: string, args: readonly string[], cache: string): Promise<Ran> {
  return new Promise((resolve) => {
    const env = { ...process.env, AUTODEV_STATE_CACHE_DIR: cache, AUTODEV_STATE_COMPILE_CACHE: "" };
    // The whole CLI through the executable's own loader (so through the code cache too), run as main.
    const argv =
      script === "cliMain.js"
        ? ["-e", WHOLE_CLI, path.join(DIST, "cli.js"), path.join(DIST, script), ...args]
        : [path.join(DIST, script), ...args];
    execFile(process.execPath, argv, { encoding: "utf8", env }, (e, out, err) => {
      const code = e === null ? 0 : typeof e.code === "number" ? e.code : null;
      resolve({ code, out, err });
    });
  });
}

function run(script: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Ran {
  const r = spawnSync(process.execPath, [path.join(DIST, script), ...args], {
    encoding: "utf8",
    env: { ...process.env, AUTODEV_STATE_COMPILE_CACHE: "0", ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("CLI verify-only bundle (dist/cliVerify.js) @slow", function () {
  this.timeout(120_000);
  let broken: string;
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "autodev-verify-bundle-"));
    broken = copyFixture("python-small");
    const ledger = path.join(broken, ".autodev/plan-ledger.jsonl");
    const lines = fs.readFileSync(ledger, "utf8").split("\n");
    lines[2] = lines[2].replace('"seq": 3', '"seq": 30');
    fs.writeFileSync(ledger, lines.join("\n"));
  });
  after(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.rmSync(broken, { recursive: true, force: true });
  });

  it("prints and exits as the whole CLI does for every kind of verify command line", async () => {
    const fixture = (name: string) => path.join(REPO_ROOT, "test/fixtures", name);
    const lines: string[][] = [
      ["verify", fixture("python-small"), "--json"],
      ["verify", fixture("python-unicode")],
      ["verify", fixture("python-evidence"), "--json"],
      ["verify", broken, "--json"],
      ["verify", broken],
      ["verify", fixture("python-small"), "--expect-head", "not-a-head"],
      ["verify", fixture("python-small"), "--expect-head", "1:0000000000000000", "--json"],
      ["verify", fixture("python-small"), "--bogus"],
      ["verify", fixture("python-small"), "extra", "args"],
      ["verify", fixture("python-full")],
      ["verify", path.join(tmp, "missing"), "--json"],
      ["verify", "--max-line-mb", "0", fixture("python-small")],
      ["verify", "--max-line-mb=1", fixture("python-small"), "--json"],
    ];
    const cache = path.join(tmp, "shared-cache");
    // The cache is written by the first run of each bundle: one of each first, then all at once.
    await runAsync("cliMain.js", ["--version"], cache);
    await runAsync("cli.js", lines[0], cache);
    const ran = await Promise.all(
      lines.map(async (args) => [await runAsync("cliMain.js", args, cache), await runAsync("cli.js", args, cache)]),
    );
    ran.forEach(([whole, exe], k) => assert.deepEqual(exe, whole, `autodev-state ${lines[k].join(" ")}`));
    // The cases above reach every exit a verify can give here: ok, broken, usage error, no .autodev/.
    assert.deepEqual([...new Set(ran.map(([whole]) => whole.code))].sort(), [0, 1, 2]);
  });

  it("is the bundle a plain verify loads; help and other commands load the whole CLI", function () {
    const fixture = path.join(REPO_ROOT, "test/fixtures/python-small");
    const help = run("cli.js", ["verify", "--help"]);
    assert.equal(help.code, 0, help.err);
    assert.equal(help.out, run("cliMain.js", ["help", "verify"]).out);
    assert.match(help.out, /^usage: autodev-state verify /);
    if (NATIVE) return; // Node's own compile cache names its files itself
    const cacheOf = (args: string[]): string[] => {
      const dir = fs.mkdtempSync(path.join(tmp, "cache-"));
      const r = run("cli.js", args, { AUTODEV_STATE_CACHE_DIR: dir, AUTODEV_STATE_COMPILE_CACHE: "" });
      assert.notEqual(r.code, null, r.err);
      return fs.readdirSync(path.join(dir, "v8")).map((f) => f.replace(/-v\d.*$/, ""));
    };
    assert.deepEqual(cacheOf(["verify", fixture, "--json"]), ["cliVerify.js"]);
    assert.deepEqual(cacheOf(["verify", fixture, "-h"]), ["cliMain.js"]);
    assert.deepEqual(cacheOf(["status", fixture]), ["cliMain.js"]);
    assert.deepEqual(cacheOf(["--max-line-mb", "4", "verify", fixture]), ["cliMain.js"]);
  });
});
