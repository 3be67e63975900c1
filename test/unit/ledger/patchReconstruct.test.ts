// Patch reconstruction on real `git diff` output: temp repositories are built with the real `git`
// binary, a change is staged, and `git diff --cached -M` is the patch. The working tree is the
// after-state; `git show HEAD:path` is the exact before-state each reconstruction must produce.
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  parsePatchFiles,
  ParsedPatchFile,
  summarizePatch,
} from "../../../src/core/sources/autodev/evidence/patchModel";
import {
  reconstructFile,
  reconstructPatch,
  reverseApply,
  sidesFromHunks,
  WorkspaceText,
} from "../../../src/core/sources/autodev/evidence/patchReconstruct";
import { readWorkspaceText } from "../../../src/core/sources/autodev/evidence/evidenceStore";

/** Runs git in `cwd` with no user or system config (so the machine's settings cannot change the output). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    "git",
    [
      "-c",
      "core.autocrlf=false",
      "-c",
      "core.quotepath=true",
      "-c",
      "diff.noprefix=false",
      "-c",
      "color.ui=never",
      ...args,
    ],
    {
      cwd,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        HOME: cwd,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
      },
    },
  );
}

/** Raw bytes of `git show REV:path` as UTF-8 text (exact; execFileSync keeps CRs). */
function show(cwd: string, rev: string, path: string): string {
  return execFileSync("git", ["show", `${rev}:${path}`], {
    cwd,
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", HOME: cwd },
  }).toString("utf8");
}

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
}

/** A fresh repository holding `files` in one commit. */
function repo(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), "autodev-patch-"));
  git(dir, "init", "-q");
  write(dir, files);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "before");
  return dir;
}

/** Stages everything and returns `git diff --cached -M` (the patch AutoDev stores). */
function stagedPatch(dir: string): string {
  git(dir, "add", "-A");
  return git(dir, "diff", "--cached", "-M", "--no-ext-diff");
}

const BEFORE: Record<string, string | Buffer> = {
  "README.md": "# Calc\n\nOps: add\n",
  "src/calc.py":
    "from legacy import add\n\n\ndef total(xs):\n    t = 0\n    for x in xs:\n        t = add(t, x)\n    return t\n",
  "src/legacy.py": "def add(a, b):\n    return a + b\n",
  "docs/old_name.md": "# Old name\n\nLine one.\nLine two.\nLine three.\n",
  "docs/same.md": "unchanged content\nstays\n",
  "config/settings.json": '{\n  "debug": false,\n  "level": "info"\n}',
  "config/defaults.toml": '[units]\r\ndefault = "m"\r\nkeep = 1\r\n',
  "notes/tail.txt": "alpha\nbeta",
  "notes/cut.txt": "one\ntwo\n",
  "my file.txt": "first\nsecond\n",
  "ünï.txt": "héllo\n",
  "bin/blob.dat": Buffer.from([0, 1, 2, 3]),
  "tool.sh": "echo hi\n",
};

const AFTER_EDITS: Record<string, string | Buffer> = {
  "README.md": "# Calc\n\nOps: add, div\n\nSee src/ops.py.\n",
  "src/calc.py":
    "from ops import add, div\n\n\ndef total(xs):\n    return sum(xs)\n\n\ndef mean(xs):\n    return div(total(xs), len(xs))\n",
  "src/ops.py": "def add(a, b):\n    return a + b\n\n\ndef div(a, b):\n    return a / b\n",
  "config/settings.json": '{\n  "debug": true,\n  "level": "debug",\n  "retries": 3\n}',
  "config/defaults.toml": '[units]\r\ndefault = "km"\r\nkeep = 1\r\nprecision = 3\r\n',
  "notes/tail.txt": "alpha\nbeta\ngamma\n",
  "notes/cut.txt": "one\ntwo",
  "my file.txt": "first\n2nd\n",
  "ünï.txt": "hällo\n",
  "bin/blob.dat": Buffer.from([0, 1, 2, 4]),
};

describe("patch reconstruction (real git diff output)", () => {
  let dir: string;
  let patch: string;
  let files: ParsedPatchFile[];

  before(() => {
    dir = repo(BEFORE);
    write(dir, AFTER_EDITS);
    rmSync(join(dir, "src/legacy.py"));
    git(dir, "mv", "docs/old_name.md", "docs/new_name.md");
    write(dir, { "docs/new_name.md": "# New name\n\nLine one.\nLine two.\nLine three.\n" });
    git(dir, "mv", "docs/same.md", "docs/moved.md");
    chmodSync(join(dir, "tool.sh"), 0o755);
    patch = stagedPatch(dir);
    files = parsePatchFiles(patch);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const byPath = (p: string) => {
    const f = files.find((x) => (x.newPath ?? x.oldPath) === p);
    assert.ok(f, `no file ${p} in the patch:\n${patch}`);
    return f;
  };

  it("parses every file with its kind of change, paths and counts", () => {
    const got = summarizePatch(patch).map((f) => [f.change, f.oldPath, f.newPath, f.binary, f.noNewlineAtEnd]);
    assert.deepEqual(
      got.sort((a, b) => String(a[2] ?? a[1]).localeCompare(String(b[2] ?? b[1]))),
      [
        ["modified", "README.md", "README.md", false, false],
        ["modified", "bin/blob.dat", "bin/blob.dat", true, false],
        ["modified", "config/defaults.toml", "config/defaults.toml", false, false],
        ["modified", "config/settings.json", "config/settings.json", false, true],
        ["renamed", "docs/same.md", "docs/moved.md", false, false],
        ["renamed", "docs/old_name.md", "docs/new_name.md", false, false],
        ["modified", "my file.txt", "my file.txt", false, false],
        ["modified", "notes/cut.txt", "notes/cut.txt", false, true],
        ["modified", "notes/tail.txt", "notes/tail.txt", false, true],
        ["modified", "src/calc.py", "src/calc.py", false, false],
        ["deleted", "src/legacy.py", null, false, false],
        ["added", null, "src/ops.py", false, false],
        ["mode", "tool.sh", "tool.sh", false, false],
        ["modified", "ünï.txt", "ünï.txt", false, false],
      ].sort((a, b) => String(a[2] ?? a[1]).localeCompare(String(b[2] ?? b[1]))),
    );
    const calc = byPath("src/calc.py");
    assert.equal(calc.added, 6);
    assert.equal(calc.removed, 5);
  });

  it("rebuilds both sides of every text file exactly from the workspace (after = working tree, before = HEAD)", async () => {
    const rebuilt = await reconstructPatch(files, (rel) => readWorkspaceText(dir, rel));
    for (const r of rebuilt) {
      if (r.file.binary) {
        assert.equal(r.source, "none");
        continue;
      }
      const label = r.file.newPath ?? r.file.oldPath;
      assert.equal(r.source, "workspace", `${label}: ${r.note}`);
      assert.equal(r.complete, true, String(label));
      assert.equal(r.before, r.file.oldPath === null ? "" : show(dir, "HEAD", r.file.oldPath), `${label}: before`);
      assert.equal(r.after, r.file.newPath === null ? "" : show(dir, ":0", r.file.newPath), `${label}: after`);
    }
  });

  it("keeps CRLF line endings on both sides", async () => {
    const [r] = await reconstructPatch([byPath("config/defaults.toml")], (rel) => readWorkspaceText(dir, rel));
    assert.equal(r.before, '[units]\r\ndefault = "m"\r\nkeep = 1\r\n');
    assert.equal(r.after, '[units]\r\ndefault = "km"\r\nkeep = 1\r\nprecision = 3\r\n');
  });

  it("handles a missing final newline on the before side, the after side and both", async () => {
    const read = (rel: string) => readWorkspaceText(dir, rel);
    const [tail] = await reconstructPatch([byPath("notes/tail.txt")], read);
    assert.deepEqual([tail.before, tail.after], ["alpha\nbeta", "alpha\nbeta\ngamma\n"]);
    const [cut] = await reconstructPatch([byPath("notes/cut.txt")], read);
    assert.deepEqual([cut.before, cut.after], ["one\ntwo\n", "one\ntwo"]);
    const [json] = await reconstructPatch([byPath("config/settings.json")], read);
    assert.deepEqual(
      [json.before, json.after],
      ['{\n  "debug": false,\n  "level": "info"\n}', '{\n  "debug": true,\n  "level": "debug",\n  "retries": 3\n}'],
    );
  });

  it("reads quoted (octal-escaped) and space-containing names", () => {
    assert.equal(byPath("ünï.txt").change, "modified");
    assert.equal(byPath("my file.txt").oldPath, "my file.txt");
  });

  it("falls back to the hunks when the workspace file changed since: partial for modified files, whole for added and deleted", () => {
    const calc = reconstructFile(byPath("src/calc.py"), { kind: "text", text: "something else entirely\n" });
    assert.equal(calc.source, "hunks");
    assert.equal(calc.complete, false);
    assert.equal(
      calc.before,
      "@@ -1,8 +1,9 @@\nfrom legacy import add\n\n\ndef total(xs):\n    t = 0\n    for x in xs:\n        t = add(t, x)\n    return t\n",
    );
    assert.equal(
      calc.after,
      "@@ -1,8 +1,9 @@\nfrom ops import add, div\n\n\ndef total(xs):\n    return sum(xs)\n\n\ndef mean(xs):\n    return div(total(xs), len(xs))\n",
    );
    const ops = reconstructFile(byPath("src/ops.py"), { kind: "missing" });
    assert.deepEqual([ops.source, ops.complete, ops.before, ops.after], ["hunks", true, "", AFTER_EDITS["src/ops.py"]]);
    const legacy = reconstructFile(byPath("src/legacy.py"), { kind: "text", text: "recreated\n" });
    assert.deepEqual(
      [legacy.source, legacy.complete, legacy.before, legacy.after],
      ["hunks", true, BEFORE["src/legacy.py"], ""],
    );
    const toml = reconstructFile(byPath("config/defaults.toml"), { kind: "unreadable", reason: "too large" });
    assert.equal(toml.before, '@@ -1,3 +1,4 @@\r\n[units]\r\ndefault = "m"\r\nkeep = 1\r\n');
    assert.match(toml.note, /too large/);
    const json = sidesFromHunks(byPath("config/settings.json"));
    assert.equal(json.before, '@@ -1,4 +1,5 @@\n{\n  "debug": false,\n  "level": "info"\n}\n');
  });

  it("says why nothing can be shown for a binary file", () => {
    const r = reconstructFile(byPath("bin/blob.dat"), { kind: "text", text: "" });
    assert.equal(r.source, "none");
    assert.match(r.note, /binary/);
  });

  it("never reads a workspace path that leaves the workspace", async () => {
    for (const bad of ["../outside.txt", "/etc/hostname", "a/../../x", "..\\x"]) {
      const t: WorkspaceText = await readWorkspaceText(dir, bad);
      assert.equal(t.kind, "unreadable", bad);
    }
  });
});

describe("patch reconstruction across later patches (newest first)", () => {
  it("reverse-applying later patches first gives each earlier patch's exact before", () => {
    const dir = repo({ "lib.py": "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 9\n" });
    try {
      write(dir, { "lib.py": "a = 10\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 9\n" });
      const first = stagedPatch(dir);
      git(dir, "commit", "-q", "-m", "one");
      write(dir, { "lib.py": "a = 10\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 90\nj = 10\n" });
      const second = stagedPatch(dir);
      git(dir, "commit", "-q", "-m", "two");
      const now = show(dir, "HEAD", "lib.py");
      const mid = reverseApply(parsePatchFiles(second)[0], now);
      assert.equal(mid, show(dir, "HEAD~1", "lib.py"));
      assert.equal(reverseApply(parsePatchFiles(first)[0], mid!), show(dir, "HEAD~2", "lib.py"));
      // The earlier patch alone also reverse-applies to today's file (its region did not move).
      assert.equal(reconstructFile(parsePatchFiles(first)[0], { kind: "text", text: now }).source, "workspace");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("turns a malformed section into a file with an error, and non-diff text into a thrown error", () => {
    const broken = "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-only one line\n";
    const [f] = parsePatchFiles(broken);
    assert.match(f.error ?? "", /malformed hunk/);
    assert.equal(reconstructFile(f, { kind: "missing" }).source, "none");
    assert.throws(() => parsePatchFiles("hello, not a patch\n"), /not a unified diff/);
  });
});
