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
import { l10n, l10nVersion } from "../../../text/coreL10n";
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
import { PyFloat } from "../../../pyjson/pyValue";

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
  /** The task nodes of the previous build, reused where nothing a node shows changed. */
  readonly memo?: TaskNodeMemo;
}

/**
 * The task nodes of one folder's last tree, by task id, each with the key of everything it was
 * built from ({@link taskNodeInputs}). A refresh after an append changes a task or two of hundreds:
 * the others are handed back as they were instead of being built again.
 */
export class TaskNodeMemo {
  private nodes = new Map<string, { readonly key: string; readonly node: SourceTreeNode }>();
  private reusedLast = 0;

  /** How many task nodes the last build took from the build before it. */
  get reused(): number {
    return this.reusedLast;
  }

  /** @internal planTree's build: `make` for each task whose key differs; tasks not built are dropped. */
  build(tasks: Iterable<{ id: string; key: string; make: () => SourceTreeNode }>): SourceTreeNode[] {
    const next = new Map<string, { key: string; node: SourceTreeNode }>();
    const out: SourceTreeNode[] = [];
    let reused = 0;
    for (const t of tasks) {
      // A second task of the same id gets its own node (never one object twice in a tree).
      if (next.has(t.id)) {
        out.push(t.make());
        continue;
      }
      const prev = this.nodes.get(t.id);
      const node = prev && prev.key === t.key ? prev.node : t.make();
      if (node === prev?.node) reused++;
      next.set(t.id, { key: t.key, node });
      out.push(node);
    }
    this.nodes = next;
    this.reusedLast = reused;
    return out;
  }
}

/** JSON for any value: Python ints beyond 2^53, floats (2.0 is not 2) and dicts kept apart. */
function keyValue(_k: string, v: unknown): unknown {
  if (typeof v === "bigint") return { __int: v.toString() };
  if (v instanceof PyFloat) return { __float: Object.is(v.value, -0) ? "-0" : String(v.value) };
  if (v instanceof Map) return { __dict: [...(v as Map<unknown, unknown>)] };
  if (typeof v === "number" && !Number.isFinite(v)) return { __num: String(v) };
  return v;
}

/**
 * Everything {@link taskNode} reads, as one string: the task's shown fields, its dependencies'
 * titles and statuses, the retry limit, its last change, its extras' nodes, the folder and the
 * language. (A field the node does not show, as `metadata` or `evidence_bundle`, is not in it.)
 */
function taskNodeInputs(
  t: Task,
  known: ReadonlyMap<string, Task>,
  ctx: PlanTreeContext,
  extras: readonly SourceTreeNode[],
): string {
  const deps = t.depends_on.map((d) => {
    const found = known.get(d);
    return found ? [found.title, found.status] : null;
  });
  const change = ctx.lastChanges.get(t.id);
  const limit = ctx.retry?.retryLimit ?? null;
  const parts = [
    ...[l10nVersion(), ctx.workspace, ctx.retry, change ? JSON.stringify(change, keyValue) : null, deps, extras],
    ...[t.id, t.title, t.description, t.status, t.retry_count, t.escalated, t.assigned_agent, t.blocked_reason],
    ...[t.acceptance.map((c) => [c.id, c.description, c.met]), t.depends_on, t.files],
  ];
  // Plain JSON when the values that may be other than strings are of the schema's plain types (a
  // replacer costs a call per value); else every value in its exact form.
  const plain =
    typeof t.retry_count === "number" &&
    (limit === null || Number.isFinite(limit)) &&
    [t.assigned_agent, t.blocked_reason].every((v) => v === null || typeof v === "string");
  return plain ? JSON.stringify(parts) : JSON.stringify(parts, keyValue);
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
  extras: readonly SourceTreeNode[],
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
      icon: c.met ? { id: "check", color: "autodevStatus.complete" } : { id: "circle-large-outline" },
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
  out.push(...extras);
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

function taskNode(
  task: Task,
  known: ReadonlyMap<string, Task>,
  ctx: PlanTreeContext,
  extras: readonly SourceTreeNode[],
): SourceTreeNode {
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
    children: taskChildren(id, task, known, ctx, extras),
    contextValue: `autodevTask.${status}`,
  };
}

/** The phases of `plan` with their tasks (reusing `ctx.memo`'s nodes of tasks whose inputs did not change). */
export function planTree(plan: Plan, ctx: PlanTreeContext): SourceTreeNode[] {
  const known = new Map<string, Task>();
  for (const p of plan.phases) for (const t of p.tasks) if (!known.has(t.id)) known.set(t.id, t);
  const node = (t: Task) => {
    const extras = ctx.extras?.(t.id) ?? [];
    return { extras, make: () => taskNode(t, known, ctx, extras) };
  };
  const memo = ctx.memo;
  const built = memo
    ? memo.build(
        plan.phases.flatMap((p) =>
          p.tasks.map((t) => {
            const n = node(t);
            return { id: t.id, key: taskNodeInputs(t, known, ctx, n.extras), make: n.make };
          }),
        ),
      )
    : plan.phases.flatMap((p) => p.tasks.map((t) => node(t).make()));
  let next = 0;
  return plan.phases.map((phase) => {
    const tasks = phase.tasks;
    const done = tasks.filter((t) => isDoneStatus(String(t.status))).length;
    const allDone = done === tasks.length && tasks.length > 0;
    const title = l10n.t("Phase {0}: {1}", phase.id, phase.title);
    return {
      id: phaseNodeKey(phase.id),
      label: labelText(title, 400),
      description: `${done}/${tasks.length}`,
      icon: allDone ? { id: "pass", color: "autodevStatus.complete" } : { id: "layers" },
      tooltip: [
        mdLine(title),
        phase.description ? escapeMarkdown(phase.description) : "",
        mdLine(l10n.t("{0} of {1} tasks done", done, tasks.length)),
      ]
        .filter(Boolean)
        .join("  \n"),
      expanded: true,
      children: tasks.map(() => built[next++]),
      contextValue: "autodevPhase",
    };
  });
}
