// Builds test/fixtures/agloop-{clean,broken,torn}/ by RUNNING a real agloop install's hook scripts
// (`.github/hooks/*.mjs` of an agloop install; not part of this repository) in temp workspaces,
// with this script playing the coordinator agent (scripts/fixture-writers/agloop-coordinator.mjs) as its prompt and
// the state protocol describe it.
//
//   node scripts/fixture-writers/make-agloop-fixtures.mjs /path/to/agloop-install/.github/hooks [outDir=test/fixtures]
//
// Checkpoint names carry seconds, so the script sleeps one second between checkpoints.
import { appendFileSync, cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  approvalGate,
  criticApproved,
  hook as runHook,
  legacyCheckpoint,
  log,
  logUserApproval,
  now,
  planYaml,
  readState,
  sleep,
  stamp,
  statePath,
  task,
  transition,
  initialState,
  workspace as tempWorkspace,
  writeState,
} from "./agloop-coordinator.mjs";

const hooksDir = resolve(process.argv[2] ?? "");
const outRoot = resolve(process.argv[3] ?? "test/fixtures");
if (!process.argv[2]) {
  console.error("usage: node scripts/fixture-writers/make-agloop-fixtures.mjs <install>/.github/hooks [outDir]");
  process.exit(2);
}

const workspace = () => tempWorkspace(hooksDir);
const hook = runHook;

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
  logUserApproval(ws, "research", "plan the feature"); // agloop.agent.md: plan only after explicit approval
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
  // The critic approves; the coordinator persists the approval gate, asks the user, logs the answer.
  critiqued.compaction_context.critique_digest = criticApproved(1, "1 objection resolved, 1 open (minor)");
  critiqued.compaction_context.pending_decision = approvalGate("task-001");
  writeState(ws, critiqued);
  logUserApproval(ws, "critique", "execute the plan, starting with task-001");
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
