/**
 * The demo's inline-mode state: AutoDev suspended at the reviewer of one task, waiting for the
 * agent's response. Both files are derived from what the real AutoDev 0.1.1 wrote in the recorded
 * run (test/fixtures/autodev-real-run/12-1.2-reviewer-waiting, copied to dist/demo/autodev-real-run/
 * by the build): `inline-state.json` keeps the real file's keys, order and layout
 * (`model_dump_json(indent=2)`, no final newline) with the demo's values, and the delegation keeps
 * the real reviewer's role prompt, frontmatter lines and layout (`adapters/inline.py`), with the
 * demo task's envelope and injected lessons in the places AutoDev puts them. The unit test renders
 * the recorded delegation and suspend state back from their own inputs, byte for byte.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isoNow } from "../core/sources/autodev/ledger/ledgerWriter";
import { delegationRel, responseRel } from "../core/sources/autodev/inline/inlinePaths";

/** The files of the recorded run the demo derives from, under `dist/demo/autodev-real-run/`. */
export const DEMO_INLINE_FIXTURES: Readonly<Record<string, string>> = {
  "inline-state.json": "test/fixtures/autodev-real-run/12-1.2-reviewer-waiting/workspace/.autodev/inline-state.json",
  "reviewer.md":
    "test/fixtures/autodev-real-run/12-1.2-reviewer-waiting/workspace/.autodev/delegations/1.2-reviewer.md",
};

/** What a recorded delegation holds that does not depend on its task. */
export interface DelegationTemplate {
  readonly role: string;
  /** The frontmatter's `timeout_s: …` and `allowed_tools: […]` lines, as written. */
  readonly toolLines: readonly string[];
  /** The role's system prompt (`spec.prompt.strip()`). */
  readonly rolePrompt: string;
}

/** A lesson as AutoDev injects it into a prompt. */
export interface InjectedLesson {
  readonly confidence: number;
  readonly text: string;
}

/** The task a reviewer delegation is written for. */
export interface ReviewTask {
  readonly taskId: string;
  readonly title: string;
  readonly description: string;
  readonly files: readonly string[];
  /** The developer's diff (the envelope keeps its first 8000 characters). */
  readonly diff: string;
  /** Lessons `inject_block` selected for the reviewer, best first (empty: no block). */
  readonly lessons: readonly InjectedLesson[];
  /** When AutoDev wrote the file (ms since the epoch). */
  readonly createdAtMs: number;
}

const PROMPT_START = "\n## System Prompt\n\n";
const ENVELOPE_START = "\n\n\n---\n\nTASK: ";
const REVIEW_ACCEPTANCE =
  "Respond with one of APPROVED / NEEDS_CHANGES / REJECTED on the first line. Follow with bullet-point issues if not APPROVED.";

/** The task-independent parts of a recorded reviewer delegation; throws when it is not laid out as AutoDev writes it. */
export function delegationTemplate(real: string): DelegationTemplate {
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(real);
  const start = real.indexOf(PROMPT_START);
  const end = real.indexOf(ENVELOPE_START, start);
  const role = fm ? /^role: "(.*)"$/m.exec(fm[1])?.[1] : undefined;
  if (!fm || !role || start < 0 || end < 0) {
    throw new Error("the recorded delegation is not laid out as AutoDev writes it");
  }
  return {
    role,
    toolLines: fm[1].split("\n").filter((l) => /^(timeout_s|allowed_tools):/.test(l)),
    rolePrompt: real.slice(start + PROMPT_START.length, end),
  };
}

/** `DelegationEnvelope.render_as_task_message()` of the reviewer's envelope (`_review_envelope`). */
function reviewEnvelope(role: string, t: ReviewTask): string {
  const lines = [`TASK: ${t.taskId}`, `AGENT: ${role}`, "ACTION: review"];
  if (t.files.length) lines.push("FILES:", ...t.files.map((f) => `  - ${f}`));
  lines.push(`ACCEPTANCE: ${REVIEW_ACCEPTANCE}`, "CONTEXT:");
  lines.push(`  task_title: ${t.title}`, `  task_description: ${t.description}`);
  lines.push(`  diff: ${Array.from(t.diff).slice(0, 8000).join("")}`);
  return lines.join("\n");
}

/** `inject_block`'s text: `- [conf:0.70] text` lines under a heading ("" without lessons). */
function lessonsBlock(lessons: readonly InjectedLesson[]): string {
  if (!lessons.length) return "";
  const line = (l: InjectedLesson) =>
    `- [conf:${l.confidence.toFixed(2)}] ${l.text.split(/\s+/).filter(Boolean).join(" ")}`;
  return ["Lessons learned from prior work:", ...lessons.map(line)].join("\n");
}

/** The delegation file AutoDev writes for `t`, laid out as the recorded one. */
export function renderReviewDelegation(tpl: DelegationTemplate, t: ReviewTask): string {
  const { role } = tpl;
  const lessons = lessonsBlock(t.lessons);
  const prompt = [tpl.rolePrompt, "\n\n---\n", reviewEnvelope(role, t), ...(lessons ? ["\n\n", lessons] : [])].join(
    "\n",
  );
  const response = responseRel(t.taskId, role);
  const created = new Date(t.createdAtMs).toISOString().replace(/\.\d{3}Z$/, "Z");
  return [
    "---",
    'autodev_version: "1.0"',
    `task_id: "${t.taskId}"`,
    `role: "${role}"`,
    `response_path: "${response}"`,
    `created_at: "${created}"`,
    ...tpl.toolLines,
    "---",
    "",
    `# Agent Delegation: ${role} / task ${t.taskId}`,
    "",
    `You are the **${role}** agent. Complete the task below using your tools.`,
    `When done, write your response to \`${response}\``,
    "(see Response Format below), then run `autodev resume` to continue.",
    "",
    "---",
    "",
    "## System Prompt",
    "",
    prompt,
    "",
    "---",
    "",
    "## Response Format",
    "",
    `Write a JSON file to \`${response}\` with this schema:`,
    "",
    "```json",
    "{",
    '  "schema_version": "1.0",',
    `  "task_id": "${t.taskId}",`,
    `  "role": "${role}",`,
    '  "success": true,',
    '  "text": "your response text here",',
    '  "error": null,',
    '  "duration_s": 0.0,',
    '  "files_changed": [],',
    '  "diff": null',
    "}",
    "```",
    "",
    "Then run: `autodev resume`",
    "",
  ].join("\n");
}

/** The suspend state of a run waiting on `role` for `taskId`: the recorded file's keys and layout with these values. */
export function renderSuspendState(
  real: string,
  v: { sessionId: string; taskId: string; role: string; suspendedAtMs: number },
): string {
  const recorded = JSON.parse(real) as Record<string, unknown>;
  const values: Record<string, unknown> = {
    session_id: v.sessionId,
    suspended_at: isoNow(v.suspendedAtMs),
    pending_task_id: v.taskId,
    pending_role: v.role,
    delegation_path: delegationRel(v.taskId, v.role),
    response_path: responseRel(v.taskId, v.role),
    orchestrator_step: v.role,
    retry_count: 0,
    last_issues: [],
  };
  const out = Object.fromEntries(Object.keys(recorded).map((k) => [k, k in values ? values[k] : recorded[k]]));
  return JSON.stringify(out, null, 2);
}

/** Writes `.autodev/inline-state.json` and the pending reviewer delegation of `t` into `dir` from the recorded files in `assets`. */
export function writeDemoInline(dir: string, assets: string, sessionId: string, t: ReviewTask): void {
  const recorded = (name: string) => fs.readFileSync(path.join(assets, "autodev-real-run", name), "utf8");
  const tpl = delegationTemplate(recorded("reviewer.md"));
  const delegation = path.join(dir, delegationRel(t.taskId, tpl.role));
  fs.mkdirSync(path.dirname(delegation), { recursive: true });
  fs.mkdirSync(path.join(dir, path.dirname(responseRel(t.taskId, tpl.role))), { recursive: true });
  fs.writeFileSync(delegation, renderReviewDelegation(tpl, t));
  const state = renderSuspendState(recorded("inline-state.json"), {
    sessionId,
    taskId: t.taskId,
    role: tpl.role,
    suspendedAtMs: t.createdAtMs,
  });
  fs.writeFileSync(path.join(dir, ".autodev", "inline-state.json"), state);
}
