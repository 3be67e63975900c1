// The source seam, checked on the source text: a state source is its folders
// (src/core/sources/<kind>/, src/cli/sources/<kind>/, src/extension/sources/<kind>/) plus one
// registration line per layer. No other file of src/ imports a source's folder: generic code
// (the worker, the timeline, the folder registry, the tree, the status bar, Problems, the CLI's
// table) talks to the StateSource contract and the adapters only. A source's folder may import
// generic code and its own folders, never another source's. src/sample/ (the demo generator) is no
// engine: it writes each source's files on purpose and is not checked.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { relativeImportsIn, sourceFiles } from "./guards.test";
import { STATE_SOURCES } from "../../../src/core/sources/sourceRegistry";
import { SOURCE_MANIFESTS } from "../../../src/core/sources/manifestRegistry";
import { REPO_ROOT } from "../fixtures";

/** The files allowed to name sources: one registration file per layer (core: manifests and engines). */
const REGISTRATIONS = new Set([
  "src/core/sources/manifestRegistry.ts",
  "src/core/sources/sourceRegistry.ts",
  "src/cli/sources/cliSources.ts",
  "src/extension/sources/sourceAdapters.ts",
]);

/** The folders that hold sources, per layer. */
const SOURCE_ROOTS = ["src/core/sources", "src/cli/sources", "src/extension/sources"];

/** The .ts files below `dir` (the guards' source-file walk, TypeScript only). */
function tsFiles(dir: string): string[] {
  return sourceFiles(dir).filter((f) => f.endsWith(".ts"));
}

const posix = (p: string) => p.split(sep).join("/");

/** The source kind a repository-relative path belongs to ("autodev"), or null for generic code. */
export function sourceKindOf(rel: string): string | null {
  for (const root of SOURCE_ROOTS) {
    if (!rel.startsWith(`${root}/`)) continue;
    const rest = rel.slice(root.length + 1);
    const slash = rest.indexOf("/");
    return slash < 0 ? null : rest.slice(0, slash);
  }
  return null;
}

/** Every import of `files` that crosses the seam: generic → a source, or one source → another. */
export function seamViolations(root: string, files: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of files) {
    const rel = posix(relative(root, file));
    if (REGISTRATIONS.has(rel)) continue;
    const own = sourceKindOf(rel);
    for (const spec of relativeImportsIn(readFileSync(file, "utf8"))) {
      const target = posix(relative(root, resolve(dirname(file), spec)));
      const kind = sourceKindOf(target) ?? sourceKindOf(`${target}.ts`);
      if (kind !== null && kind !== own) out.push(`${rel} → ${spec}`);
    }
  }
  return out.sort();
}

describe("activation follows detection", () => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { activationEvents?: string[] };
  const events = manifest.activationEvents ?? [];
  const contains = events.filter((e) => e.startsWith("workspaceContains:")).map((e) => e.slice(18));

  it("every registered source's detect globs are activation events, and nothing else is", () => {
    const globs = STATE_SOURCES.flatMap((s) => s.detectGlobs ?? []);
    assert.ok(globs.length >= 7, "the sources declare their detect globs");
    assert.deepEqual(
      globs.filter((g) => !contains.includes(g)),
      [],
      "detected but not activated on: add workspaceContains:<glob> to package.json",
    );
    assert.deepEqual(
      contains.filter((g) => !globs.includes(g)),
      [],
      "activated on a file no source detects by",
    );
  });

  it("opening the view activates too (a source found only through a setting, as engine_state's folder)", () => {
    assert.ok(events.includes("onView:autodev.plan"));
  });
});

describe("the source seam", () => {
  it("the kind finder tells source folders from generic files", () => {
    assert.equal(sourceKindOf("src/core/sources/autodev/ledger/replay.ts"), "autodev");
    assert.equal(sourceKindOf("src/extension/sources/agloop/x.ts"), "agloop");
    assert.equal(sourceKindOf("src/cli/sources/autodev/readCommands.ts"), "autodev");
    assert.equal(sourceKindOf("src/core/sources/stateSource.ts"), null);
    assert.equal(sourceKindOf("src/extension/sources/stateFolders.ts"), null);
    assert.equal(sourceKindOf("src/core/worker/stateWorker.ts"), null);
  });

  it("flags a generic file that imports a source, and one source importing another", () => {
    const root = mkdtempSync(join(tmpdir(), "seam-guard-"));
    const write = (rel: string, text: string) => {
      mkdirSync(dirname(join(root, rel)), { recursive: true });
      writeFileSync(join(root, rel), text);
      return join(root, rel);
    };
    try {
      const files = [
        write("src/extension/tree.ts", `import { AutodevFolder } from "./sources/autodev/autodevFolder";`),
        write("src/core/sources/agloop/a.ts", `import type { Plan } from "../autodev/plan/schemas";`),
        write("src/core/sources/autodev/b.ts", `import { x } from "./c";\nimport { y } from "../stateSource";`),
        write("src/core/sources/sourceRegistry.ts", `import { autodevSource } from "./autodev/autodevSource";`),
      ];
      assert.deepEqual(seamViolations(root, files), [
        "src/core/sources/agloop/a.ts → ../autodev/plan/schemas",
        "src/extension/tree.ts → ./sources/autodev/autodevFolder",
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("no generic file imports a source's folder; only the registration files name sources", () => {
    const files = tsFiles(join(REPO_ROOT, "src")).filter(
      (f) => !posix(relative(REPO_ROOT, f)).startsWith("src/sample/"),
    );
    assert.ok(files.length > 100, "src/ has its files");
    assert.deepEqual(seamViolations(REPO_ROOT, files), []);
  });

  it("the CLI and the engine take nothing from the demo generator (src/sample/)", () => {
    const offenders: string[] = [];
    for (const dir of ["src/cli", "src/core"]) {
      for (const f of tsFiles(join(REPO_ROOT, dir))) {
        for (const spec of relativeImportsIn(readFileSync(f, "utf8"))) {
          const target = posix(relative(REPO_ROOT, resolve(dirname(f), spec)));
          if (target.startsWith("src/sample/")) offenders.push(`${posix(relative(REPO_ROOT, f))} → ${spec}`);
        }
      }
    }
    assert.deepEqual(offenders, []);
  });

  it("the manifests the host knows are the engines' own, in the engines' order", () => {
    assert.deepEqual(
      SOURCE_MANIFESTS.map((m) => m.kind),
      STATE_SOURCES.map((s) => s.kind),
      "manifestRegistry.ts and sourceRegistry.ts list the same kinds in the same order",
    );
    const fields = ["displayName", "detectGlobs", "liveFiles", "settings", "commands", "timelineFeatures"] as const;
    for (const [i, m] of SOURCE_MANIFESTS.entries()) {
      const s = STATE_SOURCES[i];
      for (const f of fields) assert.deepEqual(s[f], m[f], `${m.kind}: the engine's ${f} is its manifest's`);
    }
  });

  it("every registration file exists (a renamed one would silently allow nothing)", () => {
    for (const rel of REGISTRATIONS) assert.ok(existsSync(join(REPO_ROOT, rel)), `${rel} is missing`);
  });
});
