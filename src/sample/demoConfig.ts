/**
 * The demo workspace's `.autodev/config.json`: Python AutoDev's defaults as its own code writes them
 * (taken from test/fixtures/python-full, written by the real `AutodevConfig`), on the inline
 * platform (as `autodev init --inline` writes it), which is what the demo's delegation and
 * response files are: a run suspended in inline mode, waiting on its agent.
 */
export const DEMO_CONFIG: Record<string, unknown> = {
  schema_version: "1.0.0",
  platform: "inline",
  agents: {
    architect: {
      model: "opus",
      disabled: false,
      max_turns: 5,
    },
    explorer: {
      model: "haiku",
      disabled: false,
      max_turns: 3,
    },
    domain_expert: {
      model: "sonnet",
      disabled: false,
      max_turns: 3,
    },
    developer: {
      model: "sonnet",
      disabled: false,
      max_turns: 10,
    },
    reviewer: {
      model: "sonnet",
      disabled: false,
      max_turns: 3,
    },
    test_engineer: {
      model: "sonnet",
      disabled: false,
      max_turns: 5,
    },
    critic_sounding_board: {
      model: "sonnet",
      disabled: false,
      max_turns: 3,
    },
    critic_drift_verifier: {
      model: "sonnet",
      disabled: false,
      max_turns: 3,
    },
    docs: {
      model: "sonnet",
      disabled: false,
      max_turns: 3,
    },
    designer: {
      model: "sonnet",
      disabled: false,
      max_turns: 3,
    },
    critic_t: {
      model: "sonnet",
      disabled: false,
      max_turns: 1,
    },
    architect_b: {
      model: "sonnet",
      disabled: false,
      max_turns: 5,
    },
    synthesizer: {
      model: "sonnet",
      disabled: false,
      max_turns: 1,
    },
    judge: {
      model: "sonnet",
      disabled: false,
      max_turns: 1,
    },
  },
  tournaments: {
    plan: {
      enabled: true,
      num_judges: 3,
      convergence_k: 2,
      max_rounds: 5,
    },
    impl: {
      enabled: true,
      num_judges: 1,
      convergence_k: 1,
      max_rounds: 3,
    },
    max_parallel_subprocesses: 3,
    auto_disable_for_models: ["opus"],
  },
  qa_gates: {
    syntax_check: false,
    lint: false,
    build_check: false,
    test_runner: false,
    secretscan: false,
    sast_scan: false,
    mutation_test: false,
  },
  qa_retry_limit: 3,
  guardrails: {
    max_invocations_per_task: 60,
    max_tool_calls_per_task: 60,
    max_duration_s_per_task: 900,
    max_diff_bytes: 5242880,
    cost_budget_usd_per_plan: null,
  },
  hive: {
    enabled: true,
    path: "~/.local/share/autodev/shared-learnings.jsonl",
  },
  knowledge: {
    enabled: true,
    swarm_max_entries: 100,
    hive_max_entries: 200,
    dedup_threshold: 0.6,
    max_inject_count: 5,
    hive_enabled: true,
    promotion_min_confirmations: 3,
    promotion_min_confidence: 0.7,
    denylist_roles: ["explorer", "judge", "critic_t", "architect_b", "synthesizer"],
  },
};
