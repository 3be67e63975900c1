// A reader that goes away mid-output (`autodev-state report … | head`): the CLI ends quietly with
// 141 (128 + SIGPIPE, what a shell reports for a cut pipe), never an unhandled EPIPE with a stack
// trace; a command that had finished keeps its own status.
import { strict as assert } from "node:assert";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { REPO_ROOT, copyFixture } from "../fixtures";

const CLI = path.join(REPO_ROOT, "dist/cli.js");

/** A workspace whose ledger `init` wrote from a plan of `n` tasks (a report far larger than a pipe's buffer). */
function bigPlanWorkspace(n: number): string {
  const dir = copyFixture("python-small");
  const plan = JSON.parse(fs.readFileSync(path.join(dir, ".autodev/plan.json"), "utf8")) as {
    phases: { id: string; tasks: Record<string, unknown>[] }[];
  };
  const model = plan.phases[0].tasks[0];
  const tasks = Array.from({ length: n }, (_, i) => ({
    ...model,
    id: `1.${i + 1}`,
    title: `Task number ${i + 1}`,
    status: "pending",
    depends_on: [],
    evidence_bundle: null,
  }));
  plan.phases = [{ ...plan.phases[0], tasks }];
  fs.rmSync(path.join(dir, ".autodev"), { recursive: true });
  const file = path.join(dir, "plan-in.json");
  fs.writeFileSync(file, JSON.stringify(plan));
  const r = spawnSync(process.execPath, [CLI, "init", dir, "--plan", file], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return dir;
}

/** Runs the CLI, closes its stdout after the first chunk and resolves with its exit code and stderr. */
function runAndCloseEarly(args: string[]): Promise<{ code: number | null; err: string; got: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    let got = 0;
    child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
    child.stdout.once("data", (b: Buffer) => {
      got = b.length;
      child.stdout.destroy();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, err, got }));
  });
}

describe("CLI: a reader that closes the pipe early @slow", function () {
  this.timeout(120_000);
  let dir = "";
  before(() => (dir = bigPlanWorkspace(3000)));

  for (const format of ["md", "html", "json"]) {
    it(`report --format ${format}: exits 141 quietly, no EPIPE trace`, async () => {
      const r = await runAndCloseEarly(["report", dir, "--format", format]);
      assert.ok(r.got > 0, "some output arrived first");
      assert.doesNotMatch(r.err, /EPIPE|Unhandled|at .*\.js:\d+/);
      assert.equal(r.code, 141, r.err);
    });
  }

  it("the whole report read to the end still exits 0", () => {
    const r = spawnSync(process.execPath, [CLI, "report", dir, "--format", "md"], { maxBuffer: 256 << 20 });
    assert.equal(r.status, 0, String(r.stderr));
    assert.ok(r.stdout.length > 256 * 1024, `report is ${r.stdout.length} bytes, more than a pipe holds`);
  });
});
