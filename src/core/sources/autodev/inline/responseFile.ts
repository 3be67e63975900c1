/**
 * Writing and checking an inline response file, `.autodev/responses/{task}-{role}.json`, the
 * way Python's `InlineAdapter.collect_response` will read it: `InlineResponseFile` (pydantic,
 * `extra="forbid"`, re-implemented in inlineSchemas.ts and checked against pydantic by the
 * differential tests), then the task and role it must answer. A template is pre-filled for the
 * role with a placeholder the agent or person replaces; the checks say so while it is still
 * there, and say what AutoDev will make of the answer (the reviewer's verdict, the test counts)
 * so the answer is right before `autodev resume` reads it. Pure.
 */
import { validateJsonText } from "../validateJson";
import { InlineResponseFileSchema } from "./inlineSchemas";
import { reviewVerdict, stepFailure, testCounts } from "./responseVerdict";

/** The start of every placeholder a template holds. */
const PLACEHOLDER = "<replace:";

const ROLE_TEXT: Record<string, string> = {
  developer: `${PLACEHOLDER} what you changed and why; optional 'LESSON: …' lines are kept as knowledge>`,
  reviewer: `${PLACEHOLDER} first line APPROVED, NEEDS_CHANGES or REJECTED; then one '- issue' line per problem>`,
  test_engineer: `${PLACEHOLDER} what you ran and what it printed>\nRESULTS: passed=0 failed=0 total=0`,
  critic_sounding_board: `${PLACEHOLDER} why the task keeps failing and what to do next>`,
  explorer: `${PLACEHOLDER} findings relevant to the spec (read-only)>`,
  domain_expert: `${PLACEHOLDER} domain constraints and references>`,
  architect: `${PLACEHOLDER} the whole plan: '# Plan: <title>', '## Phase 1: <title>', '### Task 1.1: <title>' with '- Description:', '- Files:', '- Acceptance:'>`,
};

/**
 * The response file to pre-fill for `taskId`/`role`: every field of `InlineResponseFile` in its
 * order, 2-space indented with a final newline, the text a placeholder for the role.
 */
export function responseTemplate(taskId: string, role: string): string {
  const text = ROLE_TEXT[role] ?? `${PLACEHOLDER} your answer as the ${role}>`;
  const body = [
    `  "schema_version": "1.0",`,
    `  "task_id": ${JSON.stringify(taskId)},`,
    `  "role": ${JSON.stringify(role)},`,
    `  "success": true,`,
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

/**
 * Every finding about a response file's text: pydantic's errors (as `autodev resume` would fail
 * on them), a task or role that differs from the file's name, a placeholder still there, and what
 * AutoDev will read the answer as.
 */
export function checkResponseText(text: string, expect: { taskId: string; role: string }): ResponseFinding[] {
  const v = validateJsonText(text, InlineResponseFileSchema);
  if (!v.ok) {
    return v.errors.map((e) => ({
      line: e.line,
      path: e.path === "(json)" || e.path === "(root)" ? "" : e.path,
      severity: "error",
      code: "inline_response_invalid",
      message: `${e.path === "(json)" ? "" : `${e.path}: `}${e.message} (autodev resume fails on this file: "invalid response file")`,
    }));
  }
  const r = v.value;
  const out: ResponseFinding[] = [];
  const at = (key: string) => v.lines.exactLineOf([key]) ?? 1;
  if (r.task_id !== expect.taskId || r.role !== expect.role) {
    out.push({
      line: at(r.task_id !== expect.taskId ? "task_id" : "role"),
      severity: "error",
      code: "inline_response_mismatch",
      message: `response mismatch: this file answers ${expect.taskId}/${expect.role}, but it says ${r.task_id}/${r.role} (autodev resume fails on it)`,
    });
  }
  if (r.text.includes(PLACEHOLDER)) {
    out.push({
      line: at("text"),
      severity: "warning",
      code: "inline_response_placeholder",
      message: "text still holds the template's placeholder: replace it with the answer before running autodev resume",
    });
  }
  const fails = stepFailure(expect.role, r);
  if (expect.role === "reviewer") {
    out.push({
      line: at("text"),
      severity: fails ? "warning" : "info",
      code: "inline_response_verdict",
      message: `AutoDev reads this review as ${reviewVerdict(r.text)}${fails ? ": the task goes back round the retry loop, and in inline mode the same answers are read again on every retry until it escalates" : ""}`,
    });
  } else if (expect.role === "test_engineer") {
    const c = testCounts(r.text);
    out.push({
      line: at("text"),
      severity: fails ? "warning" : "info",
      code: "inline_response_tests",
      message: `AutoDev reads passed=${c.passed} failed=${c.failed} total=${c.total}${c.total === 0 ? " (no 'RESULTS: passed=N failed=M total=T' line)" : ""}${fails ? `: it ${fails}, so the task is retried` : ""}`,
    });
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
