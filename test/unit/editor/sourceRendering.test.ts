/**
 * The default adapter's renderers on a fake source (with a stand-in for the
 * vscode module): the state tree's wrapped nodes and items
 * (codicons, theme colours, click targets, reveal by id, parents), and
 * Problems at file:line with codes and severities, replaced on every read.
 */
import { fakeCollections } from "../helpers/fakeVscode";
import { strict as assert } from "node:assert";
import type { SourceProblem, SourceTreeNode } from "../../../src/core/sources/stateSource";
import type { DefaultSourceFolder } from "../../../src/extension/sources/defaultSourceFolder";
import type { StateFolders } from "../../../src/extension/sources/stateFolders";
import { SourceTreeModel } from "../../../src/extension/sources/sourceTreeModel";
import { StateDiagnostics } from "../../../src/extension/sources/sourceDiagnostics";
import { EventEmitter } from "node:events";

const TREE: SourceTreeNode[] = [
  {
    id: "tasks",
    label: "Tasks",
    expanded: true,
    children: [
      {
        id: "task|T-1",
        label: "T-1 First",
        description: "done",
        icon: { id: "pass-filled", color: "testing.iconPassed" },
        children: [],
        target: { kind: "file", file: ".fake/state.json", line: 7 },
      },
      {
        id: "task|T-2",
        label: "T-2 Second",
        icon: { id: "circle-large-outline" },
        children: [{ id: "task|T-2|dep|T-1", label: "depends on T-1", target: { kind: "reveal", nodeId: "task|T-1" } }],
      },
    ],
  },
];

/** A DefaultSourceFolder-shaped object with what the renderers read. */
function fakeState(
  problems: SourceProblem[] | null,
  tree: SourceTreeNode[] = TREE,
  generation = 1,
): DefaultSourceFolder {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const p of problems ?? []) counts[p.severity]++;
  return {
    key: "file:///ws|fake",
    kind: "fake",
    displayName: "Fake",
    cwd: "/ws",
    folder: { name: "ws", uri: { toString: () => "file:///ws", fsPath: "/ws" } },
    source: {
      kind: "fake",
      displayName: "Fake",
      relDir: ".fake",
      dir: "/ws/.fake",
      watchGlobs: [".fake/**"],
      hasTimeline: false,
    },
    problems,
    tree,
    error: null,
    generation,
    counts,
    timelineRows: null,
  } as unknown as DefaultSourceFolder;
}

describe("generic source rendering", () => {
  it("wraps the source tree with window-unique ids and parents, and renders icons, colours and clicks", () => {
    const model = new SourceTreeModel();
    const state = fakeState([{ file: ".fake/state.json", line: 3, severity: "error", code: "bad", message: "m" }]);
    const root = model.root(state);
    const rootItem = model.item(root, false) as unknown as { label: string; description: string; contextValue: string };
    assert.equal(rootItem.label, "Fake");
    assert.equal(rootItem.description, ".fake · 1 error");
    assert.equal(rootItem.contextValue, "sourceRoot.fake");
    const [tasks] = model.children(root);
    assert.equal(tasks.kind, "sourceNode");
    const kids = model.children(tasks);
    assert.deepEqual(
      kids.map((k) => k.id),
      ["file:///ws|fake|task|T-1", "file:///ws|fake|task|T-2"],
    );
    const item = model.item(kids[0] as never, false) as unknown as {
      collapsibleState: number;
      description: string;
      iconPath: { id: string; color?: { id: string } };
      command: { command: string; arguments: unknown[] };
    };
    assert.equal(item.description, "done");
    assert.deepEqual([item.iconPath.id, item.iconPath.color?.id], ["pass-filled", "testing.iconPassed"]);
    assert.equal(item.collapsibleState, 1, "a node with a children array is collapsible");
    assert.deepEqual(item.command.arguments, ["file:///ws|fake", { kind: "file", file: ".fake/state.json", line: 7 }]);
    assert.equal(item.command.command, "autodev.openSourceTarget");
    const found = model.find(state, "task|T-1");
    assert.equal(found, kids[0], "reveal finds the same node object the tree rendered");
    assert.equal((found as { parent: unknown }).parent, tasks);
    const leaf = model.find(state, "task|T-2|dep|T-1")!;
    assert.equal((model.item(leaf, false) as unknown as { collapsibleState: number }).collapsibleState, 0);
  });

  it("rebuilds when the source's generation changes, shows Loading before the first read", () => {
    const model = new SourceTreeModel();
    const loading = fakeState(null, [], 0);
    const first = model.children(model.root(loading));
    assert.deepEqual(
      first.map((n) => n.kind === "sourceInfo" && n.label),
      ["Loading…"],
    );
    const read = fakeState([], [{ id: "x", label: "X" }], 1);
    assert.deepEqual(
      model.children(model.root(read)).map((n) => n.id),
      ["file:///ws|fake|x"],
    );
  });

  it("puts problems in Problems at file:line with code, severity and source, and replaces them on the next read", () => {
    const changes = new EventEmitter();
    let current = fakeState([
      {
        file: ".fake/state.json",
        line: 12,
        severity: "error",
        code: "invalid_enum",
        message: "status must be one of …",
      },
      { file: ".fake/state.json", line: null, severity: "warning", code: "stray", message: "w" },
      { file: ".fake/log.json", line: 2, column: 5, severity: "info", code: "i", message: "i" },
      { file: "../outside.json", line: 1, severity: "error", code: "escape", message: "never shown" },
    ]);
    const sources = {
      get all() {
        return [current];
      },
      onDidChange: (l: (s: DefaultSourceFolder | undefined) => void) => {
        changes.on("change", l);
        return { dispose: () => changes.off("change", l) };
      },
    } as unknown as StateFolders;
    const diags = new StateDiagnostics(sources);
    changes.emit("change", current);
    const shown = fakeCollections.get("autodev")!;
    const state = shown.get("file:///ws/.fake/state.json")!;
    assert.deepEqual(
      state.map((d) => [d.range.start.line, d.severity, d.code, d.source]),
      [
        [11, 0, "invalid_enum", "Fake"],
        [0, 1, "stray", "Fake"],
      ],
    );
    assert.deepEqual(
      shown.get("file:///ws/.fake/log.json")!.map((d) => [d.range.start.line, d.range.start.character, d.severity]),
      [[1, 4, 2]],
    );
    assert.equal(
      [...shown.keys()].some((k) => k.includes("outside")),
      false,
      "a path out of the folder is never shown",
    );
    current = fakeState([{ file: ".fake/log.json", line: 1, severity: "warning", code: "w2", message: "w2" }], TREE, 2);
    changes.emit("change", current);
    assert.equal(shown.has("file:///ws/.fake/state.json"), false, "fixed problems go away");
    assert.deepEqual(
      shown.get("file:///ws/.fake/log.json")!.map((d) => d.code),
      ["w2"],
    );
    diags.dispose();
  });
});
