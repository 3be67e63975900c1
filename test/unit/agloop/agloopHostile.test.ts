/**
 * A cloned repository can carry any `.agloop/`: a FIFO for state.json (opening it would hang), a
 * symbolic link out of the workspace, a giant log line, a huge file, a cyclic or deep graph. The
 * source must answer with clear problems, never hang, crash, or read outside the workspace.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { AGLOOP_LIMITS } from "../../../src/core/sources/agloop/agloopFiles";
import { agloopSource } from "../../../src/core/sources/agloop/agloopSource";
import { copiedLocation } from "../helpers/agloopFixtures";

describe("agloop on hostile input", function () {
  this.timeout(60_000);

  it("a FIFO state.json is refused without being opened", async () => {
    const loc = copiedLocation("agloop-clean");
    const p = path.join(loc.dir, "state.json");
    fs.unlinkSync(p);
    execFileSync("mkfifo", [p]);
    const problems = await agloopSource.check(loc);
    const state = problems.find((x) => x.file === ".agloop/state.json");
    assert.equal(state?.code, "unsafe_file");
    assert.match(state?.message ?? "", /FIFO/);
    const tree = await agloopSource.tree(loc);
    assert.equal(tree[0].label, "state.json was not read");
    assert.equal(tree[0].target, undefined, "no recovery offered over a FIFO");
  });

  it("symbolic links (to a file outside, or the whole .agloop) are not followed", async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), "agloop-outside-"));
    fs.writeFileSync(path.join(outside, "secret.json"), JSON.stringify({ secret: "s3cr3t" }));
    const loc = copiedLocation("agloop-clean");
    fs.unlinkSync(path.join(loc.dir, "state.json"));
    fs.symlinkSync(path.join(outside, "secret.json"), path.join(loc.dir, "state.json"));
    const problems = await agloopSource.check(loc);
    assert.equal(problems.find((x) => x.file === ".agloop/state.json")?.code, "unsafe_file");
    assert.ok(!JSON.stringify(await agloopSource.tree(loc)).includes("s3cr3t"));

    const ws = fs.mkdtempSync(path.join(os.tmpdir(), "agloop-linkdir-"));
    fs.symlinkSync(copiedLocation("agloop-clean").dir, path.join(ws, ".agloop"));
    const found = await agloopSource.detect(ws);
    assert.ok(found, "a linked .agloop is detected so that it can be reported");
    const linked = await agloopSource.check(found);
    assert.deepEqual(
      linked.map((p) => p.code),
      ["unsafe_file"],
    );
    assert.match(linked[0].message, /symbolic link/);
    await assert.rejects(agloopSource.runAction?.(found, "recoverFromCheckpoint", []) ?? Promise.resolve());

    const cpLoc = copiedLocation("agloop-clean");
    fs.symlinkSync(
      path.join(outside, "secret.json"),
      path.join(cpLoc.dir, "checkpoints", "pre-compact-20990101-000000.json"),
    );
    const cpProblems = await agloopSource.check(cpLoc);
    assert.deepEqual(
      cpProblems.map((p) => p.code),
      ["invalid_checkpoint"],
    );
    assert.ok(!(await agloopSource.summarize(cpLoc)).checkpoints?.toString().includes("20990101"));
  });

  it("a giant log line is skipped (bounded memory) and the lines after it are still read", async () => {
    const loc = copiedLocation("agloop-clean");
    const logPath = path.join(loc.dir, "log.json");
    const before = fs
      .readFileSync(logPath, "utf8")
      .split("\n")
      .filter((l) => l).length;
    const giant = `{"timestamp":"x","summary":"${"A".repeat(AGLOOP_LIMITS.logLineBytes + 10)}"}\n`;
    fs.appendFileSync(logPath, giant);
    fs.appendFileSync(
      logPath,
      JSON.stringify({
        timestamp: "2026-11-30T10:00:00.000Z",
        agent: "a",
        action: "after",
        task_id: null,
        phase: "execute",
        input_summary: "",
        output_summary: "",
        status: "success",
      }) + "\n",
    );
    const problems = await agloopSource.check(loc);
    assert.deepEqual(
      problems.map((p) => [p.code, p.line]),
      [["invalid_json", before + 1]],
    );
    assert.match(problems[0].message, /longer than/);
    const rows = (await agloopSource.timeline?.(loc)) ?? [];
    assert.equal(rows.at(-1)?.action, "after");
    assert.equal(rows.at(-1)?.line, before + 2);
  });

  it("an oversized state.json is refused by size, not read", async () => {
    const loc = copiedLocation("agloop-clean");
    const p = path.join(loc.dir, "state.json");
    const fd = fs.openSync(p, "r+");
    fs.ftruncateSync(fd, AGLOOP_LIMITS.stateBytes + 1);
    fs.closeSync(fd);
    const problems = await agloopSource.check(loc);
    assert.equal(problems.find((x) => x.file === ".agloop/state.json")?.code, "file_too_large");
  });

  it("a 30 000-task dependency chain with a cycle is checked without a stack overflow @slow", async () => {
    const loc = copiedLocation("agloop-clean");
    const p = path.join(loc.dir, "state.json");
    const s = JSON.parse(fs.readFileSync(p, "utf8"));
    const n = 30_000;
    const id = (i: number): string => `task-${String(i + 1).padStart(5, "0")}`;
    const task = (i: number) => ({
      id: id(i),
      title: "t",
      description: "d",
      status: "pending",
      depends_on: [id((i + 1) % n)],
      acceptance_criteria: ["c"],
      failure_modes: [],
      result: null,
      verification: null,
    });
    s.tasks = Array.from({ length: n }, (_, i) => task(i));
    s.current_task_id = null;
    fs.writeFileSync(p, JSON.stringify(s, null, 2));
    fs.unlinkSync(path.join(loc.dir, "plan.yaml"));
    const problems = await agloopSource.check(loc);
    assert.deepEqual(
      problems.filter((x) => x.file === ".agloop/state.json").map((x) => x.code),
      ["dependency_cycle"],
    );
  });

  it("YAML alias bombs are refused, not expanded", async () => {
    const loc = copiedLocation("agloop-clean");
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 12; i++) {
      lines.push(
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`,
      );
    }
    fs.writeFileSync(path.join(loc.dir, "plan.yaml"), lines.join("\n") + "\n");
    const problems = await agloopSource.check(loc);
    assert.deepEqual(
      problems.map((p) => p.code),
      ["invalid_yaml"],
    );
  });
});
