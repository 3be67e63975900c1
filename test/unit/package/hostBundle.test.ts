/**
 * What the extension host's thread loads: dist/extension.js and the bundle it requires,
 * dist/extensionMain.js (built from src/extension/extension.ts), built here as the production build
 * makes them (minified, esbuild.mjs's plugins) with esbuild's metafile. The host carries the sources'
 * manifests, never their engines (which only the worker and the CLI load): no `<kind>Source.ts`, no
 * engine registry, no state file's schema (their zod schemas are built when the module loads: that
 * cost ~25 ms of the host's start), no yaml, no demo generator, no zod locale but English, and a
 * bounded size. zod itself stays for the host's own boundaries, loaded on first use: a setting a
 * person set and the review marks with zod's small build (`zod/mini`; a default setting needs no
 * check, so the host starts without zod), the rest (webview messages, command arguments, evidence
 * URIs) with the full API.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import * as esbuild from "esbuild";
import { REPO_ROOT } from "../fixtures";

/** The host's bound, bytes of minified code (issue 30 asks 400 KB; 262 KB since the state files' schemas left it). */
const HOST_BOUND = 280 * 1024;

/** The state files' schemas and the pydantic coercion they are built from (worker and CLI only). */
const SCHEMA_MODULES = new Set([
  "src/core/sources/autodev/plan/schemas.ts",
  "src/core/sources/autodev/evidence/evidenceSchemas.ts",
  "src/core/sources/autodev/inline/inlineSchemas.ts",
  "src/core/sources/autodev/pydanticLax.ts",
  "src/core/sources/autodev/validateJson.ts",
  "src/core/pyjson/pyCoerce.ts",
]);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { zodEnglishOnly } = require(path.join(REPO_ROOT, "scripts", "esbuildPlugins.cjs")) as {
  zodEnglishOnly: esbuild.Plugin;
};

/** Builds `entry` as esbuild.mjs's production build does; its inputs (repository-relative) and its size. */
async function bundleOf(
  entry: string,
): Promise<{ inputs: string[]; bytes: number; graph: esbuild.Metafile["inputs"] }> {
  const r = await esbuild.build({
    absWorkingDir: REPO_ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    external: ["vscode", "./extensionMain.js"],
    plugins: [zodEnglishOnly],
    write: false,
    metafile: true,
    outdir: path.join(REPO_ROOT, "out", "host-bundle-test"),
    logLevel: "silent",
  });
  const out = Object.values(r.metafile.outputs).find((o) => o.entryPoint)!;
  return {
    inputs: Object.keys(out.inputs).filter((k) => out.inputs[k].bytesInOutput > 0),
    bytes: out.bytes,
    graph: r.metafile.inputs,
  };
}

/** What of `inputs` the host must not carry, by rule. */
function engineParts(inputs: readonly string[]): Record<string, string[]> {
  const normal = inputs.map((p) =>
    p
      .split(path.sep)
      .join("/")
      .replace(/^.*node_modules\//, "node_modules/"),
  );
  return {
    "a source's engine (<kind>Source.ts)": normal.filter((p) => /^src\/core\/sources\/[^/]+\/[^/]+Source\.ts$/.test(p)),
    "the engine registry": normal.filter((p) => p === "src/core/sources/sourceRegistry.ts"),
    "a state file's schema": normal.filter((p) => SCHEMA_MODULES.has(p)),
    yaml: normal.filter((p) => p.startsWith("node_modules/yaml/")),
    "the demo generator": normal.filter((p) => p.startsWith("src/sample/")),
    "a zod locale but English": normal.filter((p) => /zod\/v4\/locales\/(?!en\.js)/.test(p)),
  };
}

/** Each import of a core module by a host file where that module reaches `fs` (directly or through its imports). */
function fsEdges(graph: esbuild.Metafile["inputs"]): string[] {
  const memo = new Map<string, boolean>();
  const reachesFs = (file: string, seen: Set<string>): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    if (seen.has(file) || !graph[file]) return false;
    seen.add(file);
    const v = graph[file].imports.some((i) => /^(node:)?fs(\/promises)?$/.test(i.path) || reachesFs(i.path, seen));
    memo.set(file, v);
    return v;
  };
  const out: string[] = [];
  for (const [file, input] of Object.entries(graph)) {
    if (!file.startsWith("src/extension/")) continue;
    for (const i of input.imports) {
      if (i.path.startsWith("src/core/") && reachesFs(i.path, new Set())) out.push(`${file} -> ${i.path}`);
    }
  }
  return out.sort();
}

describe("the host bundle carries no engine", function () {
  this.timeout(60_000);

  it("the checks see an engine where there is one (the CLI's bundle has all of it) @slow", async () => {
    const cli = engineParts((await bundleOf("src/cli/main.ts")).inputs);
    assert.ok(cli["a source's engine (<kind>Source.ts)"].length >= 3, "the CLI bundles every source's engine");
    assert.equal(cli["the engine registry"].length, 1);
    assert.ok(cli.yaml.length > 0, "the CLI reads YAML");
    assert.deepEqual(cli["a state file's schema"].sort(), [...SCHEMA_MODULES].sort(), "the CLI has every schema");
  });

  it("dist/extension.js and dist/extensionMain.js: no engine, no schema, no yaml, no demo, within the bound", async () => {
    const loader = await bundleOf("src/extension/extensionEntry.ts");
    const main = await bundleOf("src/extension/extension.ts");
    for (const [rule, found] of Object.entries(engineParts(main.inputs))) {
      assert.deepEqual(found, [], `the host bundle holds ${rule}`);
    }
    assert.deepEqual(
      fsEdges(main.graph),
      [],
      "host files that reach fs through core: read through a state worker request",
    );
    const fsUsers = Object.entries(main.graph)
      .filter(([, input]) => input.imports.some((i) => /^(node:)?fs(\/promises)?$/.test(i.path)))
      .map(([file]) => file);
    assert.deepEqual(fsUsers, [], "modules of the host bundle that import fs");
    const total = loader.bytes + main.bytes;
    assert.ok(total <= HOST_BOUND, `the host loads ${(total / 1024).toFixed(0)} KB, over ${HOST_BOUND / 1024} KB`);
  });
});

describe("the host starts without zod", function () {
  this.timeout(60_000);

  /** Loads out/src/extension/extension.js (a module per file) in a fresh process under the fake vscode, runs `then`, and counts what was loaded. */
  function loaded(then: string): { ours: number; full: number; mini: number } {
    // A fresh process: this one may hold zod already from other tests.
    const script = `
      const { fakeSettings } = require(${JSON.stringify(path.join(REPO_ROOT, "out/test/unit/helpers/fakeVscode.js"))});
      const { SettingsReader } = require(${JSON.stringify(path.join(REPO_ROOT, "out/src/extension/settings/settings.js"))});
      require(${JSON.stringify(path.join(REPO_ROOT, "out/src/extension/extension.js"))});
      const settings = new SettingsReader();
      ${then}
      const ours = Object.keys(require.cache).filter((k) => !k.includes("node_modules"));
      const zod = Object.keys(require.cache).filter((k) => k.includes(path.join("node_modules", "zod")));
      const full = zod.filter((k) => k.includes(path.join("zod", "v4", "classic")));
      const mini = zod.filter((k) => k.includes(path.join("zod", "v4", "mini")));
      process.stdout.write(JSON.stringify({ ours: ours.length, full: full.length, mini: mini.length }));`;
    return JSON.parse(
      execFileSync(process.execPath, ["-e", `const path = require("node:path");${script}`], { encoding: "utf8" }),
    ) as { ours: number; full: number; mini: number };
  }

  it("loading the extension and reading every setting at its default loads no zod", () => {
    const got = loaded(
      "settings.debounceMs(undefined); settings.maxLineBytes(); settings.verifyOnChange(undefined); settings.notifyWhenWaiting();",
    );
    assert.ok(got.ours > 50, `the extension's modules were loaded (${got.ours})`);
    assert.equal(got.mini, 0, "zod/mini loaded while the host starts with default settings");
    assert.equal(got.full, 0, "modules of zod's full API loaded with the extension");
  });

  it("a value a person set is checked with zod/mini (the full API still not loaded)", () => {
    const got = loaded(
      'fakeSettings.set("debounceMs", 5000); if (settings.debounceMs(undefined) !== 150) throw new Error("not checked");',
    );
    assert.ok(got.mini > 0, "zod/mini did not check the set value");
    assert.equal(got.full, 0, "modules of zod's full API loaded for a setting");
  });
});
