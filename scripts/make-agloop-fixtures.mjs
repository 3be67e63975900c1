// Builds test/fixtures/agloop-{clean,broken,torn}/ by RUNNING a real agloop install's hook scripts
// (`.github/hooks/*.mjs` of an agloop install; not part of this repository) in temp workspaces,
// with this script playing the coordinator agent as the state protocol describes it
// (JSON.stringify(state, null, 2) written in place, JSON Lines appended to log.json, phase-transition
// checkpoints `{type}-YYYYMMDD-HHmmss.json` holding the full state plus `_checkpoint`).
//
//   node scripts/make-agloop-fixtures.mjs /path/to/agloop-install/.github/hooks [outDir=test/fixtures]
//
// Checkpoint names carry seconds, so the script sleeps one second between checkpoints.
import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const hooksDir = resolve(process.argv[2] ?? "");
const outRoot = resolve(process.argv[3] ?? "test/fixtures");
if (!process.argv[2]) {
  console.error("usage: node scripts/make-agloop-fixtures.mjs <install>/.github/hooks [outDir]");
  process.exit(2);
}

const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const now = () => new Date().toISOString();
const stamp = (d) => d.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);

/** A temp workspace with the install's hooks copied into .github/hooks. */
function workspace() {
  const ws = mkdtempSync(join(tmpdir(), "agloop-fixture-"));
  cpSync(hooksDir, join(ws, ".github", "hooks"), { recursive: true });
  mkdirSync(join(ws, ".agloop"), { recursive: true });
  return ws;
}

/** Runs one hook script the way VS Code does: `node .github/hooks/X.mjs [arg]` with the event JSON on stdin. */
function hook(ws, script, input = {}, arg) {
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

const statePath = (ws) => join(ws, ".agloop", "state.json");
const readState = (ws) => JSON.parse(readFileSync(statePath(ws), "utf8"));
/** The coordinator's write: the whole state, in place (what the hooks do too). */
const writeState = (ws, state) => writeFileSync(statePath(ws), JSON.stringify(state, null, 2), "utf8");

/** The protocol's appendLog (seed 003): required fields, summaries cut to 500, optional metadata. */
function log(ws, entry) {
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
function checkpoint(ws, type, trigger, summary) {
  sleep(1100);
  const state = readState(ws);
  const created = new Date();
  const dir = join(ws, ".agloop", "checkpoints");
  mkdirSync(dir, { recursive: true });
  const body = { _checkpoint: { type, trigger, created_at: created.toISOString(), human_summary: summary }, ...state };
  writeFileSync(join(dir, `${type}-${stamp(created)}.json`), JSON.stringify(body, null, 2), "utf8");
}

/** An older-format checkpoint (state nested under `state`), as the state-persistence skill's createCheckpoint wrote it. */
function legacyCheckpoint(ws, type, trigger) {
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
function transition(ws, phase, extra = {}) {
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

/** The coordinator's initial state (state-protocol §1 defaults). */
function initialState(feature) {
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
function task(id, title, depends_on, criteria, effort, files) {
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

const CLEAN_TASKS = () => [
  task(
    "task-001",
    "Search endpoint GET /api/search",
    [],
    ["GET /api/search returns 200 with a results array", "Empty query returns 400"],
    "medium",
    ["src/api/search.ts", "src/api/search.test.ts"],
  ),
  task(
    "task-002",
    "Pagination for search results",
    ["task-001"],
    ["page and page_size query params are honoured"],
    "small",
    ["src/api/search.ts"],
  ),
  task(
    "task-003",
    "Search box in the header",
    ["task-001", "task-002"],
    ["Typing shows results within 300 ms", "Escape clears the box"],
    "large",
    ["src/ui/SearchBox.tsx"],
  ),
];

/** The planner's plan.yaml for a task list (written by the planner agent, not by a hook). */
function planYaml(planId, created, updated, tasks, edges, extraTaskYaml = "") {
  const q = (s) => JSON.stringify(s);
  const lines = [
    "# .agloop/plan.yaml",
    `plan_id: ${q(planId)}`,
    `feature: "Add a search API with pagination and a search box"`,
    `created_at: ${q(created)}`,
    `updated_at: ${q(updated)}`,
    `status: "approved"`,
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
  if (extraTaskYaml) lines.push(extraTaskYaml);
  lines.push("", "dag_edges:");
  for (const [a, b] of edges) lines.push(`  - [${q(a)}, ${q(b)}]`);
  lines.push("", "critique_history: []", "");
  return lines.join("\n");
}

/** Init → research → plan → critique → execute, task-001 done and verified, task-002 running. */
function runToExecute(ws, feature, tasksFor) {
  writeState(ws, initialState(feature));
  log(ws, {
    agent: "agloop",
    action: "state_initialized",
    phase: "init",
    input_summary: feature,
    output_summary: "state.json created",
  });
  hook(ws, "session-start.mjs", { hookEventName: "SessionStart" });
  hook(ws, "audit-logger.mjs", { prompt: feature });
  transition(ws, "research");
  hook(ws, "subagent-tracker.mjs", { agentName: "researcher" }, "start");
  hook(ws, "subagent-tracker.mjs", { agentName: "researcher" }, "stop");
  const s = readState(ws);
  s.feature_description = "Search over products with pagination and a header search box.";
  s.compaction_context.research_digest = "Express API in src/api; React UI in src/ui; no search yet.";
  writeState(ws, s);
  transition(ws, "plan");
  const planned = readState(ws);
  planned.tasks = tasksFor();
  planned.compaction_context.plan_digest = `${planned.tasks.length} tasks, DAG of depth 3`;
  writeState(ws, planned);
  transition(ws, "critique", { iteration: 1 });
  const critiqued = readState(ws);
  critiqued.previous_objections = [
    {
      iteration: 1,
      objection: "Pagination has no upper bound on page_size",
      response: "Capped page_size at 100",
      resolved: true,
      objection_category: "risk",
      severity: "major",
    },
    {
      iteration: 1,
      objection: "No test for <script> in queries",
      response: "Deferred to verify",
      resolved: false,
      objection_category: "edge_case",
      severity: "minor",
    },
  ];
  critiqued.compaction_context.critique_digest = "1 objection resolved, 1 open (minor)";
  writeState(ws, critiqued);
  transition(ws, "execute");
  const ex = readState(ws);
  const t1 = ex.tasks.find((t) => t.id === "task-001");
  t1.status = "in_progress";
  ex.current_task_id = "task-001";
  ex.compaction_context.pending_decision =
    "Delegating to executor for task-001; on COMPLETE advance to verify; on FAILED retry with fresh context";
  ex.compaction_context.last_delegation = {
    agent: "executor",
    task_id: "task-001",
    delegation_summary: "Implement GET /api/search",
    expected_output: "RESULT block",
  };
  writeState(ws, ex);
  hook(ws, "subagent-tracker.mjs", { agentName: "executor", taskId: "task-001" }, "start");
  const done = readState(ws);
  const d1 = done.tasks.find((t) => t.id === "task-001");
  d1.result = {
    files_modified: ["src/api/search.ts", "src/api/search.test.ts"],
    files_deleted: [],
    acceptance_criteria_confirmation: [
      {
        criterion: "GET /api/search returns 200 with a results array",
        met: true,
        evidence: "search.test.ts: 'returns results'",
      },
      { criterion: "Empty query returns 400", met: true, evidence: "search.test.ts: 'rejects empty query'" },
    ],
    summary: "Implemented search endpoint with validation",
    warnings: ["No index on products.title yet"],
    verified: false,
  };
  writeState(ws, done);
  hook(ws, "subagent-tracker.mjs", { agentName: "executor", taskId: "task-001" }, "stop");
  log(ws, {
    agent: "executor",
    action: "task_completed",
    task_id: "task-001",
    phase: "execute",
    input_summary: "Implement GET /api/search",
    output_summary: "2 files modified, 2/2 criteria met",
    metadata: { files_modified: 2 },
  });
  const ver = readState(ws);
  const v1 = ver.tasks.find((t) => t.id === "task-001");
  v1.verification = {
    verdict: "PASS",
    criteria_results: [
      {
        criterion: "GET /api/search returns 200 with a results array",
        result: "pass",
        evidence: "curl: 200, results: [...]",
      },
      { criterion: "Empty query returns 400", result: "pass", evidence: "curl: 400" },
    ],
    specification_compliance: {
      required_patterns: { compliant: true, violations: [] },
      forbidden_patterns: { compliant: true, violations: [] },
      tech_choices: { compliant: true, violations: [] },
    },
    overall_summary: "All acceptance criteria met, specification compliant",
  };
  v1.status = "done";
  v1.result.verified = true;
  ver.tasks.find((t) => t.id === "task-002").status = "in_progress";
  ver.current_task_id = "task-002";
  ver.last_action = { agent: "verifier", action: "task_verified", timestamp: now(), task_id: "task-001" };
  writeState(ws, ver);
  log(ws, {
    agent: "verifier",
    action: "task_verified",
    task_id: "task-001",
    phase: "execute",
    input_summary: "Verify task-001",
    output_summary: "PASS 2/2",
  });
}

function buildClean() {
  const ws = workspace();
  runToExecute(ws, "Add a search API with pagination and a search box", CLEAN_TASKS);
  const s = readState(ws);
  const pid = `plan-${s.phase_history[2].entered_at.replace(/[-:]/g, "").replace("T", "-").slice(0, 15)}`;
  writeFileSync(
    join(ws, ".agloop", "plan.yaml"),
    planYaml(pid, s.phase_history[2].entered_at, s.phase_history[3].entered_at, s.tasks, [
      ["task-001", "task-002"],
      ["task-001", "task-003"],
      ["task-002", "task-003"],
    ]),
  );
  sleep(1100);
  hook(ws, "pre-compact.mjs", { trigger: "auto" });
  hook(ws, "stop-guard.mjs", {}); // blocks: sets stop_hook_active
  hook(ws, "stop-guard.mjs", {}); // escape hatch: allows, resets it
  legacyCheckpoint(ws, "reset", "user /reset rehearsal");
  return ws;
}

const BROKEN_TASKS = () => {
  const t = CLEAN_TASKS();
  t.push(task("task-1", "Badly numbered task", [], ["It exists"], "small", []));
  t.push(task("task-002", "A second task-002", ["task-099"], [], "small", []));
  t.push(task("task-004", "Cache layer", ["task-005"], ["Hits are served from memory"], "medium", []));
  t.push(task("task-005", "Cache invalidation", ["task-004"], ["Writes evict"], "medium", []));
  return t;
};

function buildBroken() {
  const ws = workspace();
  runToExecute(ws, "Add a search API with pagination and a search box", BROKEN_TASKS);
  const s = readState(ws);
  // What a confused coordinator wrote (each line is one check of the protocol):
  s.$schema = "agloop-state-v2";
  s.feature_name = "Search ".repeat(90).trim();
  s.complexity_level = "huge";
  s.iteration = 5;
  s.current_task_id = "task-042";
  s.tasks.find((t) => t.id === "task-003").status = "blocked";
  s.tasks.find((t) => t.id === "task-004").status = "in_progress";
  s.retry_count = { "task-002": -1, "task-003": 1.5 };
  const h = s.phase_history;
  [h[1].entered_at, h[2].entered_at] = [h[2].entered_at, h[1].entered_at];
  delete s.last_action;
  writeState(ws, s);
  hook(ws, "pre-compact.mjs", { trigger: "manual" });
  hook(ws, "stop-guard.mjs", {}); // blocks and leaves stop_hook_active true
  const created = s.phase_history[3].entered_at;
  const planTasks = CLEAN_TASKS().concat([
    task("task-004", "Cache layer", ["task-005"], ["Hits"], "medium", []),
    task("task-005", "Cache invalidation", ["task-004"], ["Writes evict"], "medium", []),
    task("task-006", "Only in the plan", [], ["x"], "small", []),
  ]);
  writeFileSync(
    join(ws, ".agloop", "plan.yaml"),
    planYaml("plan-2026-11-30", created, "2020-01-01T00:00:00.000Z", planTasks, [
      ["task-001", "task-002"],
      ["task-002", "task-077"],
      ["task-004", "task-005"],
      ["task-005", "task-004"],
    ]),
  );
  // A buggy agent's log lines, a torn checkpoint, a legacy checkpoint:
  const logPath = join(ws, ".agloop", "log.json");
  appendFileSync(logPath, '{"timestamp": "2026-11-30T10:00:00.000Z", "agent": "executor", "action": \n');
  appendFileSync(
    logPath,
    JSON.stringify({
      timestamp: now(),
      agent: "executor",
      action: "task_started",
      task_id: "task-004",
      input_summary: "",
      output_summary: "",
      status: "success",
    }) + "\n",
  );
  appendFileSync(
    logPath,
    JSON.stringify({
      timestamp: now(),
      agent: "verifier",
      action: "task_verified",
      task_id: "task-001",
      phase: "verify",
      input_summary: "Verify",
      output_summary: "x".repeat(620),
      status: "success",
    }) + "\n",
  );
  hook(ws, "audit-logger.mjs", { prompt: "why is the cache task running?" });
  legacyCheckpoint(ws, "phase-transition", "phase: plan → critique");
  sleep(1100);
  const cpDir = join(ws, ".agloop", "checkpoints");
  const full = JSON.stringify(
    {
      _checkpoint: { type: "phase-transition", trigger: "execute → verify", created_at: now(), human_summary: "torn" },
      ...readState(ws),
    },
    null,
    2,
  );
  writeFileSync(join(cpDir, `phase-transition-${stamp(new Date())}.json`), full.slice(0, Math.floor(full.length / 3)));
  return ws;
}

function buildTorn() {
  const ws = workspace();
  hook(ws, "session-start.mjs", { hookEventName: "SessionStart" }); // no state yet: logs phase "unknown"
  runToExecute(ws, "Add a search API with pagination and a search box", CLEAN_TASKS);
  legacyCheckpoint(ws, "reset", "user /reset rehearsal");
  sleep(1100);
  hook(ws, "pre-compact.mjs", { trigger: "auto" });
  // The newest checkpoint was cut short by a crash; so was state.json (written in place, no rename).
  sleep(1100);
  const full = JSON.stringify(readState(ws), null, 2);
  const cpDir = join(ws, ".agloop", "checkpoints");
  writeFileSync(join(cpDir, `pre-compact-${stamp(new Date())}.json`), full.slice(0, 200));
  writeFileSync(statePath(ws), full.slice(0, Math.floor(full.length / 2)));
  hook(ws, "audit-logger.mjs", { prompt: "continue" }); // reads the state through its checkpoint fallback
  writeFileSync(
    join(ws, ".agloop", "plan.yaml"),
    'plan_id: "plan-20261130-101500"\ntasks:\n  - id: "task-001"\n    title: "unterminated\n  - id: [task-002\n',
  );
  return ws;
}

/** Copies the workspace's .agloop into the fixture folder (replacing it). */
function keep(ws, name) {
  const to = join(outRoot, name, ".agloop");
  rmSync(to, { recursive: true, force: true });
  mkdirSync(join(outRoot, name), { recursive: true });
  cpSync(join(ws, ".agloop"), to, { recursive: true });
  console.log(`${name}: ${readdirSync(join(to, "checkpoints")).length} checkpoints`);
  rmSync(ws, { recursive: true, force: true });
}

console.log("agloop-clean");
keep(buildClean(), "agloop-clean");
console.log("agloop-broken");
keep(buildBroken(), "agloop-broken");
console.log("agloop-torn");
keep(buildTorn(), "agloop-torn");
