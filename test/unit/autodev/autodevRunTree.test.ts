/**
 * The run-state tree nodes and problems on the python-full fixture: the inline suspension at the top, the
 * tournaments browser (passes, judges, artifact and diff targets), knowledge, config and spec below; problems
 * at the right file and line; hostile text made plain in labels.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { loadPlan } from "../../../src/core/sources/autodev/ledger/ledgerReader";
import { readRunState, runPlanOf } from "../../../src/core/sources/autodev/run/runState";
import { runStateProblems } from "../../../src/core/sources/autodev/run/runProblems";
import { runBottomNodes, runTopNodes } from "../../../src/core/sources/autodev/tree/runTree";
import type { SourceTreeNode } from "../../../src/core/sources/stateSource";
import { copyFullFixture, tournamentId } from "../helpers/autodevOracle";

function find(nodes: readonly SourceTreeNode[], id: string): SourceTreeNode {
  for (const n of nodes) {
    if (n.id === id) return n;
    const inner = n.children ? findOrNull(n.children, id) : null;
    if (inner) return inner;
  }
  throw new Error(`no node ${id}`);
}
function findOrNull(nodes: readonly SourceTreeNode[], id: string): SourceTreeNode | null {
  try {
    return find(nodes, id);
  } catch {
    return null;
  }
}

async function runState(ws: string, home: string) {
  const { plan } = await loadPlan(ws);
  return readRunState(ws, runPlanOf(plan), { probe: false, home });
}

describe("autodev run-state tree and problems", function () {
  this.timeout(60_000);

  it("puts the suspension on top: waiting on the reviewer for 1.2, delegation to open, response missing, next steps", async () => {
    const { ws, home } = copyFullFixture();
    const top = runTopNodes(await runState(ws, home));
    assert.equal(top[0].id, "autodev|waiting");
    assert.equal(top[0].label, "Waiting on reviewer for 1.2");
    assert.deepEqual(find(top, "autodev|waiting|delegation").target, {
      kind: "file",
      file: ".autodev/delegations/1.2-reviewer.md",
    });
    assert.equal(find(top, "autodev|waiting|response").label, "Response: not written yet");
    assert.equal(top.length, 1, "nothing else on top while AutoDev is not running");
    const bottom = runBottomNodes(await runState(ws, home));
    assert.equal(bottom[0].id, "autodev|next");
    assert.match(String(find(bottom, "autodev|next|resume").description), /must answer/);
    assert.deepEqual(find(bottom, "autodev|next|execute").target, { kind: "reveal", nodeId: "autodev|task|2.1" });
  });

  it("shows retries against qa_retry_limit and an invalid response at its line", async () => {
    const { ws, home } = copyFullFixture();
    const stateFile = path.join(ws, ".autodev/inline-state.json");
    fs.writeFileSync(
      stateFile,
      JSON.stringify({
        ...JSON.parse(fs.readFileSync(stateFile, "utf8")),
        retry_count: 2,
        last_issues: ["missing docstring", "\u001b[31mred\u001b[0m"],
      }),
    );
    fs.writeFileSync(
      path.join(ws, ".autodev/responses/1.2-reviewer.json"),
      '{\n  "task_id": "1.2",\n  "role": "reviewer",\n  "success": "perhaps",\n  "text": "x"\n}',
    );
    const rs = await runState(ws, home);
    const top = runTopNodes(rs);
    assert.equal(top[0].label, "Waiting on reviewer for 1.2 (retry 2/3)");
    const resp = find(top, "autodev|waiting|response");
    assert.equal(resp.label, "Response: invalid (line 4)");
    assert.deepEqual(resp.target, { kind: "file", file: ".autodev/responses/1.2-reviewer.json", line: 4 });
    const issues = find(top, "autodev|waiting|issues").children!.map((n) => n.label);
    assert.deepEqual(issues, ["missing docstring", "[31mred [0m"]);
    const p = runStateProblems(rs).find((x) => x.code === "inline_response_invalid");
    assert.deepEqual([p?.file, p?.line, p?.severity], [".autodev/responses/1.2-reviewer.json", 4, "error"]);
  });

  it("browses tournaments: passes with winner and scores, judges, artifacts and the two diffs", async () => {
    const { ws, home } = copyFullFixture();
    const bottom = runBottomNodes(await runState(ws, home));
    const plan = tournamentId(ws, "plan");
    const t = find(bottom, `autodev|tournament|${plan}`);
    assert.match(String(t.description), /plan · 3 passes · last A · converged/);
    const pass1 = find(bottom, `autodev|tournament|${plan}|pass|1`);
    assert.equal(pass1.label, "Pass 1: AB won");
    assert.match(String(pass1.description), /A 4 · B 2 · AB 6 · 2\/3 judges/);
    const diff = find(bottom, `autodev|tournament|${plan}|pass|1|diff`).target;
    assert.deepEqual(diff, {
      kind: "diff",
      title: `${plan} pass 1: A ↔ AB`,
      left: { kind: "file", file: `.autodev/tournaments/${plan}/pass_01/version_a.md` },
      right: { kind: "file", file: `.autodev/tournaments/${plan}/pass_01/version_ab.md` },
    });
    assert.equal(find(bottom, `autodev|tournament|${plan}|diff`).target?.kind, "diff");
    assert.ok(pass1.children!.some((n) => n.label === "Judge 3: no usable ranking"));
    assert.ok(pass1.children!.some((n) => n.label === "Incumbent after pass 1"));
    const impl = find(bottom, `autodev|tournament|${tournamentId(ws, "impl")}`);
    assert.match(String(impl.description), /^task 1\.1 · 2 passes/);
  });

  it("lists knowledge, config settings and the spec", async () => {
    const { ws, home } = copyFullFixture();
    const bottom = runBottomNodes(await runState(ws, home));
    assert.equal(find(bottom, "autodev|knowledge").description, "3 project · 1 hive · 1 rejected");
    assert.equal(
      find(bottom, "autodev|knowledge|swarm").children![0].label,
      "Keep greeting functions pure so they are trivial to test.",
    );
    assert.equal(find(bottom, "autodev|config").description, "inline · valid");
    assert.match(String(find(bottom, "autodev|config|retries").description), /^3 · 1\.2 at retry 0\/3$/);
    assert.match(
      String(find(bottom, "autodev|config|tournaments|impl").description),
      /on · 1 judges · k=1 · ≤3 rounds/,
    );
    assert.equal(find(bottom, "autodev|spec").label, "Spec matches the plan");
    const pe = find(bottom, "autodev|planEvidence").children!;
    assert.deepEqual(
      pe.map((n) => n.label),
      ["Domain expert", "Explorer findings"],
    );
    assert.deepEqual(pe[1].target, { kind: "file", file: ".autodev/evidence/plan-explore-explore.json" });
  });

  it("flags a damaged config at the key's line, an edited spec and leftover worktrees as problems", async () => {
    const { ws, home } = copyFullFixture();
    assert.deepEqual(runStateProblems(await runState(ws, home)), [], "the fixture as Python left it has no problems");
    const cfgFile = path.join(ws, ".autodev/config.json");
    const text = fs.readFileSync(cfgFile, "utf8").replace('"qa_retry_limit": 3', '"qa_retry_limit": "three"');
    fs.writeFileSync(cfgFile, text);
    fs.appendFileSync(path.join(ws, ".autodev/spec.md"), "Also add a farewell.\n");
    const implDir = path.join(ws, ".autodev/tournaments", tournamentId(ws, "impl"));
    fs.mkdirSync(path.join(implDir, "worktrees/ab-1"), { recursive: true });
    const finished = runStateProblems(await runState(ws, home));
    assert.ok(
      !finished.some((p) => p.code === "tournament_worktrees_left"),
      "beside history and final output: finished",
    );
    fs.rmSync(path.join(implDir, "final_output.md"));
    const problems = runStateProblems(await runState(ws, home));
    const cfg = problems.find((p) => p.code === "config_invalid")!;
    assert.equal(cfg.line, text.split("\n").findIndex((l) => l.includes('"qa_retry_limit"')) + 1);
    assert.match(cfg.message, /^qa_retry_limit: Input should be a valid integer/);
    assert.ok(problems.some((p) => p.code === "spec_drift" && p.file === ".autodev/spec.md"));
    assert.ok(problems.some((p) => p.code === "tournament_worktrees_left"));
    const bottom = runBottomNodes(await runState(ws, home));
    assert.equal(find(bottom, "autodev|config").description, "1 error");
    assert.equal(find(bottom, "autodev|spec").label, "Spec drift");
  });
});
