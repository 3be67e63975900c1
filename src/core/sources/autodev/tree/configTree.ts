/**
 * The Config section: config.json validated like AutodevConfig (each error
 * opens the file at its key's line), and the settings worth seeing while a
 * run goes: platform, retries against `qa_retry_limit`, guardrails,
 * tournaments and the hive.
 */
import type { SourceTreeNode } from "../../stateSource";
import { ConfigReport, retryLabel } from "../config/configReader";
import type { InlineWaiting } from "../inline/inlineState";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

const ERR = { id: "error", color: "problemsErrorIcon.foreground" };

function leaf(id: string, label: string, description: string, file: string): SourceTreeNode {
  return {
    id: `autodev|config|${id}`,
    label,
    description: labelText(description, 100),
    target: { kind: "file", file },
  };
}

/** The "Config" section (null when there is no config.json). */
export function configSection(c: ConfigReport, waiting: InlineWaiting | null): SourceTreeNode | null {
  if (!c.present) return null;
  const children: SourceTreeNode[] = c.errors.map((e, i) => ({
    id: `autodev|config|error|${i}`,
    label: labelText(e.path === "(json)" || e.path === "(file)" ? e.message : `${e.path}: ${e.message}`),
    description: `line ${e.line}`,
    icon: ERR,
    tooltip: escapeMarkdown(`${e.path}: ${e.message}`),
    target: { kind: "file", file: c.file, line: e.line },
  }));
  const cfg = c.config;
  if (cfg) {
    const g = cfg.guardrails;
    const t = cfg.tournaments;
    const phase = (p: typeof t.plan) =>
      p.enabled ? `on · ${p.num_judges} judges · k=${p.convergence_k} · ≤${p.max_rounds} rounds` : "off";
    children.push(
      leaf("platform", "Platform", cfg.platform, c.file),
      leaf(
        "retries",
        "QA retry limit",
        waiting
          ? `${cfg.qa_retry_limit} · ${waiting.taskId} at ${retryLabel(waiting.retryCount, cfg.qa_retry_limit)}`
          : String(cfg.qa_retry_limit),
        c.file,
      ),
      {
        id: "autodev|config|guardrails",
        label: "Guardrails",
        description: `${g.max_invocations_per_task} invocations · ${g.max_duration_s_per_task}s per task`,
        target: { kind: "file", file: c.file },
        children: [
          leaf("guardrails|inv", "Invocations per task", String(g.max_invocations_per_task), c.file),
          leaf("guardrails|tools", "Tool calls per task", String(g.max_tool_calls_per_task), c.file),
          leaf("guardrails|duration", "Duration per task", `${g.max_duration_s_per_task}s`, c.file),
          leaf("guardrails|diff", "Diff size", `${g.max_diff_bytes} bytes`, c.file),
          leaf(
            "guardrails|cost",
            "Cost budget per plan",
            g.cost_budget_usd_per_plan === null ? "none" : `$${g.cost_budget_usd_per_plan}`,
            c.file,
          ),
        ],
      },
      {
        id: "autodev|config|tournaments",
        label: "Tournaments",
        description: `plan ${t.plan.enabled ? "on" : "off"} · impl ${t.impl.enabled ? "on" : "off"}`,
        target: { kind: "file", file: c.file },
        children: [
          leaf("tournaments|plan", "Plan", phase(t.plan), c.file),
          leaf("tournaments|impl", "Implementation", phase(t.impl), c.file),
          leaf("tournaments|parallel", "Parallel subprocesses", String(t.max_parallel_subprocesses), c.file),
          leaf("tournaments|auto", "Auto-disabled for models", t.auto_disable_for_models.join(", ") || "none", c.file),
        ],
      },
      leaf("hive", "Hive", `${c.hiveEnabled ? "on" : "off"} · ${cfg.hive.path}`, c.file),
    );
  }
  return {
    id: "autodev|config",
    label: "Config",
    description: c.ok
      ? `${cfg?.platform ?? ""} · valid`
      : `${c.errors.length} error${c.errors.length === 1 ? "" : "s"}`,
    icon: c.ok ? { id: "settings-gear" } : ERR,
    target: { kind: "file", file: c.file },
    children,
  };
}
