/**
 * The response file a person or agent writes in inline mode: the template pre-filled for each role,
 * and the live checks of its text — pydantic's own `InlineResponseFile` rules (differential, through
 * the real AutoDev module's answers: live with AUTODEV_PY_SRC, else recorded),
 * the task and role it must answer, the placeholders (an untouched template is a file pydantic refuses),
 * and what AutoDev reads the answer as (a pass with no test run said so).
 */
import * as assert from "node:assert/strict";
import { checkResponseText, responseTemplate } from "../../../src/core/sources/autodev/inline/responseFile";
import { hasResultsLine, reviewVerdict } from "../../../src/core/sources/autodev/inline/responseVerdict";
import { askOracle } from "../helpers/autodevOracle";
import { inThreadWorker } from "../helpers/inThreadWorker";
import { autodevRequest } from "../../../src/extension/sources/autodev/autodevRequest";

const ROLES = [
  "developer",
  "reviewer",
  "test_engineer",
  "critic_sounding_board",
  "explorer",
  "domain_expert",
  "architect",
];

/** A filled-in answer made from the template for `role` (success true, the text given), then edited. */
function answer(role: string, text: string, edit: (o: Record<string, unknown>) => void = () => {}): string {
  const o = JSON.parse(responseTemplate("1.2", role)) as Record<string, unknown>;
  Object.assign(o, { success: true, text });
  edit(o);
  return JSON.stringify(o, null, 2);
}

function variant(edit: (o: Record<string, unknown>) => void): string {
  return answer("reviewer", "APPROVED\nfine", edit);
}

describe("inline response files: template and live checks", function () {
  this.timeout(60_000);

  it("pre-fills every role with a file pydantic refuses until success and text are filled in", () => {
    const texts = ROLES.map((r) =>
      responseTemplate(r === "explorer" || r === "domain_expert" || r === "architect" ? "plan" : "1.2", r),
    );
    const py = askOracle<{ ok: boolean; locs: unknown[][] }>(texts.map((text) => ({ op: "response", text })));
    texts.forEach((text, i) => {
      assert.equal(py[i].ok, false, `${ROLES[i]}: pydantic takes the untouched template ${text}`);
      assert.deepEqual(py[i].locs, [["success"]], ROLES[i]);
      const task = JSON.parse(text).task_id as string;
      const f = checkResponseText(text, { taskId: task, role: ROLES[i] });
      // One error at each placeholder line (success, text), none repeating pydantic's on the same line.
      assert.deepEqual(
        f.map((x) => [x.code, x.severity, x.line]),
        [
          ["inline_response_unfilled", "error", 5],
          ["inline_response_unfilled", "error", 6],
        ],
        ROLES[i],
      );
      assert.match(f[0].message, /autodev resume refuses the file/);
    });
    // Nothing in the text AutoDev would read as a verdict or as test counts, were success filled in.
    const text = (role: string) => JSON.parse(responseTemplate("1.2", role)).text as string;
    assert.equal(reviewVerdict(text("reviewer")), "APPROVED", "no verdict word: AutoDev's default, not REJECTED");
    assert.ok(!hasResultsLine(text("test_engineer")), text("test_engineer"));
    assert.ok(responseTemplate("1.2", "reviewer").endsWith("}\n"));
  });

  it("marks a placeholder left in a file pydantic takes (an older template) as not filled in, with no verdict read", () => {
    const old = answer(
      "reviewer",
      "<replace: first line APPROVED, NEEDS_CHANGES or REJECTED; then one '- issue' line per problem>",
    );
    const f = checkResponseText(old, { taskId: "1.2", role: "reviewer" });
    assert.deepEqual(
      f.map((x) => [x.code, x.severity]),
      [["inline_response_unfilled", "error"]],
    );
    assert.match(f[0].message, /AutoDev would take the file as the answer/);
  });

  it("agrees with pydantic on which files are valid and where each error is", () => {
    const cases = [
      variant((o) => (o.text = null)),
      variant((o) => (o.success = "maybe")),
      variant((o) => (o.success = "yes")),
      variant((o) => (o.duration_s = true)),
      variant((o) => (o.duration_s = "2.5")),
      variant((o) => (o.files_changed = ["a", 1])),
      variant((o) => (o.verdict = "ok")),
      variant((o) => (o.schema_version = "2.0")),
      variant((o) => delete o.text),
      variant((o) => (o.task_id = 1)),
      variant((o) => (o.diff = 5)),
      variant((o) => (o.error = "boom")),
      '{\n  "task_id": "1.2",\n  "role": "reviewer",\n}',
    ];
    const py = askOracle<{ ok: boolean; locs: unknown[][] }>(cases.map((text) => ({ op: "response", text })));
    cases.forEach((text, i) => {
      const errors = checkResponseText(text, { taskId: "1.2", role: "reviewer" }).filter(
        (f) => f.code === "inline_response_invalid",
      );
      assert.equal(errors.length === 0, py[i].ok, `${text}\npydantic: ${JSON.stringify(py[i])}`);
      // The same fields as pydantic's locs (a syntax error has none), each placed at or below its key's line.
      const paths = errors.map((e) => e.path).sort();
      if (py[i].locs.length) assert.deepEqual(paths, py[i].locs.map((l) => l.join(".")).sort(), text);
      for (const e of errors) {
        const key = String(e.path).split(".")[0];
        const keyLine = text.split("\n").findIndex((l) => l.startsWith(`  "${key}"`)) + 1;
        if (keyLine > 0) assert.ok(e.line >= keyLine, `${e.message} at line ${e.line}, key at ${keyLine}`);
      }
    });
  });

  it("says what AutoDev will read: the verdict, the test counts, a mismatch", () => {
    const review = (t: string) => variant((o) => (o.text = t));
    let f = checkResponseText(review("APPROVED\nLooks right."), { taskId: "1.2", role: "reviewer" });
    assert.deepEqual(
      f.map((x) => [x.code, x.severity]),
      [["inline_response_verdict", "info"]],
    );
    f = checkResponseText(review("Overall\nNEEDS CHANGES\n- add a test"), { taskId: "1.2", role: "reviewer" });
    assert.match(f[0].message, /reads this review as NEEDS_CHANGES: the task goes back round the retry loop/);
    assert.equal(f[0].severity, "warning");
    assert.match(checkResponseText(review("LGTM"), { taskId: "1.2", role: "reviewer" })[0].message, /as APPROVED/);
    const tests = (t: string) =>
      checkResponseText(answer("test_engineer", t), { taskId: "1.2", role: "test_engineer" }).find(
        (x) => x.code === "inline_response_tests",
      )!;
    assert.match(
      tests("ran pytest\nRESULTS: passed=3 failed=1 total=4").message,
      /failed=1 total=4: it reports failing tests/,
    );
    assert.deepEqual(
      [tests("RESULTS: passed=4 failed=0 total=4").severity, tests("RESULTS: passed=4 failed=0 total=4").message],
      ["info", "AutoDev reads passed=4 failed=0 total=4"],
    );
    // Zeros: with a RESULTS line or without one, a pass with no test run (the real AutoDev completed 1.1 so).
    const zeros = tests("ran nothing\nRESULTS: passed=0 failed=0 total=0");
    assert.equal(zeros.severity, "warning");
    assert.match(zeros.message, /the RESULTS line says no test ran, .*task 1\.2 completes with 0 tests run/);
    assert.match(
      tests("all good").message,
      /there is no 'RESULTS: passed=N failed=M total=T' line.*completes with 0 tests run/,
    );
    f = checkResponseText(answer("developer", "done"), { taskId: "1.3", role: "developer" });
    assert.deepEqual(f[0], {
      line: 3,
      severity: "error",
      code: "inline_response_mismatch",
      message:
        "response mismatch: this file answers 1.3/developer, but it says 1.2/developer (autodev resume fails on it)",
    });
  });

  it("the editor's live check is the state worker's checkResponse, the same findings (the host loads no schema)", async () => {
    const worker = inThreadWorker();
    const texts = [
      responseTemplate("1.2", "reviewer"),
      answer("reviewer", "APPROVED\nfine"),
      answer("developer", "done"),
      '{"task_id": "1.2", "role": "reviewer", "success": "perhaps", "text": "x"}',
      "{ not json",
    ];
    for (const text of texts) {
      for (const expect of [
        { taskId: "1.2", role: "reviewer" },
        { taskId: "1.3", role: "developer" },
      ]) {
        const viaWorker = await autodevRequest(worker, "/nowhere", { type: "checkResponse", text, ...expect });
        assert.deepEqual(structuredClone(viaWorker), checkResponseText(text, expect), text);
      }
    }
  });
});
