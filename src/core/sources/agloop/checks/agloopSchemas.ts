/**
 * zod schemas of agloop's files, from the state protocol (seed 003) and a real install's
 * state-protocol instructions. Objects are strict (an unknown key is reported as a warning)
 * except where real writers add keys: log entries may carry `metadata`, checkpoints `_checkpoint`.
 * Only the fields the protocol lists are required; the install's task fields are optional.
 */
import * as z from "zod";

/** `task-NNN`, zero-padded to (at least) three digits. */
const TASK_ID = /^task-\d{3,}$/;
/** `plan-YYYYMMDD-HHmmss`. */
const PLAN_ID = /^plan-\d{8}-\d{6}$/;

const PHASES = ["init", "research", "plan", "critique", "execute", "verify", "complete", "ctf_delegate"] as const;
const TASK_STATUSES = ["pending", "in_progress", "done", "failed"] as const;
const COMPLEXITY = ["simple", "medium", "complex"] as const;
const MODES = ["standard", "ctf"] as const;
const EFFORTS = ["small", "medium", "large"] as const;
const LOG_STATUSES = ["success", "failure", "skipped"] as const;
const PLAN_STATUSES = ["draft", "under_review", "approved", "in_progress", "completed"] as const;
const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;

const failureMode = z.strictObject({
  mode: z.string(),
  likelihood: z.string(),
  impact: z.string(),
  mitigation: z.string(),
});
const specAdherence = z.strictObject({
  required_patterns: z.array(z.string()),
  forbidden_patterns: z.array(z.string()),
  tech_choices: z.array(z.string()),
});

/** The executor's result (loose: executors add their own evidence fields). */
const taskResult = z.looseObject({
  files_modified: z.array(z.string()),
  files_deleted: z.array(z.string()).optional(),
  acceptance_criteria_confirmation: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]),
  summary: z.string(),
  warnings: z.array(z.unknown()).optional(),
  verified: z.boolean().optional(),
});

/** The verifier's verification (loose: FAIL adds `failure_details`, verifiers add evidence). */
const taskVerification = z.looseObject({
  verdict: z.enum(["PASS", "FAIL"]),
  criteria_results: z.array(z.unknown()),
  specification_compliance: z.record(z.string(), z.unknown()).optional(),
  overall_summary: z.string(),
  failure_details: z.unknown().optional(),
});

/** One task of state.json. */
const stateTaskSchema = z.strictObject({
  id: z.string().regex(TASK_ID),
  title: z.string(),
  description: z.string(),
  status: z.enum(TASK_STATUSES),
  depends_on: z.array(z.string()),
  acceptance_criteria: z.array(z.string()).min(1),
  failure_modes: z.array(failureMode),
  specification_adherence: specAdherence.optional(),
  files_to_modify: z.array(z.string()).optional(),
  files_to_read: z.array(z.string()).optional(),
  estimated_effort: z.enum(EFFORTS).optional(),
  result: taskResult.nullable(),
  verification: taskVerification.nullable(),
});

const nullableText = z.string().nullable().optional();

/** `.agloop/state.json` (`agloop-state-v1`). */
export const stateSchema = z.strictObject({
  $schema: z.literal("agloop-state-v1"),
  feature_name: z.string().max(500),
  feature_description: z.string().optional(),
  complexity_level: z.enum(COMPLEXITY),
  mode: z.enum(MODES).optional(),
  current_phase: z.enum(PHASES),
  iteration: z.number().int().min(0).max(3),
  current_task_id: z.string().nullable(),
  tasks: z.array(stateTaskSchema),
  stop_hook_active: z.boolean(),
  last_action: z.strictObject({
    agent: z.string(),
    action: z.string(),
    timestamp: z.string(),
    task_id: z.string().nullable(),
  }),
  phase_history: z.array(
    z.strictObject({ phase: z.string(), entered_at: z.string(), exited_at: z.string().nullable() }),
  ),
  retry_count: z.record(z.string().regex(TASK_ID), z.number().int().min(0)),
  previous_objections: z.array(
    z.strictObject({
      iteration: z.number(),
      objection: z.string(),
      response: z.string(),
      resolved: z.boolean(),
      objection_category: z.string(),
      severity: z.string(),
    }),
  ),
  compaction_context: z.strictObject({
    last_delegation: z
      .strictObject({
        agent: nullableText,
        task_id: nullableText,
        delegation_summary: nullableText,
        expected_output: nullableText,
      })
      .nullable()
      .optional(),
    last_result_summary: nullableText,
    pending_decision: nullableText,
    research_digest: z.unknown().optional(),
    plan_digest: z.unknown().optional(),
    critique_digest: z.unknown().optional(),
    compaction_count: z.number().int().min(0).optional(),
  }),
});

/** One task of plan.yaml. */
const planTaskSchema = z.strictObject({
  id: z.string().regex(TASK_ID),
  title: z.string().optional(),
  description: z.string().optional(),
  depends_on: z.array(z.string()),
  acceptance_criteria: z.array(z.string()).min(1),
  failure_modes: z.array(failureMode).optional(),
  estimated_effort: z.enum(EFFORTS),
  files_to_modify: z.array(z.string()).optional(),
  files_to_read: z.array(z.string()).optional(),
  specification_adherence: specAdherence.optional(),
});

/** `.agloop/plan.yaml`, as the planner writes it. */
export const planSchema = z.strictObject({
  plan_id: z.string().regex(PLAN_ID),
  feature: z.string().min(1),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.enum(PLAN_STATUSES),
  pre_mortem: z.strictObject({
    overall_risk_level: z.enum(RISK_LEVELS),
    critical_failure_modes: z.array(failureMode).min(1),
    assumptions: z.array(z.string()).min(1),
  }),
  tasks: z.array(planTaskSchema).min(1),
  dag_edges: z.array(z.tuple([z.string(), z.string()])),
  critique_history: z.array(z.unknown()),
});

/** One line of `.agloop/log.json`; hooks add `metadata`. */
export const logEntrySchema = z.strictObject({
  timestamp: z.string(),
  agent: z.string(),
  action: z.string(),
  task_id: z.string().nullable(),
  phase: z.string(),
  input_summary: z.string(),
  output_summary: z.string(),
  status: z.enum(LOG_STATUSES),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
