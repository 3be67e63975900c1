/**
 * The engine_state source end to end: detection (setting, environment, default; links and
 * paths out of the workspace refused without reading them; FIFOs never opened), HEAD read
 * from real git repositories (loose and packed refs, detached, worktrees, unborn) and the
 * stale-revision warning, the tree and the watch paths.
 */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { engineStateSource } from "../../../src/core/sources/engineState/engineStateSource";
import type { SourceLocation, SourceTreeNode } from "../../../src/core/sources/stateSource";
import {
  git,
  gitCommitAll,
  gitInitAndCommit,
  makeWorkspace,
  writeFiles,
  writerManifest,
} from "../../helpers/engineStateWorkspace";
import { copyFixture } from "../fixtures";

const MANIFEST = "engine_state/manifest.json";
const RECOGNIZER =
  '{"absent_features":{},"constant_features":{"relation":"has"},"pattern":[{"kind":"constant","token":"has"}],"teaching_set_id":"abc"}\n';

async function located(ws: string, options = {}): Promise<SourceLocation> {
  const location = await engineStateSource.detect(ws, options);
  assert.ok(location, "expected an engine_state source");
  return location;
}

async function codesAt(ws: string, options = {}): Promise<string[]> {
  return (await engineStateSource.check(await located(ws, options))).map((p) => `${p.file}:${p.line ?? "-"} ${p.code}`);
}

function manifestAt(revision: string, turns = 1): string {
  return writerManifest({ schema_version: 1, turn_count: turns, written_at_revision: revision });
}

function find(nodes: readonly SourceTreeNode[], label: string): SourceTreeNode {
  const node = nodes.find((n) => n.label === label);
  assert.ok(node, `no node ${label} in ${nodes.map((n) => n.label).join(", ")}`);
  return node;
}

describe("engine_state source", () => {
  describe("detection", () => {
    it("no folder is a clean slate: no source, no error; a stray file named engine_state is not a checkpoint", async () => {
      assert.equal(await engineStateSource.detect(makeWorkspace()), null);
      assert.equal(await engineStateSource.detect(makeWorkspace({ engine_state: "x" })), null);
      assert.equal(
        await engineStateSource.detect(makeWorkspace({ "other/manifest.json": "{}" }), {
          settings: { engineStateDir: "missing" },
        }),
        null,
      );
    });

    it("the setting wins over CORE_ENGINE_STATE_DIR, which wins over engine_state/, all relative to the workspace", async () => {
      const ws = makeWorkspace({ [MANIFEST]: "{}", "a/manifest.json": "{}", "b/c/manifest.json": "{}" });
      assert.equal((await located(ws)).relDir, "engine_state");
      assert.equal((await located(ws, { env: { CORE_ENGINE_STATE_DIR: "b/c" } })).relDir, "b/c");
      assert.equal(
        (await located(ws, { settings: { engineStateDir: "a" }, env: { CORE_ENGINE_STATE_DIR: "b/c" } })).relDir,
        "a",
      );
      const summary = await engineStateSource.summarize(await located(ws, { settings: { engineStateDir: "b/c" } }));
      assert.equal(summary.path, "b/c");
    });

    it("a configured folder outside the workspace, or a link out, is refused and never read", async () => {
      const outside = makeWorkspace({
        "state/manifest.json": '{"schema_version": 1, "written_at_revision": "SECRET"}',
        "state/recognizers.jsonl": RECOGNIZER,
      });
      const ws = makeWorkspace();
      const viaEnv = await located(ws, { env: { CORE_ENGINE_STATE_DIR: path.join(outside, "state") } });
      const viaLink = makeWorkspace();
      fs.symlinkSync(path.join(outside, "state"), path.join(viaLink, "engine_state"));
      for (const location of [viaEnv, await located(viaLink)]) {
        const problems = await engineStateSource.check(location);
        assert.deepEqual(
          problems.map((p) => [p.code, p.severity]),
          [["unreadable_folder", "error"]],
        );
        const summary = await engineStateSource.summarize(location);
        assert.equal(summary.recognizers, 0);
        assert.equal(summary.written_at_revision, null);
        assert.doesNotMatch(JSON.stringify([problems, await engineStateSource.tree(location)]), /SECRET/);
      }
    });

    it("files that are links out, FIFOs or folders are refused (unreadable_file) without opening them", async () => {
      const outside = makeWorkspace({ "secret.json": '{"written_at_revision": "SECRET"}' });
      const ws = makeWorkspace({ "engine_state/discovery_candidates.jsonl/x": "" });
      fs.symlinkSync(path.join(outside, "secret.json"), path.join(ws, MANIFEST));
      execFileSync("mkfifo", [path.join(ws, "engine_state/recognizers.jsonl")]);
      const problems = await engineStateSource.check(await located(ws));
      assert.deepEqual(
        problems.map((p) => `${path.basename(p.file)} ${p.code}`),
        [
          "discovery_candidates.jsonl unreadable_file",
          "manifest.json unreadable_file",
          "recognizers.jsonl unreadable_file",
        ],
      );
      assert.match(problems[0].message, /a directory/);
      assert.match(problems[1].message, /outside the workspace/);
      assert.match(problems[2].message, /FIFO/);
      assert.doesNotMatch(JSON.stringify(problems), /SECRET/);
    });

    it("a link to a file inside the workspace is read", async () => {
      const ws = makeWorkspace({ "keep/recognizers.jsonl": RECOGNIZER, [MANIFEST]: "" });
      fs.symlinkSync(path.join(ws, "keep/recognizers.jsonl"), path.join(ws, "engine_state/recognizers.jsonl"));
      assert.equal((await engineStateSource.summarize(await located(ws))).recognizers, 1);
    });
  });

  describe("HEAD and the stale-revision warning in a real git repository @slow", () => {
    it('fresh after the writer\'s commit, stale after the next commit, never stale for "unknown"', async () => {
      const ws = makeWorkspace({ "README.md": "x\n" });
      const first = gitInitAndCommit(ws);
      writeFiles(ws, { [MANIFEST]: manifestAt(first.slice(0, 12)), "engine_state/recognizers.jsonl": RECOGNIZER });
      const location = await located(ws);
      assert.deepEqual(await codesAt(ws), []);
      assert.equal((await engineStateSource.summarize(location)).head_revision, first);

      const second = gitCommitAll(ws, "second");
      assert.deepEqual(await codesAt(ws), [`${MANIFEST}:4 stale_revision`]);
      const [problem] = await engineStateSource.check(location);
      assert.equal(problem.severity, "warning");
      assert.match(
        problem.message,
        new RegExp(`written at revision "${first.slice(0, 12)}", but HEAD is ${second.slice(0, 12)}`),
      );
      const manifest = find(await engineStateSource.tree(location), "Manifest");
      assert.equal(manifest.description, `stale: written at ${first.slice(0, 7)}…, HEAD is ${second.slice(0, 7)}…`);
      assert.equal(find(manifest.children ?? [], "HEAD").description, `${second.slice(0, 12)} (main)`);
      assert.equal(find(manifest.children ?? [], "Written at revision").description, first.slice(0, 12));

      writeFiles(ws, { [MANIFEST]: manifestAt("unknown") });
      assert.deepEqual(await codesAt(ws), []);
      writeFiles(ws, { [MANIFEST]: manifestAt(second) }); // a full id is a prefix of itself
      assert.deepEqual(await codesAt(ws), []);
    });

    it("follows packed refs, a detached HEAD and a worktree's .git file", async () => {
      const ws = makeWorkspace({ "README.md": "x\n" });
      const first = gitInitAndCommit(ws);
      const second = gitCommitAll(ws, "second");
      writeFiles(ws, { [MANIFEST]: manifestAt(second.slice(0, 12)) });
      git(ws, "pack-refs", "--all");
      assert.equal(fs.existsSync(path.join(ws, ".git/refs/heads/main")), false);
      assert.equal((await engineStateSource.summarize(await located(ws))).head_revision, second);
      assert.deepEqual(await codesAt(ws), []);

      git(ws, "checkout", "-q", "--detach", first);
      assert.equal((await engineStateSource.summarize(await located(ws))).head_revision, first);
      assert.deepEqual(await codesAt(ws), [`${MANIFEST}:4 stale_revision`]);
      const head = find(find(await engineStateSource.tree(await located(ws)), "Manifest").children ?? [], "HEAD");
      assert.equal(head.description, `${first.slice(0, 12)} (detached)`);
      git(ws, "checkout", "-q", "main");

      const worktree = `${ws}-wt`;
      git(ws, "worktree", "add", "-q", "-b", "side", worktree, first);
      writeFiles(worktree, { [MANIFEST]: manifestAt(first.slice(0, 12)) });
      assert.ok(fs.statSync(path.join(worktree, ".git")).isFile());
      const wtLocation = await located(worktree);
      assert.equal((await engineStateSource.summarize(wtLocation)).head_revision, first);
      assert.deepEqual(await codesAt(worktree), []);
      const globs = engineStateSource.watchGlobs(wtLocation);
      assert.ok(
        globs.some((g) => g.endsWith(".git/worktrees/" + path.basename(worktree) + "/HEAD")),
        globs.join(" "),
      );
      assert.ok(
        globs.some((g) => g.endsWith(".git/refs/heads/side")),
        globs.join(" "),
      );
    });

    it("an unborn branch or no repository: HEAD unknown, never stale", async () => {
      const ws = makeWorkspace({ [MANIFEST]: manifestAt("0123456789ab") });
      assert.equal((await engineStateSource.summarize(await located(ws))).head_revision, null);
      git(ws, "init", "-q", "-b", "main");
      assert.deepEqual(await codesAt(ws), []);
      const head = find(find(await engineStateSource.tree(await located(ws)), "Manifest").children ?? [], "HEAD");
      assert.match(head.description ?? "", /unknown \(refs\/heads\/main has no commit yet\)/);
    });

    it("watches the three files, HEAD, the ref HEAD points to, packed-refs and HEAD's reflog", async () => {
      const ws = makeWorkspace({ [MANIFEST]: "" });
      gitInitAndCommit(ws);
      assert.deepEqual(engineStateSource.watchGlobs(await located(ws)), [
        "engine_state/manifest.json",
        "engine_state/recognizers.jsonl",
        "engine_state/discovery_candidates.jsonl",
        ".git/HEAD",
        ".git/refs/heads/main",
        ".git/packed-refs",
        ".git/logs/HEAD",
      ]);
    });
  });

  describe("tree", () => {
    it("shows untrusted text with control and bidi characters visible, cut, and Markdown escaped", async () => {
      const subject = "\u001b[2J\u202eevil [click](command:workbench.action.terminal.new) " + "x".repeat(400);
      const line = JSON.stringify({ candidate_id: "c1", proposed_chain: { intent: "cause", subject }, trigger: "t" });
      const ws = makeWorkspace({ "engine_state/discovery_candidates.jsonl": `${line}\n` });
      const [node] = find(await engineStateSource.tree(await located(ws)), "Discovery candidates").children ?? [];
      assert.ok(node.label.startsWith("\\e[2J\\u202eevil [click]"), node.label); // src/core/text/displayText.ts escapes
      assert.ok(node.label.length < 120, String(node.label.length));
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(node.label, /[\u0000-\u001f\u202e]/);
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(node.tooltip ?? "", /[\u0000-\u0009\u000b-\u001f\u202e]/); // paragraphs are separated by blank lines
      assert.match(node.tooltip ?? "", /\\\[click\\\]\(command:workbench/);
    });

    it("shows the manifest, counts, one node per line opening the file at it, and problems on their lines", async () => {
      const ws = copyFixture("engine-state-broken");
      const tree = await engineStateSource.tree(await located(ws));
      assert.deepEqual(
        tree.map((n) => n.label),
        ["Manifest", "Recognizers", "Discovery candidates"],
      );
      const recognizers = find(tree, "Recognizers");
      assert.equal(recognizers.description, "4 · 4 problems");
      assert.deepEqual(
        (recognizers.children ?? []).map((n) => n.target),
        [1, 2, 3, 4].map((line) => ({ kind: "file", file: "engine_state/recognizers.jsonl", line })),
      );
      assert.equal(recognizers.children?.[1].label, "‹agent› owns ‹count:int› ‹unit›");
      assert.equal(recognizers.children?.[1].icon?.id, "error");
      const candidates = find(tree, "Discovery candidates");
      assert.equal(candidates.description, "6 · 4 problems");
      const labels = (candidates.children ?? []).map((n) => `${n.label} | ${n.description} | ${n.icon?.id ?? ""}`);
      assert.deepEqual(labels, [
        "gravity · cause | line 1 · 972728b17510… · would_have_grounded · unreviewed | ",
        "naïve · verification | line 2 · 93fb007d9a1d… · would_have_grounded · unreviewed | ",
        "fraction · cause | line 3 · 38adeb6eb0f4… · would_have_grounded · unreviewed · math | error",
        "photosynthesis · cause | line 4 · ddf65d475a12… · would_have_grounded · unreviewed · affirms | ",
        "line 5: unreadable | line 5 | error",
        "gravity · cause | line 6 · 972728b17510… · would_have_grounded · unreviewed | warning",
      ]);
      assert.match(candidates.children?.[4].tooltip ?? "", /Unterminated string/);
      const manifest = find(tree, "Manifest");
      assert.equal(manifest.icon?.id, "error");
      assert.equal(find(manifest.children ?? [], "Schema version").description, "2");
    });
  });
});
