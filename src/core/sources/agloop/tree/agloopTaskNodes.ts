/**
 * Tree nodes of agloop tasks: status icons in AutoDev's icon language, dependencies that reveal
 * their task, acceptance criteria, failure modes, files, effort (from plan.yaml), the executor's
 * result and the verifier's verification. All text comes from untrusted files: labels are cut
 * to one line, tooltips escaped.
 */
import type { NodeIcon, SourceTreeNode } from "../../stateSource";
import { STATE_FILE } from "../agloopFiles";
import { asArray, asRecord, asString } from "../agloopText";
import { pushAll } from "../../sourceProblems";
import { jsonPreview } from "../../../text/jsonPreview";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

/** Icon per task status (the same codicons and colours as AutoDev's pending / in progress / complete / blocked). */
const TASK_STATUS_ICONS: Readonly<Record<string, NodeIcon>> = {
  pending: { id: "circle-large-outline", color: "autodevStatus.pending" },
  in_progress: { id: "play-circle", color: "autodevStatus.inProgress" },
  done: { id: "pass-filled", color: "autodevStatus.complete" },
  failed: { id: "error", color: "testing.iconFailed" },
};
const UNKNOWN_STATUS: NodeIcon = { id: "question", color: "problemsWarningIcon.foreground" };

/** The node id of a task (the first task with an id owns the plain id; duplicates get their index). */
function taskNodeId(id: string, index: number, firstIndex: ReadonlyMap<string, number>): string {
  return firstIndex.get(id) === index ? `agloop/task/${id}` : `agloop/task/${id}#${index}`;
}

/** A leaf with a one-line label and an escaped tooltip of the full text. */
export function textLeaf(id: string, label: string, description?: string, icon?: NodeIcon): SourceTreeNode {
  return {
    id,
    label: labelText(label),
    description: description === undefined ? undefined : labelText(description, 80),
    tooltip: escapeMarkdown(label),
    icon,
  };
}

/** A labelled group of string leaves, or nothing when the list is empty. */
function listGroup(id: string, label: string, items: readonly unknown[], icon: string): SourceTreeNode[] {
  const strings = items.map((v) => (typeof v === "string" ? v : jsonPreview(v, 2000))).filter((s) => s.length > 0);
  if (strings.length === 0) return [];
  return [
    {
      id,
      label,
      description: String(strings.length),
      icon: { id: icon },
      children: strings.map((s, i) => textLeaf(`${id}/${i}`, s)),
    },
  ];
}

/** Effort by task id from plan.yaml. */
export type PlanEffort = ReadonlyMap<string, string>;

/** The nodes under one task. */
function taskChildren(
  base: string,
  task: Record<string, unknown>,
  taskIds: ReadonlyMap<string, number>,
  effort: PlanEffort,
): SourceTreeNode[] {
  const out: SourceTreeNode[] = [];
  const deps = asArray(task.depends_on).filter((d): d is string => typeof d === "string");
  if (deps.length > 0) {
    out.push({
      id: `${base}/deps`,
      label: "Depends on",
      description: deps.join(", ").slice(0, 80),
      icon: { id: "git-merge" },
      children: deps.map((d, i) => {
        const known = taskIds.has(d);
        return {
          id: `${base}/deps/${i}`,
          label: labelText(d, 60),
          description: known ? undefined : "unknown task",
          icon: known ? { id: "arrow-right" } : { id: "warning", color: "problemsWarningIcon.foreground" },
          target: known ? { kind: "reveal" as const, nodeId: `agloop/task/${d}` } : undefined,
        };
      }),
    });
  }
  pushAll(out, listGroup(`${base}/criteria`, "Acceptance criteria", asArray(task.acceptance_criteria), "checklist"));
  const modes = asArray(task.failure_modes)
    .map(asRecord)
    .filter((m): m is Record<string, unknown> => m !== undefined);
  if (modes.length > 0) {
    out.push({
      id: `${base}/failure-modes`,
      label: "Failure modes",
      description: String(modes.length),
      icon: { id: "shield" },
      children: modes.map((m, i) => ({
        ...textLeaf(
          `${base}/failure-modes/${i}`,
          asString(m.mode) ?? "?",
          `${asString(m.likelihood) ?? "?"} likelihood · ${asString(m.impact) ?? "?"} impact`,
        ),
        tooltip: escapeMarkdown(`${asString(m.mode) ?? ""}\n\nMitigation: ${asString(m.mitigation) ?? "none"}`),
      })),
    });
  }
  pushAll(out, listGroup(`${base}/files-modify`, "Files to modify", asArray(task.files_to_modify), "edit"));
  pushAll(out, listGroup(`${base}/files-read`, "Files to read", asArray(task.files_to_read), "book"));
  const id = asString(task.id);
  const planEffort = id === undefined ? undefined : effort.get(id);
  const taskEffort = asString(task.estimated_effort);
  if (planEffort ?? taskEffort) {
    out.push(
      textLeaf(`${base}/effort`, `Effort: ${planEffort ?? taskEffort}`, planEffort ? "plan.yaml" : "state.json", {
        id: "dashboard",
      }),
    );
  }
  const result = asRecord(task.result);
  if (result) out.push(resultNode(`${base}/result`, result));
  const verification = asRecord(task.verification);
  if (verification) out.push(verificationNode(`${base}/verification`, verification));
  return out;
}

/** The executor's result: summary, files, criteria confirmation, warnings. */
function resultNode(id: string, result: Record<string, unknown>): SourceTreeNode {
  const confirmations = asArray(result.acceptance_criteria_confirmation)
    .map(asRecord)
    .filter((c): c is Record<string, unknown> => c !== undefined);
  const children: SourceTreeNode[] = [];
  const summary = asString(result.summary);
  if (summary) children.push(textLeaf(`${id}/summary`, summary, undefined, { id: "note" }));
  pushAll(children, listGroup(`${id}/modified`, "Files modified", asArray(result.files_modified), "diff-modified"));
  pushAll(children, listGroup(`${id}/deleted`, "Files deleted", asArray(result.files_deleted), "diff-removed"));
  if (confirmations.length > 0) {
    children.push({
      id: `${id}/confirmation`,
      label: "Criteria confirmation",
      description: `${confirmations.filter((c) => c.met === true).length}/${confirmations.length} met`,
      icon: { id: "checklist" },
      children: confirmations.map((c, i) => ({
        ...textLeaf(
          `${id}/confirmation/${i}`,
          asString(c.criterion) ?? "?",
          c.met === true ? "met" : "not met",
          c.met === true
            ? { id: "check", color: "autodevStatus.complete" }
            : { id: "close", color: "testing.iconFailed" },
        ),
        tooltip: escapeMarkdown(`${asString(c.criterion) ?? ""}\n\nEvidence: ${asString(c.evidence) ?? "none"}`),
      })),
    });
  }
  pushAll(children, listGroup(`${id}/warnings`, "Warnings", asArray(result.warnings), "warning"));
  return {
    id,
    label: "Executor result",
    description: result.verified === true ? "verified" : "not verified yet",
    icon: { id: "tools" },
    children,
  };
}

/** The verifier's verification: verdict, per-criterion results, spec compliance, failure details. */
function verificationNode(id: string, v: Record<string, unknown>): SourceTreeNode {
  const verdict = asString(v.verdict) ?? "?";
  const pass = verdict === "PASS";
  const children: SourceTreeNode[] = [];
  const summary = asString(v.overall_summary);
  if (summary) children.push(textLeaf(`${id}/summary`, summary, undefined, { id: "note" }));
  asArray(v.criteria_results).forEach((r, i) => {
    const c = asRecord(r);
    if (!c) return;
    const ok = asString(c.result) === "pass";
    children.push({
      ...textLeaf(
        `${id}/criteria/${i}`,
        asString(c.criterion) ?? "?",
        asString(c.result) ?? "?",
        ok ? { id: "check", color: "autodevStatus.complete" } : { id: "close", color: "testing.iconFailed" },
      ),
      tooltip: escapeMarkdown(`${asString(c.criterion) ?? ""}\n\nEvidence: ${asString(c.evidence) ?? "none"}`),
    });
  });
  const compliance = asRecord(v.specification_compliance);
  if (compliance) {
    const parts = Object.entries(compliance).map(([k, val]) => {
      const rec = asRecord(val);
      const violations = asArray(rec?.violations);
      return textLeaf(
        `${id}/spec/${k}`,
        `${k}: ${rec?.compliant === true ? "compliant" : "not compliant"}`,
        violations.length ? `${violations.length} violation(s)` : undefined,
        rec?.compliant === true
          ? { id: "check", color: "autodevStatus.complete" }
          : { id: "close", color: "testing.iconFailed" },
      );
    });
    children.push({ id: `${id}/spec`, label: "Specification compliance", icon: { id: "law" }, children: parts });
  }
  if (v.failure_details !== undefined && v.failure_details !== null) {
    const text = typeof v.failure_details === "string" ? v.failure_details : jsonPreview(v.failure_details, 2000);
    children.push(
      textLeaf(`${id}/failure`, `Failure details: ${text}`, undefined, { id: "error", color: "testing.iconFailed" }),
    );
  }
  return {
    id,
    label: `Verification: ${labelText(verdict, 20)}`,
    icon: pass ? { id: "pass", color: "autodevStatus.complete" } : { id: "error", color: "testing.iconFailed" },
    children,
  };
}

/**
 * One node per task, in state order. As AutoDev's rows: the id as the label, then the status, the
 * marks (retries from `retry_count`, "current") and the title — so a 300 px sidebar shows the status.
 */
export function taskNodes(
  tasks: readonly unknown[],
  currentTaskId: string | null,
  effort: PlanEffort,
  lineOfTask: (index: number) => number | null,
  retries: Readonly<Record<string, unknown>> = {},
): SourceTreeNode[] {
  const firstIndex = new Map<string, number>();
  tasks.forEach((t, i) => {
    const id = asString(asRecord(t)?.id);
    if (id !== undefined && !firstIndex.has(id)) firstIndex.set(id, i);
  });
  return tasks.map((t, i) => {
    const task = asRecord(t) ?? {};
    const id = asString(task.id) ?? `(task ${i + 1} has no id)`;
    const status = asString(task.status) ?? "?";
    const nodeId = taskNodeId(id, i, firstIndex);
    const title = asString(task.title) ?? "";
    const line = lineOfTask(i);
    const retried = Object.prototype.hasOwnProperty.call(retries, id) ? retries[id] : 0;
    const retryCount = typeof retried === "number" && Number.isInteger(retried) && retried > 0 ? retried : 0;
    const marks = [retryCount ? `retry ${retryCount}` : "", id === currentTaskId ? "current" : ""].filter(Boolean);
    return {
      id: nodeId,
      label: labelText(id, 40),
      description: [labelText(status, 30).replace("_", " "), ...marks, labelText(title, 100)]
        .filter(Boolean)
        .join(" · "),
      tooltip: escapeMarkdown(
        `${id}: ${title}\n\nStatus: ${status.replace(/_/g, " ")}${retryCount ? `\n\nRetries: ${retryCount}` : ""}\n\n${asString(task.description) ?? ""}`,
      ),
      icon: Object.prototype.hasOwnProperty.call(TASK_STATUS_ICONS, status)
        ? TASK_STATUS_ICONS[status]
        : UNKNOWN_STATUS,
      children: taskChildren(nodeId, task, firstIndex, effort),
      contextValue: "agloop.task",
      target: line === null ? undefined : { kind: "file" as const, file: STATE_FILE, line },
    };
  });
}
