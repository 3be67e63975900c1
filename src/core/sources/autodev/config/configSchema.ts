/**
 * `.autodev/config.json` as Python's `AutodevConfig` (src/config/schema.py)
 * defines it: `extra="forbid"` on every model (zod strict objects), pydantic's
 * lax `int`/`float`/`bool`, the same defaults, and `require_all_roles()`.
 */
import * as z from "zod";
import { pyLaxBool, pyLaxFloat, pyLaxInt, pyOptional, pyStr } from "../pydanticLax";

/** Roles `require_all_roles()` demands in `agents`. */
const REQUIRED_AGENT_ROLES: readonly string[] = [
  "architect",
  "explorer",
  "domain_expert",
  "developer",
  "reviewer",
  "test_engineer",
  "critic_sounding_board",
  "critic_drift_verifier",
  "docs",
  "designer",
  "critic_t",
  "architect_b",
  "synthesizer",
  "judge",
];

/** The hive file when config does not say: `~/.local/share/autodev/shared-learnings.jsonl`. */
export const DEFAULT_HIVE_PATH = "~/.local/share/autodev/shared-learnings.jsonl";

/** `qa_retry_limit` when config.json does not set it. */
export const DEFAULT_QA_RETRY_LIMIT = 3;

const AgentConfigSchema = z.strictObject({
  model: pyOptional(pyStr).default(null),
  disabled: pyLaxBool.default(false),
  max_turns: pyOptional(pyLaxInt).default(null),
});

const TournamentPhaseSchema = z.strictObject({
  enabled: pyLaxBool,
  num_judges: pyLaxInt,
  convergence_k: pyLaxInt,
  max_rounds: pyLaxInt,
});

const TournamentsSchema = z.strictObject({
  plan: TournamentPhaseSchema,
  impl: TournamentPhaseSchema,
  max_parallel_subprocesses: pyLaxInt.default(3),
  auto_disable_for_models: z.array(pyStr).default(() => ["opus"]),
});

const QAGatesSchema = z.strictObject({
  syntax_check: pyLaxBool.default(true),
  lint: pyLaxBool.default(true),
  build_check: pyLaxBool.default(true),
  test_runner: pyLaxBool.default(true),
  secretscan: pyLaxBool.default(true),
  sast_scan: pyLaxBool.default(false),
  mutation_test: pyLaxBool.default(false),
});

const GuardrailsSchema = z.strictObject({
  max_invocations_per_task: pyLaxInt.default(60),
  max_tool_calls_per_task: pyLaxInt.default(60),
  max_duration_s_per_task: pyLaxInt.default(900),
  max_diff_bytes: pyLaxInt.default(5_242_880),
  cost_budget_usd_per_plan: pyOptional(pyLaxFloat).default(null),
});

const HiveSchema = z.strictObject({
  enabled: pyLaxBool.default(true),
  path: pyStr,
});

const KnowledgeSchema = z.strictObject({
  enabled: pyLaxBool.default(true),
  swarm_max_entries: pyLaxInt.default(100),
  hive_max_entries: pyLaxInt.default(200),
  dedup_threshold: pyLaxFloat.default(0.6),
  max_inject_count: pyLaxInt.default(5),
  hive_enabled: pyLaxBool.default(true),
  promotion_min_confirmations: pyLaxInt.default(3),
  promotion_min_confidence: pyLaxFloat.default(0.7),
  denylist_roles: z.array(pyStr).default(() => ["explorer", "judge", "critic_t", "architect_b", "synthesizer"]),
});

/** `AutodevConfig`. */
export const AutodevConfigSchema = z.strictObject({
  schema_version: z.literal("1.0.0", { error: "Input should be '1.0.0'" }).default("1.0.0"),
  platform: z
    .enum(["claude_code", "cursor", "inline", "auto"], {
      error: "Input should be 'claude_code', 'cursor', 'inline' or 'auto'",
    })
    .default("auto"),
  agents: z.record(pyStr, AgentConfigSchema),
  tournaments: TournamentsSchema,
  qa_gates: QAGatesSchema.default(() => QAGatesSchema.parse({})),
  qa_retry_limit: pyLaxInt.default(DEFAULT_QA_RETRY_LIMIT),
  guardrails: GuardrailsSchema.default(() => GuardrailsSchema.parse({})),
  hive: HiveSchema,
  knowledge: KnowledgeSchema.default(() => KnowledgeSchema.parse({})),
});

/** A validated config. */
export type AutodevConfig = z.output<typeof AutodevConfigSchema>;

/** Roles `require_all_roles()` would report missing. */
export function missingAgentRoles(cfg: AutodevConfig): string[] {
  return REQUIRED_AGENT_ROLES.filter((r) => !Object.prototype.hasOwnProperty.call(cfg.agents, r));
}
