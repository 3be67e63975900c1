/**
 * Inline mode and "what comes next": the python-full fixture suspended by the real InlineAdapter (waiting on
 * the reviewer for 1.2, the developer's response answered), response files missing / present / invalid with
 * the error's line, validity differential against pydantic's InlineResponseFile / InlineSuspendState, paths
 * rebuilt (never followed from the file), and the resume / execute decisions.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { readInlineState, waitingLabel } from "../../../src/core/sources/autodev/inline/inlineState";
import { decideNextSteps, PlanTasks } from "../../../src/core/sources/autodev/run/nextStep";
import { askOracle, copyFullFixture } from "../helpers/autodevOracle";

const RESPONSE = {
  schema_version: "1.0",
  task_id: "1.2",
  role: "reviewer",
  success: true,
  text: "APPROVED",
  error: null,
  duration_s: 1.5,
  files_changed: [],
  diff: null,
};

function plan(...tasks: Array<[string, string]>): PlanTasks {
  return { phases: [{ tasks: tasks.map(([id, status]) => ({ id, status, title: `task ${id}` })) }] };
}

describe("autodev inline mode and next steps", function () {
  this.timeout(120_000);

  it("shows the fixture's suspension: waiting on the reviewer for 1.2, delegation there, response missing", async () => {
    const { ws } = copyFullFixture();
    const r = await readInlineState(ws);
    assert.deepEqual(r.errors, []);
    const w = r.waiting!;
    assert.equal(w.taskId, "1.2");
    assert.equal(w.role, "reviewer");
    assert.equal(w.step, "reviewer");
    assert.equal(w.retryCount, 0);
    assert.equal(w.delegationPath, ".autodev/delegations/1.2-reviewer.md");
    assert.equal(w.delegationExists, true);
    assert.equal(w.response.state, "missing");
    assert.equal(w.pathNote, null);
    assert.equal(waitingLabel(w), "Waiting on reviewer for 1.2");
    assert.equal(waitingLabel({ ...w, retryCount: 2 }, 3), "Waiting on reviewer for 1.2 (retry 2/3)");
    assert.deepEqual(r.delegations, ["1.2-developer.md", "1.2-reviewer.md"]);
    assert.deepEqual(
      r.responses.map((x) => [x.file, x.state]),
      [[".autodev/responses/1.2-developer.json", "present"]],
    );
    assert.equal(r.responses[0].response?.text, "Handled empty names.");
  });

  it("classifies the pending response: present, invalid JSON at its line, schema error at the key's line, another task's", async () => {
    const { ws } = copyFullFixture();
    const file = path.join(ws, ".autodev/responses/1.2-reviewer.json");
    fs.writeFileSync(file, JSON.stringify(RESPONSE, null, 2));
    assert.equal((await readInlineState(ws)).waiting!.response.state, "present");
    fs.writeFileSync(file, '{\n  "task_id": "1.2",\n  "role": "reviewer"\n  "success": true\n}');
    let w = (await readInlineState(ws)).waiting!;
    assert.equal(w.response.state, "invalid");
    assert.equal(w.response.error?.line, 4);
    fs.writeFileSync(file, JSON.stringify({ ...RESPONSE, verdict: "ok" }, null, 2));
    w = (await readInlineState(ws)).waiting!;
    assert.equal(w.response.state, "invalid");
    assert.equal(w.response.error?.path, "verdict");
    assert.equal(w.response.error?.line, 11);
    fs.writeFileSync(file, JSON.stringify({ ...RESPONSE, task_id: "9.9" }, null, 2));
    w = (await readInlineState(ws)).waiting!;
    assert.equal(w.response.state, "invalid");
    assert.match(w.response.error!.message, /response mismatch: expected 1\.2\/reviewer/);
  });

  it("agrees with pydantic on which response and suspend-state files are valid @slow", async () => {
    const { ws } = copyFullFixture();
    const stateText = fs.readFileSync(path.join(ws, ".autodev/inline-state.json"), "utf8");
    const state = JSON.parse(stateText) as Record<string, unknown>;
    const responses: Array<Record<string, unknown>> = [
      RESPONSE,
      { ...RESPONSE, success: "yes" },
      { ...RESPONSE, success: "maybe" },
      { ...RESPONSE, duration_s: "2.5" },
      { ...RESPONSE, text: 5 },
      { ...RESPONSE, extra: 1 },
      { ...RESPONSE, schema_version: "2.0" },
      { task_id: "1.2", role: "reviewer", success: true, text: "" },
      { ...RESPONSE, files_changed: ["a", 1] },
      { ...RESPONSE, error: 3 },
    ];
    const states: Array<Record<string, unknown>> = [
      state,
      { ...state, orchestrator_step: "judge" },
      { ...state, retry_count: "2" },
      { ...state, last_issues: "x" },
      { ...state, note: 1 },
    ];
    const py = askOracle<{ ok: boolean }>([
      ...responses.map((r) => ({ op: "response", text: JSON.stringify(r) })),
      ...states.map((s) => ({ op: "suspend", text: JSON.stringify(s) })),
    ]);
    const file = path.join(ws, ".autodev/responses/1.2-reviewer.json");
    for (let i = 0; i < responses.length; i++) {
      fs.writeFileSync(file, JSON.stringify(responses[i]));
      assert.equal(
        (await readInlineState(ws)).waiting!.response.state === "present",
        py[i].ok,
        `response ${JSON.stringify(responses[i])}`,
      );
    }
    for (let i = 0; i < states.length; i++) {
      fs.writeFileSync(path.join(ws, ".autodev/inline-state.json"), JSON.stringify(states[i]));
      assert.equal(
        (await readInlineState(ws)).waiting !== null,
        py[responses.length + i].ok,
        `state ${JSON.stringify(states[i])}`,
      );
    }
  });

  it("never follows paths from inline-state.json and refuses ids that would leave the folder", async () => {
    const { ws } = copyFullFixture();
    const stateFile = path.join(ws, ".autodev/inline-state.json");
    const state = JSON.parse(fs.readFileSync(stateFile, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(stateFile, JSON.stringify({ ...state, response_path: "/etc/passwd" }));
    const w = (await readInlineState(ws)).waiting!;
    assert.equal(w.responsePath, ".autodev/responses/1.2-reviewer.json");
    assert.match(w.pathNote!, /response_path "\/etc\/passwd" differ/);
    fs.writeFileSync(stateFile, JSON.stringify({ ...state, pending_task_id: "../../x" }));
    const bad = await readInlineState(ws);
    assert.equal(bad.waiting, null);
    assert.equal(bad.errors[0].path, "pending_task_id");
  });

  it("decides what resume and execute do next, as their Python code does", async () => {
    const { ws } = copyFullFixture();
    const w = (await readInlineState(ws)).waiting!;
    const p = plan(["1.1", "complete"], ["1.2", "auto_gated"], ["2.1", "pending"]);
    let n = decideNextSteps(p, w);
    assert.equal(n.resume.action, "wait_for_response");
    assert.equal(n.execute.action, "start_task");
    assert.equal(n.execute.taskId, "2.1");
    n = decideNextSteps(p, { ...w, response: { ...w.response, state: "present" } });
    assert.equal(n.resume.action, "collect_response");
    assert.match(n.resume.text, /re-runs task 1\.2/);
    n = decideNextSteps(p, {
      ...w,
      response: { ...w.response, state: "invalid", error: { path: "x", message: "bad", line: 2 } },
    });
    assert.equal(n.resume.action, "fail_invalid_response");
    n = decideNextSteps(p, null);
    assert.deepEqual([n.resume.action, n.resume.taskId], ["rerun_task", "1.2"]);
    n = decideNextSteps(plan(["1.1", "complete"], ["1.2", "blocked"], ["2.1", "pending"]), null);
    assert.deepEqual([n.resume.action, n.resume.taskId], ["start_task", "2.1"]);
    n = decideNextSteps(plan(["1.1", "complete"], ["1.2", "skipped"]), null);
    assert.equal(n.resume.action, "nothing");
    assert.equal(n.execute.action, "nothing");
    assert.equal(decideNextSteps(null, null).resume.action, "nothing");
  });
});
