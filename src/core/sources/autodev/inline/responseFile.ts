/**
 * Writing and checking an inline response file, `.autodev/responses/{task}-{role}.json`, the
 * way Python's `InlineAdapter.collect_response` will read it: `InlineResponseFile` (pydantic,
 * `extra="forbid"`, re-implemented in inlineSchemas.ts and checked against pydantic by the
 * differential tests), then the task and role it must answer. A template is pre-filled for the
 * role with placeholders the agent or person replaces, and untouched it is an answer AutoDev
 * refuses: `success` holds a placeholder, not a boolean, so `autodev resume` fails on it ("invalid
 * response file") instead of reading it as a pass (a test_engineer's zeros) or a verdict nobody gave
 * (a reviewer's placeholder naming REJECTED); the real AutoDev's answers to each template are
 * recorded in test/fixtures/autodev-real-run-templates/. The checks say while a placeholder is
 * still there, and say what AutoDev will make of the answer (the reviewer's verdict, the test
 * counts) so the answer is right before `autodev resume` reads it. Pure.
 */
import { validateJsonText } from "../validateJson";
import { InlineResponseFileSchema } from "./inlineSchemas";
import { hasResultsLine, reviewVerdict, stepFailure, testCounts } from "./responseVerdict";

/** The start of every placeholder a template holds. */
const PLACEHOLDER = "<replace:";

const ROLE_TEXT: Record<string, string> = {
  developer: `${PLACEHOLDER} what you changed and why; optional 'LESSON: …' lines are kept as knowledge>`,
  // No verdict word here: AutoDev reads the first line naming one as the verdict.
  reviewer: `${PLACEHOLDER} on the first line the verdict word the delegation's acceptance names; then one '- issue' line per problem>`,
  // No RESULTS line with numbers here: AutoDev reads zeros as a pass with no test run.
  test_engineer: `${PLACEHOLDER} what you ran and what it printed, ending with the line 'RESULTS: passed=N failed=M total=T' of your run>`,
  critic_sounding_board: `${PLACEHOLDER} why the task keeps failing and what to do next>`,
  explorer: `${PLACEHOLDER} findings relevant to the spec (read-only)>`,
  domain_expert: `${PLACEHOLDER} domain constraints and references>`,
  architect: `${PLACEHOLDER} the whole plan: '# Plan: <title>', '## Phase 1: <title>', '### Task 1.1: <title>' with '- Description:', '- Files:', '- Acceptance:'>`,
};

/** The `success` of a template: a string, so pydantic refuses the file until it is true or false. */
const SUCCESS_PLACEHOLDER = `${PLACEHOLDER} true if the step succeeded, false if it did not>`;

/**
 * The response file to pre-fill for `taskId`/`role`: every field of `InlineResponseFile` in its
 * order, 2-space indented with a final newline, `success` and the text placeholders for the role.
 */
export function responseTemplate(taskId: string, role: string): string {
  const text = ROLE_TEXT[role] ?? `${PLACEHOLDER} your answer as the ${role}>`;
  const body = [
    `  "schema_version": "1.0",`,
    `  "task_id": ${JSON.stringify(taskId)},`,
    `  "role": ${JSON.stringify(role)},`,
    `  "success": ${JSON.stringify(SUCCESS_PLACEHOLDER)},`,
    `  "text": ${JSON.stringify(text)},`,
    `  "error": null,`,
    `  "duration_s": 0.0,`,
    `  "files_changed": [],`,
    `  "diff": null`,
  ];
  return `{\n${body.join("\n")}\n}\n`;
}

/** One finding about a response file, at a 1-based line. */
export interface ResponseFinding {
  readonly line: number;
  /** For a schema error, pydantic's `loc` joined with "." ("" for the whole document, as for a JSON syntax error). */
  readonly path?: string;
  readonly severity: "error" | "warning" | "info";
  readonly code: string;
  readonly message: string;
}

/** The 1-based lines of `text` that still hold a template placeholder (`<replace: …>`). */
export function placeholderLines(text: string): number[] {
  const out: number[] = [];
  text.split("\n").forEach((l, i) => {
    if (l.includes(PLACEHOLDER)) out.push(i + 1);
  });
  return out;
}

/** What a placeholder left in the file means for `autodev resume`, given whether pydantic takes the file. */
function unfilledMessage(parses: boolean): string {
  return parses
    ? "not filled in: this line still holds the template's placeholder, yet AutoDev would take the file as the answer; replace it before running autodev resume (Resume Run refuses until then)"
    : 'not filled in: this line still holds the template\'s placeholder; replace it with the answer (`success` true or false) — as it stands autodev resume refuses the file ("invalid response file")';
}

/**
 * Every finding about a response file's text: a template placeholder still there (an error, at each
 * line holding one), pydantic's errors (as `autodev resume` would fail on them) on the other lines, a
 * task or role that differs from the file's name, and what AutoDev will read the answer as.
 */
export function checkResponseText(text: string, expect: { taskId: string; role: string }): ResponseFinding[] {
  const v = validateJsonText(text, InlineResponseFileSchema);
  const held = placeholderLines(text);
  const unfilled: ResponseFinding[] = held.map((line) => ({
    line,
    severity: "error",
    code: "inline_response_unfilled",
    message: unfilledMessage(v.ok),
  }));
  if (!v.ok) {
    return [
      ...unfilled,
      ...v.errors
        .filter((e) => !held.includes(e.line))
        .map((e): ResponseFinding => ({
          line: e.line,
          path: e.path === "(json)" || e.path === "(root)" ? "" : e.path,
          severity: "error",
          code: "inline_response_invalid",
          message: `${e.path === "(json)" ? "" : `${e.path}: `}${e.message} (autodev resume fails on this file: "invalid response file")`,
        })),
    ];
  }
  const r = v.value;
  const out: ResponseFinding[] = [...unfilled];
  const at = (key: string) => v.lines.exactLineOf([key]) ?? 1;
  if (r.task_id !== expect.taskId || r.role !== expect.role) {
    out.push({
      line: at(r.task_id !== expect.taskId ? "task_id" : "role"),
      severity: "error",
      code: "inline_response_mismatch",
      message: `response mismatch: this file answers ${expect.taskId}/${expect.role}, but it says ${r.task_id}/${r.role} (autodev resume fails on it)`,
    });
  }
  if (held.length > 0) return out;
  const fails = stepFailure(expect.role, r);
  if (expect.role === "reviewer") {
    out.push({
      line: at("text"),
      severity: fails ? "warning" : "info",
      code: "inline_response_verdict",
      message: `AutoDev reads this review as ${reviewVerdict(r.text)}${fails ? ": the task goes back round the retry loop, and in inline mode the same answers are read again on every retry until it escalates" : ""}`,
    });
  } else if (expect.role === "test_engineer") {
    out.push(testsFinding(r.text, fails, expect.taskId, at("text")));
  } else if (fails) {
    out.push({
      line: at("success"),
      severity: "warning",
      code: "inline_response_failure",
      message: `the answer ${fails}: AutoDev retries the task`,
    });
  }
  return out;
}

/** What AutoDev reads in a test_engineer's text: the counts, and a pass with no test run said so. */
function testsFinding(text: string, fails: string | null, taskId: string, line: number): ResponseFinding {
  const c = testCounts(text);
  const counts = `AutoDev reads passed=${c.passed} failed=${c.failed} total=${c.total}`;
  if (fails) {
    return {
      line,
      severity: "warning",
      code: "inline_response_tests",
      message: `${counts}: it ${fails}, so the task is retried`,
    };
  }
  if (c.total === 0 && c.passed === 0) {
    const why = hasResultsLine(text)
      ? "the RESULTS line says no test ran"
      : "there is no 'RESULTS: passed=N failed=M total=T' line, so it counts zeros";
    return {
      line,
      severity: "warning",
      code: "inline_response_tests",
      message: `${counts}: ${why}, yet AutoDev retries only on a failed test or success: false, so task ${taskId} completes with 0 tests run`,
    };
  }
  return { line, severity: "info", code: "inline_response_tests", message: counts };
}
