/**
 * The run-state parts of the AutoDev tree as {@link SourceTreeNode}s: at the
 * top "AutoDev is running" (while another process holds the lock) and the
 * inline suspension ("Waiting on reviewer for 2.3 (retry 2/3)", the
 * delegation with its content, the response and its state, the last issues)
 * or a stale suspend state; below the plan, what comes next, the plan phase's
 * delegations, delegations of unknown tasks, Tournaments, Knowledge, Config
 * and the spec. Each task's delegations hang under the task (inlineTree.ts).
 */
import type { SourceTreeNode } from "../../stateSource";
import { retryLabel } from "../config/configReader";
import { waitingLabel } from "../inline/inlineState";
import type { RunState } from "../run/runState";
import { SPEC_REL } from "../run/specDrift";
import { AUTODEV_DIR, EVIDENCE_DIR } from "../autodevPaths";
import { summarizeEvidence } from "../evidence/evidenceSummary";
import { configSection } from "./configTree";
import { knowledgeSection } from "./knowledgeTree";
import { tournamentsSection } from "./tournamentsTree";
import { delegationContentNodes, otherStepsNode, planPhaseNode } from "./inlineTree";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

const WARN = { id: "warning", color: "problemsWarningIcon.foreground" };
const ERR = { id: "error", color: "problemsErrorIcon.foreground" };

function staleNode(rs: RunState): SourceTreeNode | null {
  const w = rs.inline.waiting;
  if (!w || rs.history.staleWaiting === null) return null;
  return {
    id: "autodev|staleState",
    label: labelText(`Stale suspend state: ${w.taskId}/${w.role}`),
    description: "not waiting",
    icon: w.response.state === "missing" ? WARN : { id: "info" },
    tooltip: escapeMarkdown(rs.history.staleWaiting),
    target: { kind: "file", file: ".autodev/inline-state.json" },
  };
}

function waitingNode(rs: RunState): SourceTreeNode | null {
  const w = rs.inline.waiting;
  if (!w || rs.history.staleWaiting !== null) return null;
  const base = "autodev|waiting";
  const r = w.response;
  const children: SourceTreeNode[] = [
    {
      id: `${base}|delegation`,
      label: "Delegation",
      description: w.delegationExists ? w.delegationPath : `${w.delegationPath} (missing)`,
      icon: w.delegationExists ? { id: "mail" } : WARN,
      target: w.delegationExists ? { kind: "file", file: w.delegationPath } : undefined,
      tooltip: rs.delegationError ? escapeMarkdown(rs.delegationError) : undefined,
      contextValue: w.delegationExists ? "autodevDelegation.pending" : undefined,
      children: rs.delegation ? delegationContentNodes(`${base}|delegation`, rs.delegation) : undefined,
    },
    r.state === "missing"
      ? {
          id: `${base}|response`,
          label: "Response: not written yet",
          description: w.responsePath,
          icon: { id: "circle-large-outline" },
          tooltip: escapeMarkdown(`The agent must write ${w.responsePath}, then run autodev resume.`),
        }
      : r.state === "unfilled"
        ? {
            id: `${base}|response`,
            label: "Response: not filled in",
            description: `${w.responsePath}:${r.error?.line ?? 1}`,
            icon: { id: "edit", color: "problemsWarningIcon.foreground" },
            tooltip: escapeMarkdown(
              `${w.responsePath} is still the template: replace every <replace: …> placeholder with the answer, then run autodev resume. ${r.error?.message ?? ""}`,
            ),
            target: { kind: "file", file: w.responsePath, line: r.error?.line ?? 1 },
          }
        : r.state === "present"
          ? {
              id: `${base}|response`,
              label: "Response: present",
              description: w.responsePath,
              icon: { id: "check", color: "autodevStatus.complete" },
              target: { kind: "file", file: w.responsePath },
            }
          : {
              id: `${base}|response`,
              label: `Response: invalid (line ${r.error?.line ?? 1})`,
              description: labelText(r.error?.message ?? "", 80),
              icon: ERR,
              tooltip: escapeMarkdown(r.error ? `${r.error.path}: ${r.error.message}` : ""),
              target: { kind: "file", file: w.responsePath, line: r.error?.line ?? 1 },
            },
  ];
  if (w.lastIssues.length) {
    children.push({
      id: `${base}|issues`,
      label: "Last issues",
      description: `${w.lastIssues.length}`,
      icon: { id: "list-unordered" },
      children: w.lastIssues
        .slice(0, 100)
        .map((s, i) => ({ id: `${base}|issue|${i}`, label: labelText(s), tooltip: escapeMarkdown(s) })),
    });
  }
  if (w.pathNote) {
    children.push({
      id: `${base}|paths`,
      label: "Paths in inline-state.json differ",
      icon: WARN,
      tooltip: escapeMarkdown(w.pathNote),
    });
  }
  children.push({
    id: `${base}|state`,
    label: "Suspend state",
    description: `${w.step} · ${labelText(w.sessionId, 40)} · ${labelText(w.suspendedAt, 40)}`,
    icon: { id: "json" },
    target: { kind: "file", file: ".autodev/inline-state.json" },
  });
  const limit = rs.config.qaRetryLimit;
  return {
    id: base,
    label: labelText(waitingLabel(w, w.retryCount > 0 ? limit : null)),
    description:
      r.state === "missing"
        ? "response missing"
        : r.state === "unfilled"
          ? "response not filled in"
          : `response ${r.state}`,
    icon: r.state === "invalid" ? ERR : { id: "debug-pause", color: "charts.yellow" },
    tooltip: escapeMarkdown(
      `AutoDev is suspended in inline mode: ${w.role} must answer task ${w.taskId} (${retryLabel(w.retryCount, limit)}).`,
    ),
    expanded: true,
    children,
    contextValue: "autodevWaiting",
  };
}

/** Nodes shown above the plan: running (while the lock is held) and the inline suspension. */
export function runTopNodes(rs: RunState): SourceTreeNode[] {
  const out: SourceTreeNode[] = [];
  if (rs.running.running) {
    out.push({
      id: "autodev|running",
      label: "AutoDev is running",
      description: labelText(rs.activity ?? "holds .autodev/.lock"),
      icon: { id: "sync~spin", color: "charts.blue" },
      tooltip: escapeMarkdown(rs.running.detail),
    });
  } else if (rs.running.running === null && rs.running.detail !== "not probed") {
    out.push({
      id: "autodev|running",
      label: "Cannot tell whether AutoDev is running",
      description: ".autodev/.lock not probed",
      icon: { id: "question", color: "problemsWarningIcon.foreground" },
      tooltip: escapeMarkdown(rs.running.detail),
    });
  }
  const waiting = waitingNode(rs);
  if (waiting) out.push(waiting);
  const stale = staleNode(rs);
  if (stale) out.push(stale);
  return out;
}

function nextNode(rs: RunState): SourceTreeNode {
  const n = rs.next;
  return {
    id: "autodev|next",
    label: "What comes next",
    description: labelText(`resume: ${n.resume.text}`, 80),
    icon: { id: "debug-step-over" },
    children: [
      {
        id: "autodev|next|resume",
        label: "autodev resume",
        description: labelText(n.resume.text),
        tooltip: escapeMarkdown(n.resume.text),
        target: n.resume.taskId ? { kind: "reveal", nodeId: `autodev|task|${n.resume.taskId}` } : undefined,
      },
      {
        id: "autodev|next|execute",
        label: "autodev execute",
        description: labelText(n.execute.text),
        tooltip: escapeMarkdown(n.execute.text),
        target: n.execute.taskId ? { kind: "reveal", nodeId: `autodev|task|${n.execute.taskId}` } : undefined,
      },
    ],
  };
}

function planEvidenceNode(rs: RunState): SourceTreeNode | null {
  if (rs.planEvidence.length === 0) return null;
  return {
    id: "autodev|planEvidence",
    label: "Plan-phase evidence",
    description: `${rs.planEvidence.length}`,
    icon: { id: "search" },
    children: rs.planEvidence.map((i) => ({
      id: `autodev|planEvidence|${i.file}`,
      label: i.ok
        ? i.kind === "explore"
          ? "Explorer findings"
          : i.kind === "domain_expert"
            ? "Domain expert"
            : labelText(i.kind, 40)
        : labelText(i.file, 80),
      description: i.ok ? labelText(summarizeEvidence(i.evidence), 100) : `invalid: ${labelText(i.error, 80)}`,
      icon: i.ok ? { id: "file-text" } : ERR,
      tooltip:
        i.ok && "findings" in i.evidence && typeof i.evidence.findings === "string"
          ? escapeMarkdown(i.evidence.findings)
          : undefined,
      target: { kind: "file", file: `${AUTODEV_DIR}/${EVIDENCE_DIR}/${i.file}` },
    })),
  };
}

/** Nodes shown below the plan: what comes next, plan-phase evidence, answered delegations, tournaments, knowledge, config, spec. */
export function runBottomNodes(rs: RunState, nowS = Date.now() / 1000): SourceTreeNode[] {
  const out: SourceTreeNode[] = [nextNode(rs)];
  const pe = planEvidenceNode(rs);
  if (pe) out.push(pe);
  if (rs.planStored && rs.history.steps.some((st) => st.taskId === "plan")) out.push(planPhaseNode(rs));
  const other = otherStepsNode(rs.history.steps, new Set((rs.tasks ?? []).map((t) => t.id)));
  if (other) out.push(other);
  const t = tournamentsSection(rs.tournaments, rs.tournamentErrors, rs.running.running === true);
  if (t) out.push(t);
  const k = knowledgeSection(rs.knowledge, nowS);
  if (k) out.push(k);
  const c = configSection(rs.config, rs.inline.waiting);
  if (c) out.push(c);
  const s = rs.spec;
  if (s?.state === "checked") {
    out.push({
      id: "autodev|spec",
      label: s.matches ? "Spec matches the plan" : "Spec drift",
      description: s.matches ? s.specHash : `spec ${s.specHash} ≠ plan ${s.planHash}`,
      icon: s.matches ? { id: "pass" } : WARN,
      tooltip: escapeMarkdown(s.message),
      target: { kind: "file", file: SPEC_REL },
    });
  } else if (s?.state === "error") {
    out.push({ id: "autodev|spec", label: "Spec unreadable", description: labelText(s.error, 80), icon: WARN });
  } else if (s?.state === "no_spec") {
    out.push({
      id: "autodev|spec",
      label: "No spec.md",
      description: "the plan phase writes it",
      icon: { id: "info" },
    });
  }
  return out;
}
