// Architecture guards, checked on the source text (plain Node, no VS Code needed):
//  - nothing under src/core/ imports `vscode` (the core also runs in the CLI and in workers);
//  - the commands package.json contributes and the ones src/extension/ registers are the same set;
//  - the manifest never activates on `*` and its menus only name contributed commands;
//  - every icon the code names (`icon: { id: "x" }`, `new ThemeIcon("x")`, `$(x)`) is a codicon
//    (an unknown id renders as a blank space, with no error anywhere).
//
// How a command id is recognised in src/extension/**/*.ts (keep to one of these):
//  - a literal "autodev.x" passed first to registerCommand / registerTextEditorCommand /
//    register / executeCommand (e.g. `commands.registerCommand("autodev.refresh", …)`);
//  - a literal "autodev.x" as the value of a `command:` / `commandId:` property or assigned to
//    `.command` (tree items, status bar items: what they run must exist and be contributed);
//  - a literal "autodev.x" as an object key (`registerAll({ "autodev.refresh": handler })`);
//  - any "autodev.x" literal in a file whose name contains "command" (commands.ts,
//    commandIds.ts, commandManager.ts): the place to list ids for a command-registry pattern.
// View ids, view-derived ids (`autodev.plan.focus`) and configuration keys are never command ids.
// tests/integration/commands.test.ts checks the same thing at runtime with getCommands(true).
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { STATE_SOURCES } from "../../../src/core/sources/sourceRegistry";

/** The repository root: the nearest folder above this file with the extension's package.json. */
function repoRoot(): string {
  let dir = __dirname;
  while (
    !existsSync(join(dir, "package.json")) ||
    !readFileSync(join(dir, "package.json"), "utf8").includes('"autodev-state"')
  ) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("repository root not found");
    dir = parent;
  }
  return dir;
}

const ROOT = repoRoot();
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** Source files (.ts/.mts/.cts/.js/.mjs/.cjs, not .d.ts) below `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(m|c)?(ts|js)$/.test(name) && !name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** The source with comments blanked out (string and template literals are kept as they are). */
export function stripComments(src: string): string {
  let out = "";
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    const next = src[i + 1];
    if (c === "/" && next === "/") {
      while (i < src.length && src[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = src.indexOf("*/", i + 2);
      const stop = end < 0 ? src.length : end + 2;
      out += src.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === "\\" ? 2 : 1;
      out += src.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Every way TypeScript/JavaScript can pull in the `vscode` module (or a subpath of it). */
const VSCODE_IMPORT =
  /(?:\bfrom\s*|\bimport\s*(?:\(\s*)?|\brequire\s*\(\s*|\bimport\s+\w+\s*=\s*require\s*\(\s*)["'`]vscode(?:\/[^"'`]*)?["'`]/;

/** Does this source text import `vscode` in any form (import, import type, export from, require)? */
export function importsVscode(src: string): boolean {
  return VSCODE_IMPORT.test(stripComments(src));
}

/** Every way TypeScript/JavaScript can pull in Node's `fs` (`fs`, `node:fs`, `fs/promises`, `node:fs/promises`). */
const FS_IMPORT =
  /(?:\bfrom\s*|\bimport\s*(?:\(\s*)?|\brequire\s*\(\s*|\bimport\s+\w+\s*=\s*require\s*\(\s*)["'`](?:node:)?fs(?:\/promises)?["'`]/;

/** Does this source text import Node's `fs` in any form? */
export function importsFs(src: string): boolean {
  return FS_IMPORT.test(stripComments(src));
}

/** The `autodev.*` ids that src/extension uses in command position (see the header). */
export function commandIdsIn(src: string, fileName: string): Set<string> {
  const code = stripComments(src);
  const ids = new Set<string>();
  const literal = String.raw`["'\`](autodev\.[A-Za-z0-9_.\-]+)["'\`]`;
  const patterns = [
    new RegExp(
      String.raw`\b(?:registerCommand|registerTextEditorCommand|register|executeCommand)\s*(?:<[^>]*>)?\(\s*${literal}`,
      "g",
    ),
    new RegExp(String.raw`\b(?:command|commandId)\s*:\s*${literal}`, "g"),
    new RegExp(String.raw`\.command\s*=\s*${literal}`, "g"),
    new RegExp(String.raw`${literal}\s*:`, "g"),
  ];
  if (/command/i.test(basename(fileName))) patterns.push(new RegExp(literal, "g"));
  for (const pattern of patterns) for (const m of code.matchAll(pattern)) ids.add(m[1]);
  return ids;
}

/** The relative module specifiers a source text imports, exports from or requires. */
export function relativeImportsIn(src: string): string[] {
  const code = stripComments(src);
  const out: string[] = [];
  for (const m of code.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)["'`](\.{1,2}\/[^"'`]*)["'`]/g,
  )) {
    out.push(m[1]);
  }
  return out;
}

/** Ids that look like commands but are not: views, view-derived commands, settings. */
function nonCommandIds(): Set<string> {
  const ids = new Set<string>();
  const views = Object.values((manifest.contributes?.views ?? {}) as Record<string, Array<{ id: string }>>).flat();
  for (const { id } of views) {
    ids.add(id);
    for (const suffix of ["focus", "resetViewLocation", "toggleVisibility", "removeView", "open"]) {
      ids.add(`${id}.${suffix}`);
    }
  }
  const configs = [manifest.contributes?.configuration ?? []].flat() as Array<{ properties?: object }>;
  for (const config of configs) for (const key of Object.keys(config.properties ?? {})) ids.add(key);
  return ids;
}

describe("guards", () => {
  describe("the extension host does no file I/O: the state worker does it all", () => {
    it("the fs import detector recognises every form", () => {
      for (const form of [
        `import * as fs from "node:fs";`,
        `import { readFileSync } from 'fs';`,
        `import * as fsp from "node:fs/promises";`,
        `import type { Stats } from "fs";`,
        `const fs = require("fs");`,
        `const m = await import("node:fs");`,
      ]) {
        assert.ok(importsFs(form), `not detected: ${form}`);
      }
      for (const harmless of [`// import * as fs from "node:fs";`, `import { x } from "./fsLike";`, `"node:fs"`]) {
        assert.ok(!importsFs(harmless), `false alarm: ${harmless}`);
      }
    });

    it("no file under src/extension imports fs", () => {
      const offenders = sourceFiles(join(ROOT, "src/extension"))
        .filter((f) => importsFs(readFileSync(f, "utf8")))
        .map((f) => relative(ROOT, f));
      assert.deepEqual(offenders, [], "read and write state files through a state worker request");
    });

    it("VS Code's file service is used only where docs/architecture.md says, none of it a state file read", () => {
      // Each use is named in docs/architecture.md ("What the host still asks of VS Code's file service").
      const allowed = [
        "src/extension/demoWorkspaceCommand.ts: readDirectory", // is the chosen folder empty
        "src/extension/graph/runReportCommand.ts: writeFile", // the report, where the user chose
        "src/extension/watch/fileLook.ts: stat", // the echo check: size and mtime, never a read
      ];
      const uses = sourceFiles(join(ROOT, "src/extension")).flatMap((f) =>
        [...readFileSync(f, "utf8").matchAll(/workspace\.fs\.(\w+)/g)].map((m) => `${relative(ROOT, f)}: ${m[1]}`),
      );
      assert.deepEqual([...new Set(uses)].sort(), allowed, "read state files through a state worker request");
    });
  });

  describe("src/core is independent of VS Code", () => {
    it("the import detector recognises every form", () => {
      for (const form of [
        `import * as vscode from "vscode";`,
        `import type { Uri } from 'vscode';`,
        `import { type Uri } from "vscode"`,
        `export { Uri } from "vscode";`,
        `import "vscode";`,
        `const vscode = require("vscode");`,
        `import vscode = require("vscode");`,
        `const m = await import("vscode");`,
        `import {\n  window,\n} from\n  "vscode";`,
      ]) {
        assert.ok(importsVscode(form), `not detected: ${form}`);
      }
      for (const harmless of [
        `// import * as vscode from "vscode";`,
        `/* require("vscode") */`,
        `const name = "vscode-like";`,
        `import { x } from "./vscodeless";`,
      ]) {
        assert.ok(!importsVscode(harmless), `false alarm: ${harmless}`);
      }
    });

    it("no file under src/core imports vscode", () => {
      const files = sourceFiles(join(ROOT, "src", "core"));
      assert.ok(files.length > 0, "src/core has no source files");
      const offenders = files.filter((f) => importsVscode(readFileSync(f, "utf8"))).map((f) => relative(ROOT, f));
      assert.deepEqual(offenders, [], `these src/core files import vscode: ${offenders.join(", ")}`);
    });

    it("no file under src/core imports src/protocol*.ts, src/sample/ or src/extension/", () => {
      const protocols = readdirSync(join(ROOT, "src"))
        .filter((n) => /^protocol.*\.ts$/.test(n))
        .map((n) => join(ROOT, "src", n.replace(/\.ts$/, "")));
      assert.ok(protocols.length > 0, "src/protocol*.ts exists");
      const forbidden = [...protocols, join(ROOT, "src", "sample"), join(ROOT, "src", "extension")];
      const offenders: string[] = [];
      for (const f of sourceFiles(join(ROOT, "src", "core"))) {
        for (const spec of relativeImportsIn(readFileSync(f, "utf8"))) {
          const target = resolve(dirname(f), spec);
          if (forbidden.some((x) => target === x || target === `${x}.ts` || target.startsWith(x + sep))) {
            offenders.push(`${relative(ROOT, f)} → ${spec}`);
          }
        }
      }
      assert.deepEqual(
        offenders,
        [],
        `src/core must not depend on the protocol, the sample or the extension: ${offenders.join(", ")}`,
      );
    });

    it("the relative-import finder sees every form", () => {
      const src = `import type { A } from "../../protocol";\nexport { B } from '../x';\nconst c = require("./y");\nawait import("../z");\n// import "../commented";`;
      assert.deepEqual(relativeImportsIn(src), ["../../protocol", "../x", "./y", "../z"]);
    });

    it("the CLI and worker bundles do not require vscode", () => {
      for (const bundle of ["dist/cli.js", "dist/stateWorker.js"]) {
        const file = join(ROOT, bundle);
        if (!existsSync(file)) continue; // not built yet; `npm test` builds them first
        assert.ok(!/require\(["']vscode["']\)/.test(readFileSync(file, "utf8")), `${bundle} requires vscode`);
      }
    });
  });

  describe("commands: contributed ⇔ registered", () => {
    const contributed = new Set<string>(
      ((manifest.contributes?.commands ?? []) as Array<{ command: string }>).map((c) => c.command),
    );
    const ignored = nonCommandIds();
    const registered = new Set<string>();
    for (const file of sourceFiles(join(ROOT, "src", "extension"))) {
      for (const id of commandIdsIn(readFileSync(file, "utf8"), file)) if (!ignored.has(id)) registered.add(id);
    }
    // A source's palette commands (StateSource.commands) are registered by the generic sourceActionCommands.ts.
    for (const s of STATE_SOURCES) for (const c of s.commands ?? []) registered.add(c.command).add(c.nodeCommand);

    it("the command-id scanner recognises the supported patterns", () => {
      const src = `
        context.subscriptions.push(vscode.commands.registerCommand("autodev.a", run));
        manager.register('autodev.b', handler);
        item.command = { command: "autodev.c", title: "C" };
        statusItem.command = "autodev.d";
        commands.registerAll({ "autodev.e": () => refresh(), 'autodev.f': verify });
        const bar = window.createStatusBarItem("autodev.status", StatusBarAlignment.Left);
        await vscode.commands.executeCommand("setContext", "autodev.hasState", true);
        // registerCommand("autodev.commented", x)
        const viewType = "autodev.timeline";`;
      assert.deepEqual([...commandIdsIn(src, "extension.ts")].sort(), [
        "autodev.a",
        "autodev.b",
        "autodev.c",
        "autodev.d",
        "autodev.e",
        "autodev.f",
      ]);
      const registry = `export const COMMANDS = { refresh: "autodev.refresh", verify: "autodev.verify" } as const;`;
      assert.deepEqual([...commandIdsIn(registry, "commandIds.ts")].sort(), ["autodev.refresh", "autodev.verify"]);
    });

    it("every contributed command is registered in src/extension", () => {
      const missing = [...contributed].filter((id) => !registered.has(id)).sort();
      assert.deepEqual(missing, [], `contributed in package.json but never registered: ${missing.join(", ")}`);
    });

    it("every registered autodev.* command is contributed", () => {
      const extra = [...registered].filter((id) => !contributed.has(id)).sort();
      assert.deepEqual(extra, [], `registered in src/extension but not in contributes.commands: ${extra.join(", ")}`);
    });

    it("menus and keybindings name only contributed commands", () => {
      const menus = Object.values(
        (manifest.contributes?.menus ?? {}) as Record<string, Array<{ command?: string }>>,
      ).flat();
      const keys = (manifest.contributes?.keybindings ?? []) as Array<{ command?: string }>;
      const unknown = [...menus, ...keys]
        .map((m) => m.command)
        .filter((id): id is string => !!id && id.startsWith("autodev.") && !contributed.has(id));
      assert.deepEqual(unknown, [], `menus/keybindings name uncontributed commands: ${unknown.join(", ")}`);
    });
  });

  describe("manifest", () => {
    it("never activates on * and activates on the ledger", () => {
      const events = (manifest.activationEvents ?? []) as string[];
      assert.ok(!events.includes("*"), 'activationEvents must not contain "*"');
      assert.ok(events.includes("workspaceContains:.autodev/plan-ledger.jsonl"));
    });
  });

  it("names only icons that exist in the codicon font", () => {
    const library = readFileSync(join(ROOT, "node_modules/@vscode/codicons/dist/codiconsLibrary.ts"), "utf8");
    const known = new Set([...library.matchAll(/register\('([a-z0-9-]+)'/g)].map((m) => m[1]));
    assert.ok(known.size > 400, "the codicon list was not found");
    const unknown: string[] = [];
    const files = [...sourceFiles(join(ROOT, "src")), ...sourceFiles(join(ROOT, "webview"))];
    for (const file of files) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(/\bicon: \{ id: "([^"]+)"|ThemeIcon\("([^"]+)"|"\$\(([a-z0-9-]+)\)/g)) {
        const id = (m[1] ?? m[2] ?? m[3]).replace(/~[a-z]+$/, ""); // `sync~spin`: an icon with its animation
        if (!known.has(id)) unknown.push(`${relative(ROOT, file)}: ${id}`);
      }
    }
    for (const m of JSON.stringify(manifest).matchAll(/\$\(([a-z0-9-]+)\)/g)) {
      if (!known.has(m[1])) unknown.push(`package.json: ${m[1]}`);
    }
    assert.deepEqual(unknown, [], "icons that VS Code does not know (pick one from @vscode/codicons)");
  });

  it("a thrown value's message is taken in one place (core/text/errorText)", () => {
    const own = join(ROOT, "src/core/text/errorText.ts");
    const copies = sourceFiles(join(ROOT, "src"))
      .filter((f) => f !== own)
      .flatMap((f) =>
        [
          ...stripComments(readFileSync(f, "utf8")).matchAll(/\b(\w+) instanceof Error \? \1\.message : String\(\1\)/g),
        ].map(() => relative(ROOT, f)),
      );
    assert.deepEqual(copies, [], "use errorText(e) from src/core/text/errorText.ts");
  });
});
