/**
 * Whether an agloop run waits on the user. The protocol (seed 003, agloop.agent.md §3 critique) has
 * one such state kept on disk: the approval gate. Once the critic approved the plan
 * (`compaction_context.critique_digest` says APPROVE) the coordinator asks the user before execute and
 * "updates pending_decision … This persists the approval-gate sub-state"; the wait ends when it logs
 * the user's approval in the critique phase (log.json) and moves on. Other `pending_decision` texts
 * say what the coordinator will do next ("On COMPLETE store the result…"), not that it waits on
 * someone, and the phase contract's `reentry_unclear` covers a gate whose question was lost.
 */
import type { SourceLocation, SourceTreeNode, SourceWaiting } from "../stateSource";
import { STATE_FILE } from "./agloopFiles";
import type { AgloopSnapshot } from "./agloopSnapshot";
import { asRecord, asString } from "./agloopText";
import { lineAtPath } from "./jsonPositions";
import { type LogRead, readLogFile } from "./log/logFile";
import { readStateFile } from "./checks/stateChecks";
import { APPROVAL, approvalIn, criticVerdict } from "./contract/agloopRequirements";
import { escapeMarkdown } from "../../text/markdownText";
import { labelText } from "../../text/untrustedText";

/**
 * The approval question the run stops on — the critic approved in critique and `pending_decision`
 * asks for the user's approval — or null. `approved` tells whether log.json records the answer; it
 * is asked only when the state is at the gate (log.json can be hundreds of MB).
 */
export async function pendingApproval(
  state: Record<string, unknown>,
  approved: () => Promise<boolean> | boolean,
): Promise<string | null> {
  if (asString(state.current_phase) !== "critique" || criticVerdict(state) !== "APPROVE") return null;
  const pending = asString(asRecord(state.compaction_context)?.pending_decision) ?? "";
  if (!APPROVAL.test(pending)) return null;
  return (await approved()) ? null : pending;
}

/** The approval gate of `log`: whether the user's approval of the critique phase is logged. */
export function critiqueApproved(log: LogRead): boolean {
  return approvalIn(log, "critique") !== null;
}

/** Whom the agloop run in `location` waits on: the user at the approval gate, or null. Never throws. */
export async function agloopWaiting(location: SourceLocation): Promise<SourceWaiting | null> {
  const read = await readStateFile(location.workspace);
  if (read.kind !== "ok") return null;
  const state = asRecord(read.json.value);
  if (!state) return null;
  const question = await pendingApproval(state, async () => critiqueApproved(await readLogFile(location.workspace)));
  if (question === null) return null;
  return {
    who: "you",
    what: `Waiting for your approval: ${labelText(question, 120)}`,
    files: [STATE_FILE],
  };
}

/** The same from one read of the folder (the editor's refresh: state.json read once for everything). */
export async function agloopWaitingOf(snapshot: AgloopSnapshot): Promise<SourceWaiting | null> {
  const state = snapshot.stateValue;
  if (!state) return null;
  const question = await pendingApproval(state, () => critiqueApproved(snapshot.log));
  if (question === null) return null;
  return {
    who: "you",
    what: `Waiting for your approval: ${labelText(question, 120)}`,
    files: [STATE_FILE],
  };
}

/** The tree's first node while the run waits at the approval gate (the question, at its line), or null. */
export async function approvalGateNode(snapshot: AgloopSnapshot): Promise<SourceTreeNode | null> {
  const state = snapshot.stateValue;
  if (!state) return null;
  const question = await pendingApproval(state, () => critiqueApproved(snapshot.log));
  if (question === null) return null;
  const json = snapshot.state.kind === "ok" ? snapshot.state.json : null;
  const line = json ? lineAtPath(json, ["compaction_context", "pending_decision"]) : null;
  return {
    id: "agloop/waiting",
    label: "Waiting for your approval",
    description: labelText(question, 80),
    tooltip: escapeMarkdown(
      `The critic approved the plan; the coordinator asks you before execute (compaction_context.pending_decision):\n\n${question}`,
    ),
    icon: { id: "debug-pause", color: "charts.yellow" },
    target: { kind: "file", file: STATE_FILE, line: line ?? undefined },
  };
}
