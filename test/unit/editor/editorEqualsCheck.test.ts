/**
 * The editor shows what the CLI composes, on every fixture folder (the real-run snapshots of Python
 * AutoDev, the Python-written samples, agloop's and engine_state's fixtures, the hostile ones, the
 * demo workspace), through the real adapters (`createAdapters`, AutoDev's own included), the
 * folder registry and `StateDiagnostics`, with the worker's dispatcher answering in this thread:
 *
 * - Problems: exactly the problems `checkDir` (the CLI's `check`) returns for the folder — same
 *   file, line, severity, code and message, nothing more and nothing less. Default settings; the
 *   editor-only findings (a rewritten history against a head remembered by an earlier session, a
 *   lost pinned head) need such a session and do not arise here.
 * - The tree: under each source's root, exactly the nodes of the source's core `tree` (the
 *   `StateSource` the CLI and the worker load) — label, description, icon, click target and
 *   children, in order — besides what only the editor adds (AutoDev's evidence under tasks and its
 *   plan evidence group in place of the core's plan-phase evidence node, info rows such as time
 *   travel).
 */
import { fakeCollections } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as vscode from "vscode";
import { checkDir } from "../../../src/cli/sourceCommands";
import { detectSources } from "../../../src/core/sources/sourceCheck";
import { displayLine } from "../../../src/core/text/displayText";
import { labelText } from "../../../src/core/text/untrustedText";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { PLAN_EVIDENCE_NODE } from "../../../src/core/sources/autodev/tree/planSummary";
import type { SourceFolder, StateNode } from "../../../src/extension/sources/sourceAdapter";
import { EditorSession, allFixtureWorkspaces, openEditor } from "../helpers/editorSession";

/** One shown problem, as comparable text: file, 0-based line, severity, code, message. */
type Shown = string;
const SEVERITY = ["error", "warning", "info"];

/** The diagnostics the editor shows for files under `dir`. */
function shownIn(dir: string): Shown[] {
  const out: Shown[] = [];
  for (const [uri, diags] of fakeCollections.get("autodev") ?? []) {
    const file = uri.replace(/^file:\/\//, "");
    if (!file.startsWith(`${dir}${path.sep}`)) continue;
    const rel = path.relative(dir, file);
    for (const d of diags) out.push(`${rel}:${d.range.start.line} ${SEVERITY[d.severity]} ${d.code} ${d.message}`);
  }
  return out.sort();
}

/** `check --json`'s problems for `dir`, as the editor would show each. */
async function checkedIn(dir: string): Promise<Shown[]> {
  const doc = await checkDir(dir);
  return (doc?.sources ?? [])
    .flatMap((s) => s.problems)
    .map((p) => {
      const rel = path.relative(dir, path.resolve(dir, p.file));
      return `${rel}:${Math.max(0, (p.line ?? 1) - 1)} ${p.severity} ${p.code} ${displayLine(p.message)}`;
    })
    .sort();
}

/** A tree as comparable text: one line per node (depth, label, description, icon, click target), in order. */
type Tree = string[];

function line(depth: number, label: string, description: unknown, icon: string, target: unknown): string {
  return `${"  ".repeat(depth)}${label} | ${description ?? ""} | ${icon} | ${target === undefined ? "" : JSON.stringify(target)}`;
}

/** The core tree of a source, as the editor would render each node (one plain line), without `skip`ped ids. */
function coreLines(nodes: readonly SourceTreeNode[], skip: ReadonlySet<string>, depth = 0): Tree {
  return nodes
    .filter((n) => !skip.has(n.id))
    .flatMap((n) => [
      line(
        depth,
        labelText(n.label, 400),
        n.description === undefined ? undefined : labelText(n.description, 400),
        `${n.icon?.id ?? ""}${n.icon?.color ? `/${n.icon.color}` : ""}`,
        // A pending step's click opens its delegation as a preview in the editor (autodevTreeItems.ts).
        n.contextValue === "autodevStep.waiting" ? undefined : n.target,
      ),
      ...coreLines(n.children ?? [], skip, depth + 1),
    ]);
}

/** The editor's nodes of that core tree under the folder's root: AutoDev's contributed and info rows left out. */
async function editorLines(session: EditorSession, folder: SourceFolder): Promise<Tree> {
  const tree = session.adapterOf(folder.kind).tree;
  const out: Tree = [];
  const walk = async (nodes: StateNode[], depth: number): Promise<void> => {
    for (const n of nodes) {
      const k = (n as { kind: string }).kind;
      if (!["phase", "task", "node", "sourceNode"].includes(k)) continue;
      const item = tree.item(n, false);
      const icon = item.iconPath as vscode.ThemeIcon | undefined;
      const color = (icon?.color as { id?: string } | undefined)?.id;
      const args = item.command?.arguments;
      const last: unknown = args?.[args.length - 1];
      const target = last !== null && typeof last === "object" ? last : undefined;
      out.push(
        line(depth, String(item.label), item.description, `${icon?.id ?? ""}${color ? `/${color}` : ""}`, target),
      );
      await walk(await tree.children(n), depth + 1);
    }
  };
  await walk(await tree.children(tree.roots(folder)[0]), 0);
  return out;
}

describe("the editor shows check --json's problems and the core tree, on every fixture folder @slow", function () {
  this.timeout(120_000);
  let tmp = "";
  let workspaces: string[] = [];
  let editor: EditorSession | undefined;

  before(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "editor-check-")));
    workspaces = await allFixtureWorkspaces(tmp);
    editor = await openEditor(workspaces);
  });

  after(() => {
    editor?.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("finds the fixture folders (real runs, samples, hostile, demo)", () => {
    const names = workspaces.map((w) => path.relative(tmp, w));
    assert.ok(names.filter((n) => n.includes("autodev-real-run")).length >= 20, names.join(", "));
    for (const want of [
      "fixtures/hostile",
      "hostile/ledger-fifo",
      "fixtures/python-small",
      "fixtures/agloop-broken",
      "demo",
    ]) {
      assert.ok(
        names.some((n) => n.startsWith(want)),
        `${want} in ${names.join(", ")}`,
      );
    }
  });

  it("shows exactly the core tree in each (AutoDev's evidence and info rows besides)", async () => {
    const differ: string[] = [];
    let compared = 0;
    for (const dir of workspaces) {
      for (const { source, location } of await detectSources(dir)) {
        const folder = editor!.folders.all.find((f) => f.kind === source.kind && f.cwd === dir);
        assert.ok(folder, `${source.kind} in ${dir} is open in the editor`);
        const core = coreLines(await source.tree(location), new Set([PLAN_EVIDENCE_NODE]));
        const shown = await editorLines(editor!, folder);
        compared += core.length;
        if (JSON.stringify(core) !== JSON.stringify(shown)) {
          const at = core.findIndex((l, i) => shown[i] !== l);
          differ.push(
            `${path.relative(tmp, dir)} (${source.kind}), first difference at node ${at}:\n  core:   ${core[at] ?? "-"}\n  editor: ${shown[at] ?? "-"}`,
          );
        }
      }
    }
    assert.deepEqual(differ, []);
    // Not vacuous: the real runs alone have hundreds of nodes.
    assert.ok(compared >= 1000, `only ${compared} nodes compared`);
  });

  it("shows exactly check's problems in each", async () => {
    const differ: string[] = [];
    let compared = 0;
    for (const dir of workspaces) {
      const shown = shownIn(dir);
      const checked = await checkedIn(dir);
      compared += checked.length;
      if (process.env.EDITOR_CHECK_DEBUG) console.log(path.relative(tmp, dir), checked.length, shown.length);
      const extra = shown.filter((s) => !checked.includes(s));
      const missing = checked.filter((c) => !shown.includes(c));
      if (extra.length || missing.length || shown.length !== checked.length) {
        differ.push(
          `${path.relative(tmp, dir)}:\n  only in the editor: ${extra.join("\n    ") || "-"}\n  only in check: ${missing.join("\n    ") || "-"}`,
        );
      }
    }
    assert.deepEqual(differ, []);
    // Not vacuous: the hostile, broken and real-run folders do have problems.
    assert.ok(compared >= 50, `only ${compared} problems compared`);
  });
});
