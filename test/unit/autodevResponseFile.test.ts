/**
 * The response file a person or agent writes in inline mode: the template pre-filled for each role,
 * and the live checks of its text — pydantic's own `InlineResponseFile` rules (differential, through
 * test/python/autodev_oracle.py: the real AutoDev module with AUTODEV_PY_SRC, else its reproduction),
 * the task and role it must answer, the placeholder, and what AutoDev reads the answer as.
 */
import * as assert from "node:assert/strict";
import { checkResponseText, responseTemplate } from "../../src/core/sources/autodev/inline/responseFile";
import { askOracle } from "./helpers/autodevOracle";

const ROLES = [
  "developer",
  "reviewer",
  "test_engineer",
  "critic_sounding_board",
  "explorer",
  "domain_expert",
  "architect",
];

function variant(edit: (o: Record<string, unknown>) => void): string {
  const o = JSON.parse(responseTemplate("1.2", "reviewer")) as Record<string, unknown>;
  edit(o);
  return JSON.stringify(o, null, 2);
}

describe("inline response files: template and live checks", function () {
  this.timeout(60_000);

  it("pre-fills every role with a file pydantic accepts, whose only finding is the placeholder", () => {
    const texts = ROLES.map((r) =>
      responseTemplate(r === "explorer" || r === "domain_expert" || r === "architect" ? "plan" : "1.2", r),
    );
    const py = askOracle<{ ok: boolean }>(texts.map((text) => ({ op: "response", text })));
    texts.forEach((text, i) => {
      assert.equal(py[i].ok, true, `${ROLES[i]}: ${text}`);
      const task = JSON.parse(text).task_id as string;
      const f = checkResponseText(text, { taskId: task, role: ROLES[i] });
      assert.ok(!f.some((x) => x.severity === "error"), JSON.stringify(f));
      assert.equal(f.find((x) => x.code === "inline_response_placeholder")?.line, 6, "at the text line");
    });
    assert.ok(responseTemplate("1.2", "reviewer").endsWith("}\n"));
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
    const tests = responseTemplate("1.2", "test_engineer").replace(
      "passed=0 failed=0 total=0",
      "passed=3 failed=1 total=4",
    );
    f = checkResponseText(tests, { taskId: "1.2", role: "test_engineer" });
    assert.match(
      f.find((x) => x.code === "inline_response_tests")!.message,
      /failed=1 total=4: it reports failing tests/,
    );
    f = checkResponseText(responseTemplate("1.2", "developer"), { taskId: "1.3", role: "developer" });
    assert.deepEqual(f[0], {
      line: 3,
      severity: "error",
      code: "inline_response_mismatch",
      message:
        "response mismatch: this file answers 1.3/developer, but it says 1.2/developer (autodev resume fails on it)",
    });
  });
});
