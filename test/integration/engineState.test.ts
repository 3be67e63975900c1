/**
 * engine_state (ADR-0146) inside a real VS Code, through the generic source seam: a checkpoint
 * written by the real writer (test/fixtures/engine-state-*) is put into a workspace folder made
 * a git repository in the test's temp copy; the tree shows the manifest with its stale-revision
 * warning, Problems sit at the non-canonical lines, and the tree follows the writer replacing the
 * files by atomic rename and HEAD moving with a commit. The folder also holds .autodev/ (the
 * integration fixtures' Python-written ledger): one folder shows both sources. The setting
 * autodev.engineStateDir moves the source to another folder.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import type { StateApi } from "../../src/extension/extension";
import type { DefaultSourceFolder } from "../../src/extension/sources/defaultSourceFolder";
import { type AnyNode, autodevOf, childrenOf, eventually, extension } from "./helpers";
import { pollUntil } from "../helpers/poll";

const REPO = path.join(__dirname, "../../..");
const FIXTURES = path.join(REPO, "test/fixtures");

async function api(): Promise<StateApi> {
  const ext = extension();
  return (ext.isActive ? ext.exports : await ext.activate()) as StateApi;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "test",
  GIT_AUTHOR_EMAIL: "test@example.invalid",
  GIT_COMMITTER_NAME: "test",
  GIT_COMMITTER_EMAIL: "test@example.invalid",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" }).trim();
}

/** Replaces `file` the way the writer does: a temp file in the same folder, then rename. */
function atomicWrite(file: string, content: string | Buffer): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, content);
  fs.renameSync(tmp, file);
}

/** The manifest as the writer writes it: json.dumps(sort_keys=True, indent=2), no final newline. */
function manifest(revision: string, turns: number): string {
  return `{\n  "schema_version": 1,\n  "turn_count": ${turns},\n  "written_at_revision": "${revision}"\n}`;
}

describe("engine_state source in VS Code", function () {
  this.timeout(120_000);
  let folder: vscode.WorkspaceFolder;
  let dir: string;

  const engine = (a: StateApi) =>
    a.folders.of(folder).find((s) => s.kind === "engine_state") as DefaultSourceFolder | undefined;

  async function labelsOf(a: StateApi, node?: AnyNode): Promise<Array<{ node: AnyNode; item: vscode.TreeItem }>> {
    return (await childrenOf(a, node)).map((n) => ({ node: n, item: a.tree.getTreeItem(n) as vscode.TreeItem }));
  }

  async function engineRoot(a: StateApi): Promise<AnyNode> {
    const roots = await childrenOf(a);
    const found = roots.find((n) => n.kind === "sourceRoot" && n.state.kind === "engine_state" && n.state.cwd === dir);
    assert.ok(found, `no engine_state root among ${roots.map((n) => n.id).join(" | ")}`);
    return found;
  }

  async function manifestDescription(a: StateApi): Promise<string> {
    const top = await labelsOf(a, await engineRoot(a));
    return String(top.find((t) => t.item.label === "Manifest")?.item.description ?? "");
  }

  before(async () => {
    const a = await api();
    const folders = vscode.workspace.workspaceFolders ?? [];
    folder = folders[folders.length - 1];
    dir = folder.uri.fsPath;
    // A git repository in the temp copy, first commit, then the real writer's checkpoint.
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "first");
    fs.mkdirSync(path.join(dir, "engine_state"));
    for (const name of ["manifest.json", "recognizers.jsonl", "discovery_candidates.jsonl"]) {
      const from = name === "recognizers.jsonl" ? "engine-state-broken" : "engine-state-small";
      fs.copyFileSync(path.join(FIXTURES, from, "engine_state", name), path.join(dir, "engine_state", name));
    }
    await a.folders.refreshAll();
    assert.ok(await eventually(() => (engine(a)?.problems ?? null) !== null, 30_000), "engine_state was never read");
  });

  after(async () => {
    fs.rmSync(path.join(dir, "engine_state"), { recursive: true, force: true });
    fs.rmSync(path.join(dir, ".git"), { recursive: true, force: true });
    const a = await api();
    await a.folders.refreshAll();
  });

  it("shows the manifest with its stale revision beside HEAD, the counts and the lines", async () => {
    const a = await api();
    const head = git(dir, "rev-parse", "HEAD");
    assert.equal(await manifestDescription(a), `stale: written at 7ae1dd0…, HEAD is ${head.slice(0, 7)}…`);
    const top = await labelsOf(a, await engineRoot(a));
    assert.deepEqual(
      top.map((t) => t.item.label),
      ["Manifest", "Recognizers", "Discovery candidates"],
    );
    const recognizers = top.find((t) => t.item.label === "Recognizers");
    assert.ok(recognizers);
    assert.equal(recognizers.item.description, "4 · 4 problems");
    assert.equal(top[2].item.description, "4");
    const lines = await labelsOf(a, recognizers.node);
    assert.equal(lines.length, 4);
    const click = lines[1].item.command;
    assert.ok(click, "a line node opens its line");
    assert.deepEqual(click.arguments?.[1], { kind: "file", file: "engine_state/recognizers.jsonl", line: 2 });
  });

  it("puts Problems at the non-canonical lines and the stale warning on the manifest", async () => {
    const rec = vscode.Uri.file(path.join(dir, "engine_state/recognizers.jsonl"));
    const man = vscode.Uri.file(path.join(dir, "engine_state/manifest.json"));
    assert.ok(await eventually(() => vscode.languages.getDiagnostics(rec).length === 4, 20_000));
    const diags = vscode.languages.getDiagnostics(rec).map((d) => [d.range.start.line + 1, String(d.code), d.severity]);
    const E = vscode.DiagnosticSeverity.Error;
    assert.deepEqual(diags, [
      [1, "non_canonical_line", E],
      [2, "non_canonical_line", E],
      [3, "non_canonical_line", E],
      [4, "unloadable_line", E],
    ]);
    const stale = vscode.languages.getDiagnostics(man);
    assert.deepEqual(
      stale.map((d) => [d.range.start.line + 1, String(d.code), d.severity]),
      [[4, "stale_revision", vscode.DiagnosticSeverity.Warning]],
    );
  });

  it("follows the writer replacing the files by atomic rename, and HEAD moving", async () => {
    const a = await api();
    const head = git(dir, "rev-parse", "HEAD");
    // The writer checkpoints at HEAD: fresh, canonical recognizers.
    atomicWrite(
      path.join(dir, "engine_state/recognizers.jsonl"),
      fs.readFileSync(path.join(FIXTURES, "engine-state-small/engine_state/recognizers.jsonl")),
    );
    atomicWrite(path.join(dir, "engine_state/manifest.json"), manifest(head.slice(0, 12), 43));
    assert.ok(
      await eventually(() => (engine(a)?.problems ?? [null]).length === 0, 30_000),
      JSON.stringify(engine(a)?.problems),
    );
    assert.equal(await manifestDescription(a), "schema 1 · turn 43");
    const rec = vscode.Uri.file(path.join(dir, "engine_state/recognizers.jsonl"));
    assert.ok(await eventually(() => vscode.languages.getDiagnostics(rec).length === 0, 20_000));

    // A commit moves HEAD: the checkpoint goes stale without any write to engine_state/.
    fs.writeFileSync(path.join(dir, "moved.txt"), "HEAD moves\n");
    git(dir, "add", "moved.txt");
    git(dir, "commit", "-q", "-m", "second");
    const next = git(dir, "rev-parse", "HEAD");
    assert.ok(
      await eventually(() => engine(a)?.problems?.some((p) => p.code === "stale_revision") === true, 30_000),
      `HEAD move not seen: ${JSON.stringify({ problems: engine(a)?.problems, globs: engine(a)?.source.watchGlobs, generation: engine(a)?.generation, head: git(dir, "rev-parse", "HEAD") })}`,
    );
    assert.equal(await manifestDescription(a), `stale: written at ${head.slice(0, 7)}…, HEAD is ${next.slice(0, 7)}…`);
  });

  it("shows AutoDev, agloop and engine_state side by side for the same folder (every registered source)", async () => {
    const a = await api();
    const kindsOfFolder = async (): Promise<string[]> => {
      const roots = await childrenOf(a);
      const ofFolder = roots.filter(
        (n) => (n.kind === "root" && n.folder.cwd === dir) || (n.kind === "sourceRoot" && n.state.cwd === dir),
      );
      return ofFolder.map((n) => (n.kind === "sourceRoot" ? n.state.kind : "autodev"));
    };
    assert.deepEqual(await kindsOfFolder(), ["autodev", "engine_state"]);
    // agloop's hooks create the folder first, then its files: the third source joins the same folder.
    const agloop = path.join(dir, ".agloop");
    fs.mkdirSync(agloop);
    try {
      fs.cpSync(path.join(FIXTURES, "agloop-clean", ".agloop"), agloop, { recursive: true });
      await a.folders.refreshAll();
      let kinds: string[] = [];
      await pollUntil(async () => (kinds = await kindsOfFolder()).length >= 3, 30_000, 200);
      assert.deepEqual(kinds, ["autodev", "agloop", "engine_state"]);
      assert.ok(
        autodevOf(a).folders.folders.some((f) => f.cwd === dir),
        "the AutoDev adapter has the folder too",
      );
    } finally {
      fs.rmSync(agloop, { recursive: true, force: true });
      await a.folders.refreshAll();
    }
  });

  it("follows autodev.engineStateDir to another folder", async () => {
    const a = await api();
    const moved = path.join(dir, "state", "engine");
    fs.mkdirSync(moved, { recursive: true });
    fs.copyFileSync(
      path.join(FIXTURES, "engine-state-unknown/engine_state/manifest.json"),
      path.join(moved, "manifest.json"),
    );
    const config = vscode.workspace.getConfiguration("autodev");
    await config.update("engineStateDir", "state/engine", vscode.ConfigurationTarget.Workspace);
    try {
      assert.ok(
        await eventually(
          () => engine(a)?.source.relDir === "state/engine" && engine(a)?.problems?.length === 0,
          30_000,
        ),
        `relDir ${engine(a)?.source.relDir}`,
      );
      assert.ok(
        await eventually(
          () => engine(a)?.tree.some((n) => n.label === "Manifest" && n.description === "schema 1 · turn 0") === true,
          30_000,
        ),
      );
    } finally {
      await config.update("engineStateDir", undefined, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(path.join(dir, "state"), { recursive: true, force: true });
    }
    assert.ok(await eventually(() => engine(a)?.source.relDir === "engine_state", 30_000), "back to engine_state/");
  });
});
