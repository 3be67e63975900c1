/**
 * The Knowledge section, read-only: swarm lessons and the hive ranked as
 * AutoDev ranks them (role, confidence, confirmations, applied count, age),
 * and rejected lessons with their reasons.
 */
import type { SourceTreeNode } from "../../stateSource";
import { AUTODEV_DIR, KNOWLEDGE_FILE, REJECTED_LESSONS_FILE } from "../autodevPaths";
import { KnowledgeEntry, KnowledgeReport, hiveIgnoredNote, hiveSaid } from "../knowledge/knowledgeReader";
import { pyIsoTimestamp } from "../knowledge/pyIsoTime";
import { ageLabel } from "./treeText";
import { escapeMarkdown } from "../../../text/markdownText";
import { labelText } from "../../../text/untrustedText";

function lessonNode(base: string, e: KnowledgeEntry, file: string | null, nowS: number): SourceTreeNode {
  const age = ageLabel(pyIsoTimestamp(e.timestamp), nowS);
  return {
    id: `${base}|${e.id}|${e.line}`,
    label: labelText(e.text, 100),
    description: [
      labelText(e.role_source, 30),
      `conf ${e.confidence.toFixed(2)}`,
      `×${e.confirmations}`,
      `applied ${e.applied_count}`,
      age,
    ]
      .filter(Boolean)
      .join(" · "),
    icon: { id: "lightbulb" },
    tooltip: escapeMarkdown(
      `${e.text}\n\nrank ${e.rank.toFixed(3)} (confidence × recency × (1 + ln(applied + 1)))\nid ${e.id}`,
    ),
    tooltipTimes: [{ label: "learned", time: e.timestamp }],
    target: file ? { kind: "file", file, line: e.line } : undefined,
  };
}

/** `nodes` and, when the file holds more than were kept, a last node saying how many are not listed. */
function withMore(base: string, nodes: SourceTreeNode[], count: number, which: string): SourceTreeNode[] {
  if (count <= nodes.length) return nodes;
  const more = count - nodes.length;
  return [
    ...nodes,
    {
      id: `${base}|more`,
      label: `and ${more} more not listed`,
      description: `the ${which} ${nodes.length} are`,
      icon: { id: "ellipsis" },
    },
  ];
}

/** The "Knowledge" section (null when there is nothing at all). */
export function knowledgeSection(k: KnowledgeReport, nowS: number): SourceTreeNode | null {
  if (k.swarmCount + k.hiveCount + k.rejectedCount + k.errors.length + k.skipped.length === 0) return null;
  const swarmFile = `${AUTODEV_DIR}/${KNOWLEDGE_FILE}`;
  const children: SourceTreeNode[] = [
    {
      id: "autodev|knowledge|swarm",
      label: "Project lessons",
      description: `${k.swarmCount} · knowledge.jsonl`,
      icon: { id: "book" },
      children: withMore(
        "autodev|knowledge|swarm",
        k.swarm.map((e) => lessonNode("autodev|knowledge|swarm", e, swarmFile, nowS)),
        k.swarmCount,
        "highest-ranked",
      ),
    },
    {
      id: "autodev|knowledge|hive",
      label: "Hive lessons",
      description: k.hiveEnabled ? `${k.hiveCount} · ${labelText(k.hivePath, 60)}` : "disabled in config.json",
      tooltip: [hiveSaid(k), k.hiveIgnored === null ? "" : hiveIgnoredNote(k.hiveIgnored)].filter(Boolean).join("\n"),
      icon: { id: "globe" },
      children: withMore(
        "autodev|knowledge|hive",
        k.hive.map((e) => lessonNode("autodev|knowledge|hive", e, null, nowS)),
        k.hiveCount,
        "highest-ranked",
      ),
    },
  ];
  if (k.rejectedCount) {
    children.push({
      id: "autodev|knowledge|rejected",
      label: "Rejected lessons",
      description: `${k.rejectedCount}`,
      icon: { id: "circle-slash" },
      children: withMore(
        "autodev|knowledge|rejected",
        k.rejected.map((r) => ({
          id: `autodev|knowledge|rejected|${r.id}|${r.line}`,
          label: labelText(r.text, 100),
          description: labelText(r.reason, 80),
          tooltip: escapeMarkdown(`${r.text}\n\nRejected: ${r.reason}`),
          tooltipTimes: [{ label: "rejected", time: r.rejected_at }],
          target: { kind: "file", file: `${AUTODEV_DIR}/${REJECTED_LESSONS_FILE}`, line: r.line },
        })),
        k.rejectedCount,
        "newest",
      ),
    });
  }
  for (const e of k.errors) {
    children.push({
      id: `autodev|knowledge|error|${children.length}`,
      label: labelText(e),
      icon: { id: "warning", color: "problemsWarningIcon.foreground" },
    });
  }
  if (k.skipped.length) {
    const count = k.skipped.reduce((n, s) => n + (s.more ?? 1), 0);
    children.push({
      id: "autodev|knowledge|skipped",
      label: `${count} line${count === 1 ? "" : "s"} skipped`,
      icon: { id: "warning", color: "problemsWarningIcon.foreground" },
      tooltip: escapeMarkdown(
        k.skipped
          .slice(0, 50)
          .map((s) => `${s.file}:${s.line}: ${s.reason}`)
          .join("\n"),
      ),
    });
  }
  return {
    id: "autodev|knowledge",
    label: "Knowledge",
    description: `${k.swarmCount} project · ${k.hiveCount} hive · ${k.rejectedCount} rejected`,
    icon: { id: "lightbulb" },
    children,
  };
}
