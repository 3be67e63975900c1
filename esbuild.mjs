// Builds the two bundles (extension host: Node/CommonJS with `vscode` external; webview: browser IIFE)
// plus the headless CLI, and (with --tests / --bench) the test and benchmark entry points.
// Flags: --watch, --production (minify, no source maps), --tests, --bench.
import * as esbuild from "esbuild";
import { zodEnglishOnly } from "./scripts/esbuildPlugins.cjs";
import { copyFileSync, cpSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

const args = new Set(process.argv.slice(2));
const production = args.has("--production");
const watch = args.has("--watch");

/** Every `*.ts` file below `dir`, recursively. */
function tsFilesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...tsFilesUnder(full));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/**
 * Every bundled module that imports `vscode` or a Node built-in gets its own copy of that module's
 * exports from esbuild (`__toESM(require(…))` per importing file: 67 copies of the `vscode` API, 75
 * of `node:fs`/`node:path` in the extension bundle, about 17 ms of the host's activation). Routed
 * through one `export * from` module per name, each bundle copies each of them once.
 */
const sharedExternals = {
  name: "shared-externals",
  setup(build) {
    build.onResolve({ filter: /^(vscode|node:[a-z_/]+)$/ }, (a) =>
      a.namespace === "shared-external"
        ? { path: a.path, external: true }
        : { path: a.path, namespace: "shared-external" },
    );
    build.onLoad({ filter: /.*/, namespace: "shared-external" }, (a) => ({
      contents: `export * from ${JSON.stringify(a.path)};`,
      loader: "js",
    }));
  },
};

const nodeCommon = {
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  sourcemap: !production,
  minify: production,
  logLevel: "info",
  external: ["vscode"],
  plugins: [sharedExternals, zodEnglishOnly],
};

/** The extension host bundle, the CLI and the verify worker. */
const extensionContext = {
  ...nodeCommon,
  entryPoints: {
    // dist/extension.js (package.json's "main") is a small loader that turns on Node's compile cache
    // and then loads the extension itself, dist/extensionMain.js (src/extension/extensionEntry.ts).
    extension: "src/extension/extensionEntry.ts",
    extensionMain: "src/extension/extension.ts",
    // The executable is a small loader that runs the CLI bundle through V8's code cache.
    cli: "src/cli/cliEntry.ts",
    cliMain: "src/cli/main.ts",
    // `verify` alone (the loader picks it for a plain verify): a third of the whole CLI to load.
    cliVerify: "src/cli/sources/autodev/verifyMain.ts",
    stateWorker: "src/core/worker/stateWorker.ts",
    ledgerSegmentWorker: "src/core/sources/autodev/ledger/read/ledgerSegmentWorker.ts",
    makeDemo: "src/sample/demoWorkspace.ts",
  },
  // The loader requires the extension bundle at run time (it is an output, not a source).
  external: [...nodeCommon.external, "./extensionMain.js"],
  outdir: "dist",
};

/** The webview bundle: browser, no Node built-ins. */
const webviewContext = {
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "es2022",
  sourcemap: !production,
  minify: production,
  logLevel: "info",
  entryPoints: { timeline: "webview/timeline/main.ts", graph: "webview/graph/main.ts" },
  outdir: "dist/webview",
};

const contexts = [extensionContext, webviewContext];
if (args.has("--tests")) {
  // out/ is the tests' module-per-file copy: a file moved or deleted in the tree would stay there
  // from an older build, and mocha's glob would run the stale copy too. Built afresh each time.
  rmSync("out", { recursive: true, force: true });
  contexts.push({
    ...nodeCommon,
    bundle: false,
    external: undefined, // esbuild rejects "external" without "bundle"
    plugins: [],
    entryPoints: [...tsFilesUnder("test"), ...tsFilesUnder("src"), ...tsFilesUnder("bench")],
    outdir: "out",
    outbase: ".",
    // Unbundled, an `import("./x")` would stay a native ESM import of an extensionless path; as a
    // require() it resolves like every other import of out/ (the CLI loads its commands this way).
    supported: { "dynamic-import": false },
    format: "cjs",
    logLevel: "warning",
  });
  // The crash tests start a writer process per SIGKILL: as one bundle it starts in about half the
  // CPU time of the module-per-file out/ copy (and runs the code as the shipped bundles do).
  contexts.push({
    ...nodeCommon,
    entryPoints: { "writerChild.bundle": "test/unit/helpers/writerChild.ts" },
    outdir: "out/test/unit/helpers",
    logLevel: "warning",
  });
}
if (args.has("--bench")) {
  // The bench and the small scripts it measures against (each its own bundle, so a fresh process of
  // the floor or a reference loads only what it runs).
  contexts.push({
    ...nodeCommon,
    entryPoints: {
      run: "bench/run.ts",
      graphReport: "bench/graphReport.ts",
      floor: "bench/process/floor.ts",
      jsonParse: "bench/process/jsonParse.ts",
      processStats: "bench/process/processStats.ts",
      confinedAppend: "bench/process/confinedAppend.ts",
      refreshProfile: "bench/process/refreshProfile.ts",
      "editor/editorHost": "bench/editor/editorHost.ts",
      "editor/soakHost": "bench/editor/soakHost.ts",
    },
    outdir: "dist/bench",
  });
}

/**
 * Bundles this build no longer makes (a dropped entry, as the graph worker's) would stay in dist/ from
 * an older build, and the .vsix test would find a bundle the .vscodeignore does not list: gone.
 */
function removeStaleBundles() {
  mkdirSync("dist", { recursive: true });
  const made = new Set(Object.keys(extensionContext.entryPoints).map((name) => `${name}.js`));
  for (const name of readdirSync("dist")) {
    const stale = /\.js(\.map)?$/.test(name) && !made.has(name.replace(/\.map$/, ""));
    if (stale) rmSync(join("dist", name), { force: true });
  }
}
removeStaleBundles();

/** The webview's icon font: @vscode/codicons' stylesheet and font, next to each other in dist/media/. */
function copyCodicons() {
  const from = join("node_modules", "@vscode", "codicons", "dist");
  mkdirSync(join("dist", "media"), { recursive: true });
  for (const name of ["codicon.css", "codicon.ttf"]) copyFileSync(join(from, name), join("dist", "media", name));
}
copyCodicons();

/**
 * The demo workspace's `.agloop/` and `engine_state/` (src/sample/demoSources.ts): the fixtures the
 * real writers produced, copied as they are to dist/demo/, which the .vsix ships (test/ does not).
 */
function copyDemoSources() {
  const from = {
    agloop: "test/fixtures/agloop-lifecycle/05-critique-gate/.agloop",
    engine_state: "test/fixtures/engine-state-small/engine_state",
    // The recorded AutoDev run's files the demo's inline state is derived from (src/sample/demoInline.ts).
    "autodev-real-run/inline-state.json":
      "test/fixtures/autodev-real-run/12-1.2-reviewer-waiting/workspace/.autodev/inline-state.json",
    "autodev-real-run/reviewer.md":
      "test/fixtures/autodev-real-run/12-1.2-reviewer-waiting/workspace/.autodev/delegations/1.2-reviewer.md",
  };
  rmSync(join("dist", "demo"), { recursive: true, force: true });
  for (const [name, src] of Object.entries(from)) cpSync(src, join("dist", "demo", name), { recursive: true });
}
copyDemoSources();

if (watch) {
  for (const options of contexts) {
    const ctx = await esbuild.context(options);
    await ctx.watch();
  }
  console.log("[esbuild] watching…");
} else {
  await Promise.all(contexts.map((options) => esbuild.build(options)));
}
