/**
 * The plan part of AutoDev's tree as {@link SourceTreeNode}s, the one composition the editor and
 * `autodevSource.tree` show: phases (done/total), tasks (the id as the label so a 300 px sidebar
 * shows it; status, retries beside the limit, the escalation mark and the title as the
 * description; the last change in the hover), and under a task its blocked reason, acceptance
 * criteria, dependencies (a click reveals the task), files and the host's extras (delegations).
 * Every text from the plan is one plain line with nothing hidden (untrustedText.ts) and escaped
 * in Markdown.
 */
import * as path from "node:path";
import { isInside } from "../../../fs/pathInside";
import { l10n } from "../../../text/coreL10n";
import { changeWords } from "../../../timeline/timelineWords";
import type { SourceTreeNode } from "../../stateSource";
import { isDoneStatus, taskStatusIcon, taskStatusLabel } from "../../taskStatusIcons";
import type { Plan, Task } from "../plan/schemas";
import { LEDGER_WORDS } from "../timeline/ledgerTimelineWords";
import type { TaskChange } from "../worker/autodevRequests";
import { RetryLimitView, retryHoverText, retryMark, retrySpoken } from "./retryWords";
import { phaseNodeKey, taskNodeKey } from "./planSummary";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

/** What the plan's nodes show besides the plan. */
export interface PlanTreeContext {
  /** The workspace folder (a task's file outside it is not opened). */
  readonly workspace: string;
  /** `qa_retry_limit` as the run view has it (null before the run state is read). */
  readonly retry: RetryLimitView;
  /** Each task's last status change (the hover). */
  readonly lastChanges: ReadonlyMap<string, TaskChange>;
  /** Nodes hung at the end of a task's children (its delegations). */
  readonly extras?: (taskId: string) => readonly SourceTreeNode[];
}

/** A one-line, human string of any value (blocked_reason may be any JSON). */
export function asText(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  try {
    return JSON.stringify(v, (_k, x) =>
      typeof x === "bigint" ? x.toString() : x instanceof Map ? Object.fromEntries(x) : x,
    );
  } catch {
    return String(v);
  }
}

/** One escaped Markdown line of untrusted text. */
function mdLine(s: string, max = 400): string {
  return escapeMarkdown(labelText(s, max), { oneLine: true });
}

function taskChildren(
  id: string,
  task: Task,
  known: ReadonlyMap<string, Task>,
  ctx: PlanTreeContext,
): SourceTreeNode[] {
  const out: SourceTreeNode[] = [];
  if (task.status === "blocked" || (task.blocked_reason !== null && task.blocked_reason !== undefined)) {
    const reason = asText(task.blocked_reason);
    if (reason) {
      out.push({
        id: `${id}|blocked`,
        label: labelText(reason, 400),
        icon: { id: "circle-slash", color: "testing.iconFailed" },
        tooltip: escapeMarkdown(l10n.t("Blocked: {0}", reason)),
      });
    }
  }
  task.acceptance.forEach((c, i) =>
    out.push({
      id: `${id}|ac|${i}|${c.id}`,
      label: labelText(c.description || c.id, 400),
      description: c.met ? l10n.t("met") : l10n.t("not met"),
      icon: c.met ? { id: "check", color: "testing.iconPassed" } : { id: "circle-large-outline" },
      contextValue: "autodevCriterion",
    }),
  );
  for (const dep of task.depends_on) {
    const found = known.get(dep);
    out.push({
      id: `${id}|dep|${dep}`,
      label: labelText(l10n.t("depends on {0}", dep), 400),
      description: found
        ? labelText(`${found.title} · ${taskStatusLabel(String(found.status))}`, 400)
        : l10n.t("not in the plan"),
      icon: found ? { id: "link" } : { id: "warning", color: "problemsWarningIcon.foreground" },
      target: found ? { kind: "reveal", nodeId: taskNodeKey(dep) } : undefined,
    });
  }
  for (const f of task.files) {
    const inside = isInside(ctx.workspace, path.resolve(ctx.workspace, f));
    out.push({
      id: `${id}|file|${f}`,
      label: labelText(f, 400),
      description: inside ? undefined : l10n.t("outside the workspace — not opened"),
      icon: { id: "file" },
      target: inside ? { kind: "file", file: f } : undefined,
      contextValue: "autodevTaskFile",
    });
  }
  out.push(...(ctx.extras?.(task.id) ?? []));
  return out;
}

function taskTooltip(t: Task, ctx: PlanTreeContext): Pick<SourceTreeNode, "tooltip" | "tooltipTimes"> {
  const status = String(t.status);
  const retries = Number(t.retry_count);
  const lines = [`**${mdLine(t.id, 200)} ${mdLine(t.title)}** — ${mdLine(taskStatusLabel(status))}`, ""];
  if (t.description) lines.push(escapeMarkdown(t.description), "");
  const tail: string[] = [];
  if (t.assigned_agent) tail.push(mdLine(l10n.t("agent: {0}", t.assigned_agent)));
  if (retries > 0) tail.push(mdLine(retryHoverText(String(t.retry_count), ctx.retry)));
  if (t.escalated) tail.push(`⚑ ${mdLine(l10n.t("escalated to the critic"))}`);
  if (t.blocked_reason !== null && t.blocked_reason !== undefined) {
    tail.push(mdLine(l10n.t("blocked: {0}", asText(t.blocked_reason))));
  }
  const change = ctx.lastChanges.get(t.id);
  if (change) {
    const what = changeWords(LEDGER_WORDS, change) || taskStatusLabel(change.toStatus);
    tail.push(mdLine(l10n.t("last change: {0} · seq {1}", what, change.seq)));
  }
  const tooltip = [...lines, ...tail.map((l) => `${l}  `)].join("\n").trimEnd();
  return {
    tooltip: tail.length ? `${tooltip}  ` : tooltip,
    tooltipTimes: change?.timestamp ? [{ label: l10n.t("changed"), time: change.timestamp }] : undefined,
  };
}

function taskNode(task: Task, known: ReadonlyMap<string, Task>, ctx: PlanTreeContext): SourceTreeNode {
  const id = taskNodeKey(task.id);
  const status = String(task.status);
  const retries = Number(task.retry_count);
  const marks = [retries > 0 ? retryMark(String(task.retry_count), ctx.retry) : "", task.escalated ? "⚑" : ""];
  const spoken = [
    taskStatusLabel(status),
    retries > 0 ? retrySpoken(String(task.retry_count), ctx.retry) : "",
    task.escalated ? l10n.t("escalated") : "",
  ];
  return {
    id,
    label: labelText(task.id, 200),
    description: labelText([taskStatusLabel(status), ...marks, task.title].filter(Boolean).join(" · "), 400),
    accessibilityLabel: labelText(
      l10n.t("Task {0}, {1}: {2}", task.id, task.title, spoken.filter(Boolean).join(", ")),
      600,
    ),
    icon: taskStatusIcon(status),
    ...taskTooltip(task, ctx),
    children: taskChildren(id, task, known, ctx),
    contextValue: `autodevTask.${status}`,
  };
}

/** The phases of `plan` with their tasks. */
export function planTree(plan: Plan, ctx: PlanTreeContext): SourceTreeNode[] {
  const known = new Map<string, Task>();
  for (const p of plan.phases) for (const t of p.tasks) if (!known.has(t.id)) known.set(t.id, t);
  return plan.phases.map((phase) => {
    const tasks = phase.tasks;
    const done = tasks.filter((t) => isDoneStatus(String(t.status))).length;
    const allDone = done === tasks.length && tasks.length > 0;
    const title = l10n.t("Phase {0}: {1}", phase.id, phase.title);
    return {
      id: phaseNodeKey(phase.id),
      label: labelText(title, 400),
      description: `${done}/${tasks.length}`,
      icon: allDone ? { id: "pass", color: "testing.iconPassed" } : { id: "layers" },
      tooltip: [
        mdLine(title),
        phase.description ? escapeMarkdown(phase.description) : "",
        mdLine(l10n.t("{0} of {1} tasks done", done, tasks.length)),
      ]
        .filter(Boolean)
        .join("  \n"),
      expanded: true,
      children: tasks.map((t) => taskNode(t, known, ctx)),
      contextValue: "autodevPhase",
    };
  });
}
