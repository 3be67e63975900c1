// The agloop coordinator, played by a script, for the fixture builders (make-agloop-fixtures.mjs,
// make-agloop-lifecycle-fixtures.mjs): temp workspaces with a real install's hook scripts copied in,
// the hooks RUN the way VS Code runs them, and the coordinator's own writes done as its prompt
// (`.github/agents/agloop.agent.md`) and the state protocol (seed 003) describe them:
// JSON.stringify(state, null, 2) written in place, JSON Lines appended to log.json, phase-transition
// checkpoints `{type}-YYYYMMDD-HHmmss.json` holding the full state plus `_checkpoint`.
//
// Checkpoint names carry seconds, so each checkpoint waits a little over one second first.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
export const now = () => new Date().toISOString();
export const stamp = (d) => d.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);

/** A temp workspace with the install's hooks (`hooksDir`) copied into .github/hooks. */
export function workspace(hooksDir) {
  const ws = mkdtempSync(join(tmpdir(), "agloop-fixture-"));
  cpSync(hooksDir, join(ws, ".github", "hooks"), { recursive: true });
  mkdirSync(join(ws, ".agloop"), { recursive: true });
  return ws;
}

/** Runs one hook script the way VS Code does: `node .github/hooks/X.mjs [arg]` with the event JSON on stdin. */
export function hook(ws, script, input = {}, arg) {
  const args = [join(".github", "hooks", script)];
  if (arg) args.push(arg);
  const r = spawnSync(process.execPath, args, {
    cwd: ws,
    input: JSON.stringify({ cwd: ws, ...input }),
    encoding: "utf8",
  });
  console.log(`  hook ${script}${arg ? " " + arg : ""} -> exit ${r.status}`);
  if (r.status !== 0 && r.status !== 2) throw new Error(`${script} failed: ${r.stderr}`);
  return r;
}

export const statePath = (ws) => join(ws, ".agloop", "state.json");
export const readState = (ws) => JSON.parse(readFileSync(statePath(ws), "utf8"));
/** The coordinator's write: the whole state, in place (what the hooks do too). */
export const writeState = (ws, state) => writeFileSync(statePath(ws), JSON.stringify(state, null, 2), "utf8");

/** The protocol's appendLog (seed 003): required fields, summaries cut to 500, optional metadata. */
export function log(ws, entry) {
  const cut = (s) => (s.length > 500 ? s.slice(0, 500) : s);
  const line = {
    timestamp: entry.timestamp ?? now(),
    agent: entry.agent,
    action: entry.action,
    task_id: entry.task_id ?? null,
    phase: entry.phase,
    input_summary: cut(entry.input_summary ?? ""),
    output_summary: cut(entry.output_summary ?? ""),
    status: entry.status ?? "success",
    ...(entry.metadata ? { metadata: entry.metadata } : {}),
  };
  appendFileSync(join(ws, ".agloop", "log.json"), JSON.stringify(line) + "\n", "utf8");
}

/** A new-format checkpoint: the full state at the root plus `_checkpoint`. */
export function checkpoint(ws, type, trigger, summary) {
  sleep(1100);
  const state = readState(ws);
  const created = new Date();
  const dir = join(ws, ".agloop", "checkpoints");
  mkdirSync(dir, { recursive: true });
  const body = { _checkpoint: { type, trigger, created_at: created.toISOString(), human_summary: summary }, ...state };
  writeFileSync(join(dir, `${type}-${stamp(created)}.json`), JSON.stringify(body, null, 2), "utf8");
}

/** An older-format checkpoint (state nested under `state`), as the state-persistence skill's createCheckpoint wrote it. */
export function legacyCheckpoint(ws, type, trigger) {
  sleep(1100);
  const state = readState(ws);
  const done = state.tasks.filter((t) => t.status === "done").length;
  const cp = {
    checkpoint_type: type,
    timestamp: now(),
    trigger,
    state,
    plan_summary: { status: state.current_phase, task_count: state.tasks.length, completed_count: done },
    human_summary: `Phase: ${state.current_phase}, Feature: ${state.feature_name}, Progress: ${done}/${state.tasks.length} tasks`,
  };
  const dir = join(ws, ".agloop", "checkpoints");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${type}-${cp.timestamp.replace(/[:.]/g, "-")}.json`), JSON.stringify(cp, null, 2), "utf8");
}

/** Moves the state to `phase` the way the coordinator does (history, last_action, log, checkpoint). */
export function transition(ws, phase, extra = {}) {
  const s = readState(ws);
  const from = s.current_phase;
  const t = now();
  const open = s.phase_history.at(-1);
  if (open && open.exited_at === null) open.exited_at = t;
  s.phase_history.push({ phase, entered_at: t, exited_at: null });
  s.current_phase = phase;
  s.last_action = { agent: "agloop", action: "phase_transition", timestamp: t, task_id: s.current_task_id };
  Object.assign(s, extra);
  writeState(ws, s);
  log(ws, {
    agent: "agloop",
    action: "phase_transition",
    task_id: s.current_task_id,
    phase,
    input_summary: `${from} complete`,
    output_summary: `Entered ${phase}`,
  });
  checkpoint(ws, "phase-transition", `${from} → ${phase}`, `Phase ${from} complete. Entering ${phase}.`);
}

/** The critic's APPROVE as the coordinator stores it (agloop.agent.md, critique: normalized critique_digest). */
export function criticApproved(iteration, notes) {
  return { verdict: "APPROVE", iteration_count: iteration, specification_compliance: null, notes };
}

/** The approval gate the coordinator persists before asking the user (agloop.agent.md, critique, APPROVE). */
export function approvalGate(firstTaskId) {
  return `Critic APPROVED plan. Waiting for user approval to enter execute phase, starting with ${firstTaskId}.`;
}

/** The coordinator logs the user's answer to discord_ask ("log approval and transition"). */
export function logUserApproval(ws, phase, what) {
  log(ws, {
    agent: "agloop",
    action: "user_approved",
    phase,
    input_summary: `discord_ask: ${what}?`,
    output_summary: `User approved: ${what}`,
  });
}

/** The coordinator's initial state (state-protocol §1 defaults). */
export function initialState(feature) {
  const t = now();
  return {
    $schema: "agloop-state-v1",
    feature_name: feature,
    feature_description: "",
    complexity_level: "medium",
    mode: "standard",
    current_phase: "init",
    iteration: 0,
    current_task_id: null,
    tasks: [],
    stop_hook_active: false,
    last_action: { agent: "agloop", action: "state_initialized", timestamp: t, task_id: null },
    phase_history: [{ phase: "init", entered_at: t, exited_at: null }],
    retry_count: {},
    previous_objections: [],
    compaction_context: {
      last_delegation: { agent: null, task_id: null, delegation_summary: null, expected_output: null },
      last_result_summary: "",
      pending_decision: "",
      research_digest: "",
      plan_digest: "",
      critique_digest: "",
      compaction_count: 0,
    },
  };
}

/** A task as the planner hands it to the coordinator. */
export function task(id, title, depends_on, criteria, effort, files) {
  return {
    id,
    title,
    description: `Implement: ${title}.`,
    status: "pending",
    depends_on,
    acceptance_criteria: criteria,
    failure_modes: [
      {
        mode: `${title} breaks existing callers`,
        likelihood: "low",
        impact: "medium",
        mitigation: "Run the full test suite",
      },
    ],
    specification_adherence: {
      required_patterns: ["use zod for validation"],
      forbidden_patterns: ["no raw SQL"],
      tech_choices: ["TypeScript"],
    },
    files_to_modify: files,
    files_to_read: ["src/api/index.ts"],
    estimated_effort: effort,
    result: null,
    verification: null,
  };
}

/** The planner's plan.yaml for a task list (written by the planner agent, not by a hook). */
export function planYaml(planId, created, updated, tasks, edges, { feature, status = "approved", critique = [] } = {}) {
  const q = (s) => JSON.stringify(s);
  const lines = [
    "# .agloop/plan.yaml",
    `plan_id: ${q(planId)}`,
    `feature: ${q(feature ?? "Add a search API with pagination and a search box")}`,
    `created_at: ${q(created)}`,
    `updated_at: ${q(updated)}`,
    `status: ${q(status)}`,
    "",
    "pre_mortem:",
    `  overall_risk_level: "medium"`,
    "  critical_failure_modes:",
    `    - mode: "Search is slow on large tables"`,
    `      likelihood: "medium"`,
    `      impact: "high"`,
    `      mitigation: "Add an index on title"`,
    "  assumptions:",
    `    - "The products table has a title column"`,
    "",
    "tasks:",
  ];
  for (const t of tasks) {
    lines.push(`  - id: ${q(t.id)}`, `    title: ${q(t.title)}`, `    description: ${q(t.description)}`);
    lines.push(`    depends_on: [${t.depends_on.map(q).join(", ")}]`, "    acceptance_criteria:");
    for (const c of t.acceptance_criteria) lines.push(`      - ${q(c)}`);
    lines.push(
      `    estimated_effort: ${q(t.estimated_effort)}`,
      `    files_to_modify:${t.files_to_modify.length ? "" : " []"}`,
    );
    for (const f of t.files_to_modify) lines.push(`      - ${q(f)}`);
  }
  lines.push("", "dag_edges:");
  for (const [a, b] of edges) lines.push(`  - [${q(a)}, ${q(b)}]`);
  if (critique.length === 0) lines.push("", "critique_history: []", "");
  else {
    lines.push("", "critique_history:");
    for (const c of critique) {
      lines.push(`  - iteration: ${c.iteration}`, `    objection: ${q(c.objection)}`, `    response: ${q(c.response)}`);
      lines.push(`    resolved: ${c.resolved}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

/** The executor's RESULT as the coordinator stores it in `tasks[].result`. */
export function executorResult(t) {
  return {
    files_modified: [...t.files_to_modify],
    files_deleted: [],
    acceptance_criteria_confirmation: t.acceptance_criteria.map((criterion) => ({
      criterion,
      met: true,
      evidence: `test for '${criterion}'`,
    })),
    summary: `Implemented ${t.title}`,
    warnings: [],
    verified: false,
  };
}

/** The verifier's verdict as the coordinator stores it in `tasks[].verification`. */
export function verifierVerdict(t, verdict) {
  const pass = verdict === "PASS";
  return {
    verdict,
    criteria_results: t.acceptance_criteria.map((criterion, i) => ({
      criterion,
      result: pass || i > 0 ? "pass" : "fail",
      evidence: pass || i > 0 ? "checked" : "the check failed",
    })),
    specification_compliance: {
      required_patterns: { compliant: true, violations: [] },
      forbidden_patterns: { compliant: true, violations: [] },
      tech_choices: { compliant: true, violations: [] },
    },
    overall_summary: pass ? "All acceptance criteria met, specification compliant" : "One criterion failed",
    ...(pass ? {} : { failure_details: { failed_criteria: [t.acceptance_criteria[0]] } }),
  };
}
