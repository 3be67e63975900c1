/**
 * The tree of a `.agloop/` folder: a stop_hook_active warning, the feature, phase and iteration,
 * the current task, the tasks, the phase history with durations, the critic's objections, the
 * compaction context and the checkpoints (newest first, each diffable against state.json).
 */
import type { NodeAction, SourceTreeNode } from "../../stateSource";
import { PLAN_FILE, STATE_FILE } from "../agloopFiles";
import type { AgloopSnapshot } from "../agloopSnapshot";
import { taskNodes, textLeaf, type PlanEffort } from "./agloopTaskNodes";
import { asArray, asRecord, asString } from "../agloopText";
import { readCheckpoint, type CheckpointInfo } from "../checkpoints";
import { RECOVER_ACTION } from "../agloopRecovery";
import { lineAtPath } from "../jsonPositions";
import { approvalGateNode } from "../agloopWaiting";
import { contractTreeNode } from "../../phaseContract";
import { jsonPreview, stringifyOrNull } from "../../../text/jsonPreview";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

/** How many checkpoints get an in-memory diff side (the rest diff the raw file). */
const DIFF_TEXT_CHECKPOINTS = 20;
const DIFF_TEXT_MAX_CHARS = 512 * 1024;

/** "1 h 02 min", "3 min 05 s", "12 s". */
function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** Effort per task id from plan.yaml. */
function planEffort(snapshot: AgloopSnapshot): PlanEffort {
  const effort = new Map<string, string>();
  if (snapshot.plan.kind !== "ok") return effort;
  for (const t of asArray(asRecord(snapshot.plan.value)?.tasks)) {
    const id = asString(asRecord(t)?.id);
    const e = asString(asRecord(t)?.estimated_effort);
    if (id !== undefined && e !== undefined && !effort.has(id)) effort.set(id, e);
  }
  return effort;
}

/** The nodes about state.json being unusable, with the recovery action when a checkpoint exists. */
function unusableStateNodes(snapshot: AgloopSnapshot): SourceTreeNode[] {
  const s = snapshot.state;
  if (s.kind === "ok") return [];
  const newest = snapshot.checkpoints.checkpoints.find((c) => c.format !== "invalid");
  const usable = newest !== undefined;
  const what =
    s.kind === "missing"
      ? "state.json is missing"
      : s.kind === "invalid"
        ? "state.json does not parse"
        : "state.json was not read";
  const recoverable = usable && s.kind !== "refused";
  const node: SourceTreeNode = {
    id: "agloop/state-unusable",
    label: what,
    description: recoverable ? "click to choose a checkpoint to recover from" : undefined,
    tooltip: escapeMarkdown(s.kind === "missing" ? "No .agloop/state.json." : s.problem.message),
    icon: { id: "error", color: "errorForeground" },
    contextValue: recoverable ? "agloop.recoverable" : undefined,
    target: recoverable ? { kind: "choose", action: RECOVER_ACTION } : undefined,
  };
  return [node];
}

/** Phase history rows with durations. */
function phaseHistoryNode(state: Record<string, unknown>): SourceTreeNode | undefined {
  const history = asArray(state.phase_history).map(asRecord);
  if (history.length === 0) return undefined;
  const children = history.map((h, i) => {
    const phase = asString(h?.phase) ?? "?";
    const entered = Date.parse(asString(h?.entered_at) ?? "");
    const exitedText = asString(h?.exited_at);
    const exited = exitedText ? Date.parse(exitedText) : NaN;
    const description = exitedText ? formatDuration(exited - entered) : "ongoing";
    return {
      id: `agloop/phases/${i}`,
      label: labelText(phase, 40),
      description,
      tooltip: escapeMarkdown(`${phase}${exitedText ? "" : "\n\nnot exited yet"}`),
      tooltipTimes: [
        { label: "entered", time: asString(h?.entered_at) ?? "?" },
        ...(exitedText ? [{ label: "exited", time: exitedText }] : []),
      ],
      icon: exitedText ? { id: "history" } : { id: "debug-start", color: "charts.blue" },
    };
  });
  return {
    id: "agloop/phases",
    label: "Phase history",
    description: String(history.length),
    icon: { id: "history" },
    children,
  };
}

/** The critic's objections, open ones marked. */
function objectionsNode(state: Record<string, unknown>): SourceTreeNode | undefined {
  const list = asArray(state.previous_objections)
    .map(asRecord)
    .filter((o): o is Record<string, unknown> => o !== undefined);
  if (list.length === 0) return undefined;
  const open = list.filter((o) => o.resolved !== true).length;
  return {
    id: "agloop/objections",
    label: "Critic objections",
    description: open > 0 ? `${open} open of ${list.length}` : `${list.length} resolved`,
    icon: { id: "comment-discussion" },
    children: list.map((o, i) => ({
      id: `agloop/objections/${i}`,
      label: labelText(asString(o.objection) ?? "?"),
      description: `iteration ${typeof o.iteration === "number" ? o.iteration : "?"} · ${labelText(asString(o.severity) ?? "?", 20)} · ${o.resolved === true ? "resolved" : "open"}`,
      tooltip: escapeMarkdown(
        `${asString(o.objection) ?? ""}\n\nCategory: ${asString(o.objection_category) ?? "?"}\n\nResponse: ${asString(o.response) ?? "none"}`,
      ),
      icon:
        o.resolved === true
          ? { id: "pass", color: "autodevStatus.complete" }
          : { id: "warning", color: "problemsWarningIcon.foreground" },
    })),
  };
}

/** compaction_context: count, pending decision, last delegation, digests. */
function compactionNode(state: Record<string, unknown>): SourceTreeNode | undefined {
  const cc = asRecord(state.compaction_context);
  if (!cc) return undefined;
  const text = (v: unknown): string | undefined =>
    typeof v === "string" ? v : v === null || v === undefined ? undefined : jsonPreview(v, 2000);
  const children: SourceTreeNode[] = [];
  const add = (key: string, label: string, value: unknown): void => {
    const t = text(value);
    if (t) children.push(textLeaf(`agloop/compaction/${key}`, `${label}: ${t}`));
  };
  const d = asRecord(cc.last_delegation);
  if (d && (d.agent || d.task_id)) {
    add(
      "delegation",
      "Last delegation",
      `${text(d.agent) ?? "?"} for ${text(d.task_id) ?? "no task"} — ${text(d.delegation_summary) ?? ""}`,
    );
  }
  add("pending", "Pending decision", cc.pending_decision);
  add("result", "Last result", cc.last_result_summary);
  add("research", "Research digest", cc.research_digest);
  add("plan", "Plan digest", cc.plan_digest);
  add("critique", "Critique digest", cc.critique_digest);
  const count = typeof cc.compaction_count === "number" ? cc.compaction_count : 0;
  return {
    id: "agloop/compaction",
    label: "Compaction context",
    description: `compacted ${count}×`,
    icon: { id: "archive" },
    children,
  };
}

/** "Recover from this checkpoint": how the picker lists a checkpoint (type, trigger, time, summary). */
function recoverAction(c: CheckpointInfo): NodeAction {
  return {
    action: RECOVER_ACTION,
    args: [c.name],
    label: `${labelText(c.type, 40)} checkpoint${c.format === "legacy" ? " (older format)" : ""}`,
    description: c.trigger ? `trigger: ${labelText(c.trigger, 60)}` : undefined,
    detail: [c.summary ? labelText(c.summary, 160) : "", c.name].filter(Boolean).join(" — "),
    time: c.createdAt ?? undefined,
  };
}

/** One checkpoint node with its diff against state.json. */
async function checkpointNode(workspace: string, c: CheckpointInfo, index: number): Promise<SourceTreeNode> {
  const id = `agloop/checkpoints/${c.name}`;
  if (c.format === "invalid") {
    return {
      id,
      label: labelText(c.name, 80),
      description: "does not parse",
      icon: { id: "warning", color: "problemsWarningIcon.foreground" },
      target: { kind: "file", file: c.file },
      contextValue: "agloop.checkpoint.invalid",
    };
  }
  let left: { kind: "text"; name: string; text: string } | { kind: "file"; file: string } = {
    kind: "file",
    file: c.file,
  };
  if (index < DIFF_TEXT_CHECKPOINTS) {
    const read = await readCheckpoint(workspace, c.name);
    if (read.ok) {
      const text = stringifyOrNull(read.state, 2); // null: nested too deep; the diff shows the file itself
      if (text !== null && text.length <= DIFF_TEXT_MAX_CHARS) left = { kind: "text", name: `${c.name} (state)`, text };
    }
  }
  return {
    id,
    label: labelText(c.name, 80),
    description: `${labelText(c.type, 30)}${c.trigger ? ` · ${labelText(c.trigger, 40)}` : ""}${c.format === "legacy" ? " · older format" : c.format === "unread" ? " · not read (older)" : ""}`,
    tooltip: escapeMarkdown(`${c.type} checkpoint\n\nTrigger: ${c.trigger ?? "?"}\n\n${c.summary ?? ""}`),
    ...(c.createdAt ? { tooltipTimes: [{ label: "created", time: c.createdAt }] } : {}),
    icon: { id: "save" },
    contextValue: "agloop.checkpoint",
    actions: [recoverAction(c)],
    target: { kind: "diff", title: `${c.name} ↔ state.json`, left, right: { kind: "file", file: STATE_FILE } },
  };
}

/** The whole tree. */
export async function buildAgloopTree(workspace: string, snapshot: AgloopSnapshot): Promise<SourceTreeNode[]> {
  const gate = await approvalGateNode(snapshot);
  const nodes: SourceTreeNode[] = [...unusableStateNodes(snapshot), ...(gate ? [gate] : [])];
  const state = snapshot.stateValue;
  if (state) {
    if (state.stop_hook_active === true) {
      const line = snapshot.state.kind === "ok" ? lineAtPath(snapshot.state.json, ["stop_hook_active"]) : null;
      nodes.push({
        id: "agloop/stop-hook-active",
        label: "stop_hook_active is left on",
        description: "the stop hook blocked a stop",
        tooltip: escapeMarkdown(
          "The stop hook set stop_hook_active and the session did not clear it. The next stop will be allowed (escape hatch); a new session resets it.",
        ),
        icon: { id: "warning", color: "problemsWarningIcon.foreground" },
        target: { kind: "file", file: STATE_FILE, line: line ?? undefined },
      });
    }
    const feature = asString(state.feature_name) ?? "(no feature name)";
    nodes.push({
      id: "agloop/feature",
      label: labelText(feature, 100) || "(no feature name)",
      description: `${labelText(asString(state.complexity_level) ?? "?", 20)} · ${labelText(asString(state.mode) ?? "standard", 20)}`,
      tooltip: escapeMarkdown(`${feature}\n\n${asString(state.feature_description) ?? ""}`),
      icon: { id: "rocket" },
    });
    const iteration = typeof state.iteration === "number" ? state.iteration : "?";
    nodes.push({
      id: "agloop/phase",
      label: `${labelText(asString(state.current_phase) ?? "?", 30)} · iteration ${iteration}/3`,
      icon: { id: "debug-start" },
    });
    if (snapshot.contract) nodes.push(contractTreeNode("agloop/contract", snapshot.contract));
    const current = asString(state.current_task_id) ?? null;
    const tasks = asArray(state.tasks);
    const currentTask = tasks.map(asRecord).find((t) => t?.id === current);
    nodes.push({
      id: "agloop/current-task",
      label: current
        ? labelText(`Current task: ${current} ${asString(currentTask?.title) ?? ""}`, 100)
        : "No current task",
      description: current && !currentTask ? "not in tasks" : undefined,
      icon: current && !currentTask ? { id: "warning", color: "problemsWarningIcon.foreground" } : { id: "target" },
      target: current && currentTask ? { kind: "reveal", nodeId: `agloop/task/${current}` } : undefined,
    });
    const json = snapshot.state.kind === "ok" ? snapshot.state.json : undefined;
    const done = tasks.filter((t) => asRecord(t)?.status === "done").length;
    nodes.push({
      id: "agloop/tasks",
      label: "Tasks",
      description: `${done}/${tasks.length} done`,
      icon: { id: "tasklist" },
      expanded: true,
      children: taskNodes(
        tasks,
        current,
        planEffort(snapshot),
        (i) => (json ? lineAtPath(json, ["tasks", i]) : null),
        asRecord(state.retry_count) ?? {},
      ),
    });
    for (const n of [phaseHistoryNode(state), objectionsNode(state), compactionNode(state)]) if (n) nodes.push(n);
  }
  if (snapshot.plan.kind === "ok") {
    const planId = asString(asRecord(snapshot.plan.value)?.plan_id);
    nodes.push({
      id: "agloop/plan",
      label: "plan.yaml",
      description: planId ? labelText(planId, 40) : undefined,
      icon: { id: "file-code" },
      target: { kind: "file", file: PLAN_FILE },
    });
  }
  const cps = snapshot.checkpoints.checkpoints;
  if (cps.length > 0) {
    const children: SourceTreeNode[] = [];
    for (let i = 0; i < cps.length; i++) children.push(await checkpointNode(workspace, cps[i], i));
    nodes.push({
      id: "agloop/checkpoints",
      label: "Checkpoints",
      description: String(cps.length),
      icon: { id: "history" },
      children,
    });
  }
  return nodes;
}
