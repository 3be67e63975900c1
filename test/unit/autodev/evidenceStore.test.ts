// Evidence listing on hostile and valid workspaces: every bad file of test/fixtures/evidence-bad
// becomes an error saying why, and no file outside the workspace (or outside .autodev/evidence/
// for bundles) is ever opened: fs.promises.open is watched while the store reads.
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  checkBundleRef,
  listEvidence,
  listEvidenceTasks,
  MAX_EVIDENCE_BYTES,
  readPatch,
  readPatchSource,
  readWorkspaceText,
  sharedEvidenceReads,
} from "../../../src/core/sources/autodev/evidence/evidenceStore";
import { tryParsePatch } from "../../../src/core/sources/autodev/evidence/patchModel";
import { reconstructPatch } from "../../../src/core/sources/autodev/evidence/patchReconstruct";
import { readTournament } from "../../../src/core/sources/autodev/evidence/tournamentStore";

const FIXTURES = resolve(__dirname, "../../../../test/fixtures");
const SECRET = "SECRET-OUTSIDE-EVIDENCE";

/** A temp copy of a fixture (symlinks kept as links) plus its real path. */
function copyFixture(name: string): string {
  const dir = fs.mkdtempSync(join(tmpdir(), `autodev-${name}-`));
  fs.cpSync(join(FIXTURES, name), dir, { recursive: true, verbatimSymlinks: true });
  return fs.realpathSync(dir);
}

/** Runs `fn` while recording every path passed to fs.promises.open. */
async function watchingOpens<T>(fn: () => Promise<T>): Promise<{ result: T; opened: string[] }> {
  const original = fs.promises.open;
  const opened: string[] = [];
  fs.promises.open = ((p: fs.PathLike, ...rest: unknown[]) => {
    opened.push(String(p));
    return (original as (...a: unknown[]) => Promise<fs.promises.FileHandle>)(p, ...rest);
  }) as typeof fs.promises.open;
  try {
    return { result: await fn(), opened };
  } finally {
    fs.promises.open = original;
  }
}

describe("evidence store on a hostile workspace (test/fixtures/evidence-bad)", () => {
  let ws: string;
  before(() => {
    ws = copyFixture("evidence-bad");
    // Over the size limit: a sparse file, never read.
    const big = join(ws, ".autodev/evidence/1.1-tournament.json");
    fs.writeFileSync(big, "");
    fs.truncateSync(big, MAX_EVIDENCE_BYTES + 1024);
  });
  after(() => fs.rmSync(ws, { recursive: true, force: true }));

  it("turns every bad bundle of task 1.1 into an error that says why, reading nothing outside .autodev/evidence/", async () => {
    const { result: items, opened } = await watchingOpens(() => listEvidence(ws, "1.1"));
    const why = Object.fromEntries(items.map((i) => [i.file, i.ok ? "ok" : i.error]));
    assert.deepEqual(Object.keys(why).sort(), [
      "1.1-bogus.json",
      "1.1-critic.json",
      "1.1-developer.json",
      "1.1-domain_expert.json",
      "1.1-explore.json",
      "1.1-review.json",
      "1.1-test.json",
      "1.1-tournament.json",
    ]);
    assert.match(why["1.1-review.json"], /^invalid JSON/);
    assert.match(why["1.1-test.json"], /^schema: .*passed/s);
    assert.match(why["1.1-test.json"], /flaky/);
    assert.match(why["1.1-bogus.json"], /^schema: .*(tag|bogus)/s);
    assert.match(why["1.1-developer.json"], /content says task 9\.9/);
    assert.equal(why["1.1-domain_expert.json"], "not valid UTF-8");
    assert.match(why["1.1-critic.json"], /outside .*not read/);
    assert.match(why["1.1-explore.json"], /outside .*not read/);
    assert.match(why["1.1-tournament.json"], /over the \d+-byte limit; not read/);
    const evidence = join(ws, ".autodev/evidence");
    for (const p of opened) assert.ok(p.startsWith(evidence + "/"), `opened ${p}, outside ${evidence}`);
    assert.ok(!JSON.stringify(items).includes(SECRET));
  });

  it("refuses a task id that would leave .autodev/evidence/", async () => {
    for (const id of ["../outside", "/etc/passwd", "..", "a/b"]) {
      const items = await listEvidence(ws, id);
      assert.equal(items.length, 1);
      assert.equal(items[0].ok, false);
      assert.match((items[0] as { error: string }).error, /not a safe file name/);
      const patch = await readPatch(ws, id);
      assert.equal(patch?.ok, false);
    }
  });

  it("reads a .patch that is not a diff and reports it when parsed", async () => {
    const p = await readPatch(ws, "1.1");
    assert.ok(p?.ok);
    const parsed = tryParsePatch(p.text);
    assert.equal(parsed.ok, false);
    assert.match((parsed as { error: string }).error, /not a unified diff/);
  });

  it("rebuilds a developer diff whose paths leave the workspace from its hunks only, never reading them", async () => {
    const src = await readPatchSource(ws, "1.2", "developer");
    assert.ok(src?.ok);
    const parsed = tryParsePatch(src.text);
    assert.ok(parsed.ok);
    const { result: rebuilt, opened } = await watchingOpens(() =>
      reconstructPatch(parsed.files, (rel) => readWorkspaceText(ws, rel)),
    );
    assert.deepEqual(
      rebuilt.map((r) => [r.file.newPath, r.source]),
      [
        ["../../outside/secret.txt", "hunks"],
        ["/etc/hostname", "hunks"],
        ["src/app.py", "workspace"],
      ],
    );
    assert.match(rebuilt[0].note, /leaves the workspace/);
    assert.deepEqual(opened, [join(ws, "src/app.py")]);
    assert.equal(rebuilt[2].before, "def f():\n    return 0\n");
  });

  it("keeps a section with lying hunk counts as a file with an error", async () => {
    const p = await readPatch(ws, "1.3");
    assert.ok(p?.ok);
    const parsed = tryParsePatch(p.text);
    assert.ok(parsed.ok);
    assert.match(parsed.files[0].error ?? "", /malformed hunk/);
  });

  it("reads a broken tournament folder loosely and refuses an escaping tournament id", async () => {
    const t = await readTournament(ws, "t-bad");
    assert.equal(t.exists, true);
    assert.equal(t.history?.ok, false);
    assert.match(t.history && !t.history.ok ? t.history.error : "", /not a list of passes/);
    assert.ok(t.history && !t.history.ok && t.history.rawJson?.includes('"bar": 1'));
    assert.deepEqual(
      t.results.map((r) => [r.dir, r.file.ok]),
      [
        ["pass_01", false],
        ["pass_02", true],
      ],
    );
    assert.match(!t.results[0].file.ok ? t.results[0].file.error : "", /invalid JSON/);
    assert.equal(t.results[1].file.ok && t.results[1].file.value.known, false);
    const escape = await readTournament(ws, "../../outside");
    assert.equal(escape.exists, false);
    assert.match(escape.error ?? "", /not a safe folder name/);
  });

  it("refuses a tournament folder that links out of .autodev/tournaments/", async () => {
    const outside = fs.mkdtempSync(join(tmpdir(), "autodev-outside-"));
    try {
      fs.writeFileSync(join(outside, "history.json"), JSON.stringify([{ pass: 1, winner: SECRET }]));
      fs.symlinkSync(outside, join(ws, ".autodev/tournaments/t-link"));
      const { result, opened } = await watchingOpens(() => readTournament(ws, "t-link"));
      assert.equal(result.exists, false);
      assert.match(result.error ?? "", /outside/);
      assert.deepEqual(opened, []);
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it("checks evidence_bundle paths without reading them", () => {
    assert.deepEqual(checkBundleRef(ws, ".autodev/evidence/1.2-developer.json"), {
      ok: true,
      file: "1.2-developer.json",
    });
    assert.deepEqual(checkBundleRef(ws, join(ws, ".autodev/evidence/1.2-developer.json")), {
      ok: true,
      file: "1.2-developer.json",
    });
    for (const bad of [
      "../../../etc/passwd",
      "/etc/passwd",
      ".autodev/evidence/../plan.json",
      ".autodev/evidence/sub/x.json",
      ".autodev/plan.json",
    ]) {
      assert.equal(checkBundleRef(ws, bad).ok, false, bad);
    }
  });

  it("lists the task ids that have evidence", async () => {
    const r = await listEvidenceTasks(ws);
    assert.ok(r.ok);
    assert.deepEqual([...r.tasks.keys()].sort(), ["1.1", "1.2", "1.3"]);
  });
});

describe("evidence store: linked evidence folders", () => {
  it("refuses an .autodev/evidence/ (or .autodev/) that links out of the workspace", async () => {
    for (const link of [".autodev/evidence", ".autodev"]) {
      const ws = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "autodev-linkws-")));
      const outside = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "autodev-outside-")));
      try {
        const target = link === ".autodev" ? outside : join(outside, "evidence");
        fs.mkdirSync(join(target, link === ".autodev" ? "evidence" : ""), { recursive: true });
        const evidence = link === ".autodev" ? join(outside, "evidence") : target;
        fs.writeFileSync(
          join(evidence, "1.1-explore.json"),
          JSON.stringify({ task_id: "1.1", kind: "explore", findings: SECRET }),
        );
        fs.writeFileSync(
          join(evidence, "1.1.patch"),
          `diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-${SECRET}\n+x\n`,
        );
        if (link === ".autodev/evidence") fs.mkdirSync(join(ws, ".autodev"));
        fs.symlinkSync(target, join(ws, link));
        const { result, opened } = await watchingOpens(async () => [
          await listEvidence(ws, "1.1"),
          await readPatch(ws, "1.1"),
          await listEvidenceTasks(ws),
        ]);
        assert.deepEqual(opened, [], `${link}: opened ${opened.join(", ")}`);
        const text = JSON.stringify(result);
        assert.ok(!text.includes(SECRET), link);
        assert.match(text, /outside the workspace; not read/, link);
      } finally {
        fs.rmSync(ws, { recursive: true, force: true });
        fs.rmSync(outside, { recursive: true, force: true });
      }
    }
  });
});

describe("evidence store on Python-written evidence (test/fixtures/python-evidence)", () => {
  const ws = join(FIXTURES, "python-evidence");
  const bad = join(FIXTURES, "evidence-bad");

  it("lists every bundle as valid", async () => {
    for (const task of ["1.1", "1.2", "2.1", "plan"]) {
      const items = await listEvidence(ws, task);
      assert.ok(items.length > 0, task);
      for (const i of items) assert.ok(i.ok, `${i.file}: ${i.ok ? "" : i.error}`);
    }
  });

  it("shares a snapshot's reads: the same answers as reading from disk, each asked again opening nothing", async () => {
    const shared = sharedEvidenceReads();
    for (const [dir, task] of [
      [ws, "1.1"],
      [ws, "1.2"],
      [ws, "2.1"],
      [ws, "plan"],
      [ws, "../1.1"],
      [bad, "1.1"],
    ]) {
      assert.deepEqual(await shared.listEvidence(dir, task), await listEvidence(dir, task), `${dir} ${task}`);
      assert.deepEqual(await shared.readPatch(dir, task), await readPatch(dir, task), `${dir} ${task} patch`);
      const again = await watchingOpens(async () => [
        await shared.listEvidence(dir, task),
        await shared.readPatch(dir, task),
      ]);
      assert.deepEqual(again.opened, [], `${task}: read once per snapshot`);
    }
  });

  it("rebuilds every patch from the workspace: the workspace is the after-state", async () => {
    const befores: Record<string, string> = {};
    for (const task of ["1.1", "1.2", "2.1"]) {
      for (const source of ["patch", "developer"] as const) {
        const src = await readPatchSource(ws, task, source);
        assert.ok(src?.ok, `${task} ${source}`);
        const parsed = tryParsePatch(src.text);
        assert.ok(parsed.ok);
        for (const r of await reconstructPatch(parsed.files, (rel) => readWorkspaceText(ws, rel))) {
          assert.equal(r.source, "workspace", `${task} ${source} ${r.file.newPath}: ${r.note}`);
          assert.equal(r.complete, true);
          befores[r.file.oldPath ?? `(added) ${r.file.newPath}`] = r.before;
          if (r.file.newPath) assert.equal(r.after, fs.readFileSync(join(ws, r.file.newPath), "utf8"));
        }
      }
    }
    assert.equal(befores["README.md"], "# Calc\n\nOps: add\n");
    assert.equal(befores["src/legacy.py"], "def add(a, b):\n    return a + b\n");
    assert.equal(befores["(added) src/ops.py"], "");
    assert.equal(
      befores["docs/old_name.md"],
      "# Old name\n\nLine one.\nLine two.\nLine three.\nLine four.\nLine five.\n",
    );
    assert.equal(befores["config/settings.json"], '{\n  "debug": false,\n  "level": "info"\n}');
    assert.equal(
      befores["src/calc.py"],
      "from legacy import add\n\n\ndef total(xs):\n    t = 0\n    for x in xs:\n        t = add(t, x)\n    return t\n",
    );
  });
});
