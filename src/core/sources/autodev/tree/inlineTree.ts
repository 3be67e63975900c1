/**
 * Inline mode in the AutoDev tree: what the pending delegation says (its
 * frontmatter, the task envelope, the lessons AutoDev injected, the whole
 * prompt), each task's delegations and responses with where they stand
 * (waiting, answered, read, stale, unanswered: inlineHistory.ts), and the
 * plan phase before a plan is stored ("No plan yet", who it waits on, what
 * to run next).
 */
import type { SourceTreeNode } from "../../stateSource";
import type { DelegationFile } from "../inline/delegationFile";
import type { InlineStep, InlineStepState } from "../inline/inlineHistory";
import type { RunState } from "../run/runState";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

const STATE_LABEL: Record<InlineStepState, string> = {
  waiting: "waiting for the response",
  answered: "answered, not read yet",
  read: "read",
  stale: "stale: AutoDev would read it again",
  unanswered: "no response",
};

const STATE_ICON: Record<InlineStepState, { id: string; color?: string }> = {
  waiting: { id: "debug-pause", color: "charts.yellow" },
  answered: { id: "mail" },
  read: { id: "mail-read" },
  stale: { id: "warning", color: "problemsWarningIcon.foreground" },
  unanswered: { id: "circle-slash" },
};

/** The content of the pending delegation, as children of the waiting node. */
export function delegationContentNodes(base: string, d: DelegationFile): SourceTreeNode[] {
  const out: SourceTreeNode[] = [];
  if (d.frontmatter.length) {
    out.push({
      id: `${base}|frontmatter`,
      label: "Frontmatter",
      description: [d.createdAt, d.timeoutS !== null ? `timeout ${d.timeoutS}s` : null].filter(Boolean).join(" · "),
      icon: { id: "symbol-property" },
      children: d.frontmatter.slice(0, 50).map(([k, v], i) => ({
        id: `${base}|frontmatter|${i}`,
        label: labelText(k, 60),
        description: labelText(v, 160),
        tooltip: escapeMarkdown(v),
      })),
    });
  }
  if (d.envelope) {
    out.push({
      id: `${base}|envelope`,
      label: "Task",
      description: labelText(d.envelope.split("\n").slice(0, 3).join(" · "), 100),
      icon: { id: "tasklist" },
      tooltip: escapeMarkdown(d.envelope),
      target: {
        kind: "text",
        title: `${d.taskId ?? ""} ${d.role ?? ""} task`.trim(),
        language: "text",
        text: d.envelope,
      },
    });
  }
  if (d.lessons.length) {
    out.push({
      id: `${base}|lessons`,
      label: "Lessons injected",
      description: `${d.lessons.length}`,
      icon: { id: "lightbulb" },
      children: d.lessons.slice(0, 50).map((l, i) => ({
        id: `${base}|lessons|${i}`,
        label: labelText(l.text),
        description: `conf ${l.confidence.toFixed(2)}`,
        tooltip: escapeMarkdown(l.text),
      })),
    });
  }
  out.push({
    id: `${base}|prompt`,
    label: "Prompt",
    description: `${d.prompt.length} characters`,
    icon: { id: "markdown" },
    tooltip: escapeMarkdown(d.prompt, { max: 1500 }),
    target: { kind: "file", file: d.file },
  });
  return out;
}

function stepNode(base: string, s: InlineStep): SourceTreeNode {
  const r = s.response;
  const detail = [
    STATE_LABEL[s.state],
    r?.state === "invalid" ? `invalid: ${labelText(r.error?.message ?? "", 60)}` : null,
    r?.state === "unfilled" ? "not filled in" : null,
    r?.response && r.state !== "unfilled" ? (r.response.success ? `ok · ${r.response.duration_s}s` : "failed") : null,
  ]
    .filter(Boolean)
    .join(" · ");
  const files = [s.delegation, r?.file ?? null].filter((f): f is string => f !== null);
  return {
    id: `${base}|${s.role}`,
    label: labelText(s.role, 60),
    description: detail,
    icon:
      r?.state === "invalid"
        ? { id: "error", color: "problemsErrorIcon.foreground" }
        : r?.state === "unfilled"
          ? { id: "edit", color: "problemsWarningIcon.foreground" }
          : STATE_ICON[s.state],
    tooltip: escapeMarkdown([s.note, ...files, r?.response ? `\n${r.response.text}` : ""].join("\n")),
    target: r
      ? { kind: "file", file: r.file, line: r.error?.line }
      : s.delegation
        ? { kind: "file", file: s.delegation }
        : undefined,
    contextValue: `autodevStep.${s.state}`,
  };
}

/** A task's "Delegations" node (null when inline mode never delegated it). */
export function taskHistoryNode(taskId: string, steps: readonly InlineStep[]): SourceTreeNode | null {
  const mine = steps.filter((s) => s.taskId === taskId);
  if (mine.length === 0) return null;
  const base = `autodev|task|${taskId}|inline`;
  const stale = mine.filter((s) => s.state === "stale").length;
  return {
    id: base,
    label: "Delegations",
    description: `${mine.length}${stale ? ` · ${stale} stale` : ""}`,
    icon: stale ? STATE_ICON.stale : { id: "mail" },
    children: mine.map((s) => stepNode(base, s)),
  };
}

/** Steps of task ids the plan does not have (nor the plan phase), or null. */
export function otherStepsNode(steps: readonly InlineStep[], known: ReadonlySet<string>): SourceTreeNode | null {
  const others = steps.filter((s) => s.taskId !== "plan" && !known.has(s.taskId));
  if (others.length === 0) return null;
  return {
    id: "autodev|inline|other",
    label: "Delegations of tasks not in the plan",
    description: `${others.length}`,
    icon: { id: "question" },
    children: others.map((s) => ({
      ...stepNode(`autodev|inline|other|${s.taskId}`, s),
      label: labelText(`${s.taskId} ${s.role}`, 80),
    })),
  };
}

/** The plan phase: before a plan is stored "No plan yet" with who it waits on; after, its delegations. */
export function planPhaseNode(rs: RunState): SourceTreeNode {
  const base = "autodev|planPhase";
  const steps = rs.history.steps.filter((s) => s.taskId === "plan");
  const children = steps.map((s) => stepNode(base, s));
  const next = rs.next.plan;
  if (!rs.planStored) {
    const w = rs.inline.waiting;
    return {
      id: "autodev|empty",
      label: "No plan yet",
      description: w ? `plan phase · waiting on ${labelText(w.role, 40)}` : "plan phase",
      icon: { id: "info" },
      tooltip: escapeMarkdown(`AutoDev has not stored a plan (no ledger yet).${next ? `\nNext: ${next.text}` : ""}`),
      expanded: true,
      children: [
        ...(next
          ? [
              {
                id: `${base}|next`,
                label: "Next",
                description: labelText(next.text),
                tooltip: escapeMarkdown(next.text),
              },
            ]
          : []),
        ...children,
      ],
    };
  }
  return {
    id: base,
    label: "Plan phase",
    description: `${steps.length} delegation${steps.length === 1 ? "" : "s"}`,
    icon: { id: "mail-read" },
    children,
  };
}
