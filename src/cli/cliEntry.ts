/**
 * `dist/cli.js`, the `autodev-state` executable: a small loader that runs the
 * CLI (`dist/cliMain.js`, built from main.ts; for a plain `verify`, the
 * verify-only `dist/cliVerify.js`, built from sources/autodev/verifyMain.ts) through V8's code cache, so a
 * fresh process does not compile the 1.4 MB bundle again each time (about
 * 25 ms of a 10 MB verify's 100; see docs/benchmarks.md).
 *
 * - Node ≥ 22.1: Node's own compile cache (`module.enableCompileCache`).
 * - Older Node: the bundle is compiled with `vm.Script` and the cached data
 *   of the last run; after a run that had none (or whose data V8 rejected:
 *   another Node or V8 flags), the data is written for the next run.
 *
 * The cache is the user's own: `$AUTODEV_STATE_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/autodev-state`, else `~/.cache/autodev-state` (a relative
 * value of either variable is ignored, as the XDG spec says) — a folder
 * of this user's, not group- or world-writable, or nothing is read from or
 * written to it. Nothing is ever written in the workspace. A missing,
 * unreadable or stale cache only costs the compile. `AUTODEV_STATE_COMPILE_CACHE=0`
 * turns it off.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vm from "node:vm";
import { Module } from "node:module";

/** The CLI module's exports this loader calls. */
interface CliMain {
  runCli(argv: readonly string[]): Promise<number>;
  exitAfterOutput(code: number): void;
}

/** The cache folder, created when missing; null when caching is off or the folder is not this user's alone. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.AUTODEV_STATE_COMPILE_CACHE === "0") return null;
  // A relative value would put the cache in the current folder (perhaps the workspace): the XDG
  // Base Directory spec says to ignore it, and so is a relative AUTODEV_STATE_CACHE_DIR.
  const absolute = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
  const own = absolute(env.AUTODEV_STATE_CACHE_DIR);
  const base = own ?? path.join(absolute(env.XDG_CACHE_HOME) ?? path.join(os.homedir(), ".cache"), "autodev-state");
  const dir = path.join(base, "v8");
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    const mine = typeof process.getuid !== "function" || st.uid === process.getuid();
    return st.isDirectory() && mine && (st.mode & 0o022) === 0 ? dir : null;
  } catch {
    return null;
  }
}

/** Loads `file` (a CommonJS bundle) through the V8 code cache kept in `dir`. */
function loadCached(file: string, dir: string): CliMain {
  const source = fs.readFileSync(file, "utf8");
  const st = fs.statSync(file);
  const key = `${path.basename(file)}-${process.version}-${process.arch}-${st.size}-${Math.floor(st.mtimeMs)}.cache`;
  const cacheFile = path.join(dir, key);
  let cachedData: Buffer | undefined;
  try {
    const c = fs.lstatSync(cacheFile);
    if (c.isFile() && c.size < 64 << 20) cachedData = fs.readFileSync(cacheFile);
  } catch {
    // none yet
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected === true) {
    // After the run, so the data also holds the functions this run compiled.
    process.once("exit", () => {
      try {
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(tmp, cacheFile);
      } catch {
        // a cache that cannot be written is only a slower next start
      }
    });
  }
  const m = new Module(file, module);
  m.filename = file;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(m.exports, m.exports, (id: string) => m.require(id), m, file, path.dirname(file));
  m.loaded = true;
  return m.exports as CliMain;
}

/**
 * True when the verify-only bundle (sources/autodev/verifyMain.ts, `dist/cliVerify.js`) runs `argv` exactly as the
 * whole CLI would: it starts with `verify` and holds no `--help` / `-h` (the whole CLI's help).
 */
export function isVerifyOnly(argv: readonly string[]): boolean {
  return argv[0] === "verify" && !argv.includes("--help") && !argv.includes("-h");
}

/** The bundle next to this file that runs `argv`: the verify-only one when it can, else the whole CLI. */
export function bundleFor(argv: readonly string[]): string {
  return path.join(__dirname, isVerifyOnly(argv) ? "cliVerify.js" : "cliMain.js");
}

/** Loads a CLI bundle (the whole CLI by default), through the compile cache when there is one. */
export function loadCli(file: string = path.join(__dirname, "cliMain.js")): CliMain {
  const dir = compileCacheDir();
  const native = (Module as unknown as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (dir !== null && typeof native === "function") {
    native(dir);
    return module.require(file) as CliMain;
  }
  if (dir === null) return module.require(file) as CliMain;
  return loadCached(file, dir);
}

if (require.main === module) {
  const cli = loadCli(bundleFor(process.argv.slice(2)));
  cli.runCli(process.argv.slice(2)).then(
    (code) => cli.exitAfterOutput(code),
    (e) => {
      process.stderr.write(`${String(e)}\n`);
      cli.exitAfterOutput(70);
    },
  );
}
