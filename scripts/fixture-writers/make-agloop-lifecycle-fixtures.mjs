// Builds test/fixtures/agloop-lifecycle/NN-<phase>/ : ONE agloop run through the whole lifecycle
// (init → research → plan → critique → plan → critique → execute → verify → execute → verify → … → complete),
// the real install's hook scripts RUN at their events, this script playing the coordinator as
// `.github/agents/agloop.agent.md` describes each phase (scripts/fixture-writers/agloop-coordinator.mjs), and a copy of
// `.agloop/` kept at each stop. Next to each copy, `session-start.json` records what the install's own
// SessionStart hook says about that state (its recovery instructions), run on a throwaway copy.
//
//   node scripts/fixture-writers/make-agloop-lifecycle-fixtures.mjs /path/to/agloop-install/.github/hooks [outDir=test/fixtures/agloop-lifecycle]
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  approvalGate,
  criticApproved,
  executorResult,
  hook,
  initialState,
  log,
  logUserApproval,
  now,
  planYaml,
  readState,
  task,
  transition,
  verifierVerdict,
  workspace,
  writeState,
} from "./agloop-coordinator.mjs";

const hooksDir = resolve(process.argv[2] ?? "");
const outRoot = resolve(process.argv[3] ?? "test/fixtures/agloop-lifecycle");
if (!process.argv[2]) {
  console.error(
    "usage: node scripts/fixture-writers/make-agloop-lifecycle-fixtures.mjs <install>/.github/hooks [outDir]",
  );
  process.exit(2);
}

const FEATURE = "Add CSV export to the reports page";
const TASKS = () => [
  task(
    "task-001",
    "CSV serializer for report rows",
    [],
    ["Quotes and commas are escaped", "Header row first"],
    "small",
    ["src/reports/csv.ts"],
  ),
  task("task-002", "Export button on the reports page", ["task-001"], ["Clicking downloads report.csv"], "medium", [
    "src/ui/ReportsPage.tsx",
  ]),
];

/** Keeps the 10 newest checkpoints, as the protocol asks of every checkpoint writer. */
function prune(ws) {
  const dir = join(ws, ".agloop", "checkpoints");
  if (!existsSync(dir)) return;
  const names = readdirSync(dir).sort((a, b) => a.slice(-20).localeCompare(b.slice(-20)));
  for (const n of names.slice(0, Math.max(0, names.length - 10))) unlinkSync(join(dir, n));
}

let stops = 0;
/** Copies `.agloop/` to NN-name/ and records what the SessionStart hook says about it (on a throwaway copy). */
function keep(ws, name) {
  prune(ws);
  const dirName = `${String(++stops).padStart(2, "0")}-${name}`;
  const to = join(outRoot, dirName);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  cpSync(join(ws, ".agloop"), join(to, ".agloop"), { recursive: true });
  const probe = mkdtempSync(join(tmpdir(), "agloop-probe-"));
  cpSync(join(ws, ".github"), join(probe, ".github"), { recursive: true });
  cpSync(join(ws, ".agloop"), join(probe, ".agloop"), { recursive: true });
  const said = JSON.parse(hook(probe, "session-start.mjs", { hookEventName: "SessionStart" }).stdout);
  writeFileSync(join(to, "session-start.json"), JSON.stringify(said, null, 2) + "\n");
  rmSync(probe, { recursive: true, force: true });
  console.log(`kept ${dirName}`);
}

/** The coordinator before a delegation: last_delegation and pending_decision (agloop.agent.md §6.1). */
function delegate(ws, agent, taskId, summary, pending) {
  const s = readState(ws);
  s.compaction_context.last_delegation = {
    agent,
    task_id: taskId,
    delegation_summary: summary,
    expected_output: "RESULT block",
  };
  s.compaction_context.pending_decision = pending;
  s.last_action = { agent: "agloop", action: `delegated_${agent}`, timestamp: now(), task_id: taskId };
  writeState(ws, s);
  hook(ws, "subagent-tracker.mjs", { agentName: agent, ...(taskId ? { taskId } : {}) }, "start");
}

/** The subagent returns; the coordinator records its result summary. */
function returned(ws, agent, taskId, summary) {
  hook(ws, "subagent-tracker.mjs", { agentName: agent, ...(taskId ? { taskId } : {}) }, "stop");
  const s = readState(ws);
  s.compaction_context.last_result_summary = summary;
  writeState(ws, s);
}

function edit(ws, fn) {
  const s = readState(ws);
  fn(s);
  writeState(ws, s);
}

function run() {
  const ws = workspace(hooksDir);
  // init: the coordinator creates state.json; the session starts; the user's prompt is logged.
  writeState(ws, initialState(FEATURE));
  log(ws, {
    agent: "agloop",
    action: "state_initialized",
    phase: "init",
    input_summary: FEATURE,
    output_summary: "state.json created",
  });
  hook(ws, "session-start.mjs", { hookEventName: "SessionStart" });
  hook(ws, "audit-logger.mjs", { prompt: FEATURE });
  keep(ws, "init");

  // research: delegate, store the findings and the digest, ask the user before planning.
  transition(ws, "research");
  delegate(
    ws,
    "researcher",
    null,
    "Research the reports page and CSV guidance",
    "On COMPLETE summarise and ask to plan",
  );
  keep(ws, "research");
  returned(ws, "researcher", null, "Reports live in src/reports; no CSV library; RFC 4180 applies");
  writeFileSync(
    join(ws, ".agloop", "research_findings.json"),
    JSON.stringify(
      {
        context_map: { primary_files: ["src/reports/index.ts"] },
        findings: {},
        latest_guidance: {},
        confidence: "high",
        passes_completed: 2,
        persisted_at: now(),
      },
      null,
      2,
    ),
  );
  edit(ws, (s) => {
    s.feature_description = "A CSV serializer and an export button on the reports page.";
    s.compaction_context.research_digest = "src/reports/index.ts; RFC 4180 quoting; confidence high";
    s.compaction_context.pending_decision = "Research complete. Waiting for user approval to plan.";
  });
  logUserApproval(ws, "research", "plan the feature");

  // plan: the planner writes plan.yaml; the coordinator syncs the tasks, sets iteration 1, goes to critique.
  transition(ws, "plan");
  delegate(ws, "planner", null, "Create the DAG plan", "On COMPLETE check plan.yaml, sync tasks, enter critique");
  keep(ws, "plan");
  const t0 = now();
  const tasks = TASKS();
  const edges = [["task-001", "task-002"]];
  const planOpts = { feature: FEATURE, status: "under_review" };
  writeFileSync(join(ws, ".agloop", "plan.yaml"), planYaml("plan-20261201-101500", t0, t0, tasks, edges, planOpts));
  returned(ws, "planner", null, "2 tasks, 1 edge");
  edit(ws, (s) => {
    s.tasks = TASKS();
    s.compaction_context.plan_digest = "task_count 2: task-001 CSV serializer (small), task-002 export button (medium)";
  });
  transition(ws, "critique", { iteration: 1 });
  delegate(ws, "critic", null, "Review plan.yaml, iteration 1", "On APPROVE ask the user; on REVISE back to plan");
  keep(ws, "critique");

  // critique iteration 1: REVISE → plan (iteration 2) → critique → APPROVE, the approval gate persisted.
  returned(ws, "critic", null, "REVISE: no test for embedded newlines");
  edit(ws, (s) => {
    s.previous_objections.push({
      iteration: 1,
      objection: "No acceptance criterion covers newlines inside a field",
      response: "Added 'Newlines inside fields are quoted' to task-001",
      resolved: true,
      objection_category: "edge_case",
      severity: "major",
    });
    s.compaction_context.critique_digest = {
      verdict: "REVISE",
      iteration_count: 1,
      specification_compliance: null,
      notes: "edge_case, major: newlines in fields",
    };
  });
  transition(ws, "plan", { iteration: 2 });
  delegate(ws, "planner", null, "Revise the plan: newlines in fields", "On COMPLETE back to critique");
  tasks[0].acceptance_criteria.push("Newlines inside fields are quoted");
  const critique = [
    {
      iteration: 1,
      objection: "No criterion covers newlines inside a field",
      response: "Added one to task-001",
      resolved: true,
    },
  ];
  writeFileSync(
    join(ws, ".agloop", "plan.yaml"),
    planYaml("plan-20261201-101500", t0, now(), tasks, edges, { ...planOpts, critique }),
  );
  returned(ws, "planner", null, "task-001 gained a criterion");
  edit(ws, (s) => {
    s.tasks[0].acceptance_criteria.push("Newlines inside fields are quoted");
  });
  transition(ws, "critique");
  delegate(ws, "critic", null, "Review plan.yaml, iteration 2", "On APPROVE ask the user; on REVISE back to plan");
  returned(ws, "critic", null, "APPROVE: resilience acceptable");
  edit(ws, (s) => {
    s.compaction_context.critique_digest = criticApproved(2, "objection of iteration 1 resolved");
    s.compaction_context.pending_decision = approvalGate("task-001");
  });
  hook(ws, "pre-compact.mjs", { trigger: "auto" }); // compaction while the user is asked: the gate is checkpointed
  keep(ws, "critique-gate");

  // The user approves: execute task-001 (objections reset, as on every approval).
  logUserApproval(ws, "critique", "execute the plan, starting with task-001");
  transition(ws, "execute", { previous_objections: [] });
  edit(ws, (s) => {
    s.current_task_id = "task-001";
    s.tasks[0].status = "in_progress";
  });
  delegate(
    ws,
    "executor",
    "task-001",
    "Implement the CSV serializer",
    "On COMPLETE store the result and verify; on FAILED retry with fresh context",
  );
  keep(ws, "execute");

  const executeAndVerify = (id, verdicts) => {
    verdicts.forEach((verdict, attempt) => {
      if (attempt > 0) delegate(ws, "executor", id, `Fix ${id} (attempt ${attempt + 1})`, "On COMPLETE verify again");
      returned(ws, "executor", id, `COMPLETE: ${id} implemented`);
      edit(ws, (s) => {
        const t = s.tasks.find((x) => x.id === id);
        t.result = executorResult(t);
      });
      log(ws, {
        agent: "executor",
        action: "task_completed",
        task_id: id,
        phase: "execute",
        input_summary: `Implement ${id}`,
        output_summary: "COMPLETE",
      });
      transition(ws, "verify");
      delegate(ws, "verifier", id, `Verify ${id}`, "On PASS mark done and take the next task; on FAIL retry");
      if (id === "task-001" && attempt === 0) keep(ws, "verify");
      returned(ws, "verifier", id, `${verdict}`);
      const pass = verdict === "PASS";
      edit(ws, (s) => {
        const t = s.tasks.find((x) => x.id === id);
        t.verification = verifierVerdict(t, verdict);
        if (pass) {
          t.status = "done";
          t.result.verified = true;
        } else s.retry_count[id] = (s.retry_count[id] ?? 0) + 1;
      });
      log(ws, {
        agent: "verifier",
        action: "task_verified",
        task_id: id,
        phase: "verify",
        input_summary: `Verify ${id}`,
        output_summary: verdict,
        status: pass ? "success" : "failure",
      });
      if (!pass) {
        transition(ws, "execute");
        if (id === "task-001") keep(ws, "execute-retry");
      }
    });
  };
  executeAndVerify("task-001", ["FAIL", "PASS"]);
  edit(ws, (s) => {
    s.current_task_id = "task-002";
    s.tasks[1].status = "in_progress";
  });
  transition(ws, "execute");
  delegate(ws, "executor", "task-002", "Implement the export button", "On COMPLETE store the result and verify");
  keep(ws, "execute-next");
  executeAndVerify("task-002", ["PASS"]);

  // complete: current task cleared, stop hook re-armed, loop_complete logged, the user asked; two stops.
  transition(ws, "complete", { current_task_id: null, stop_hook_active: false });
  log(ws, {
    agent: "agloop",
    action: "loop_complete",
    phase: "complete",
    input_summary: "All tasks verified",
    output_summary: "2/2 tasks done",
  });
  hook(ws, "stop-guard.mjs", {}); // blocks once: the session stays until the user stops it
  hook(ws, "stop-guard.mjs", {}); // escape hatch: allows, resets stop_hook_active
  keep(ws, "complete");
  if (existsSync(ws)) rmSync(ws, { recursive: true, force: true });
}

run();
