/**
 * A plan at a glance, as the tree's root and phases and the status bar count it (its title, how
 * many of its tasks are done), and the ids of the tree's nodes the editor refers to. Small on
 * purpose: the extension host imports it, not the tree's composition.
 */
import { isDoneStatus } from "../../taskStatusIcons";
import type { Plan } from "../plan/schemas";

/** The title a plan goes by: its metadata title, else its id. */
export function planTitle(plan: Plan): string {
  const t = plan.metadata.get("title");
  return typeof t === "string" && t.trim() ? t : plan.plan_id;
}

/** Done and total tasks of a plan (complete and skipped count as done). */
export function planProgress(plan: Plan): { done: number; total: number } {
  const tasks = plan.phases.flatMap((p) => p.tasks);
  return { done: tasks.filter((t) => isDoneStatus(String(t.status))).length, total: tasks.length };
}

/** Stable id of a task's node within AutoDev's tree (dependency links and `reveal` use it). */
export function taskNodeKey(taskId: string): string {
  return `autodev|task|${taskId}`;
}

/** Stable id of a phase's node within AutoDev's tree. */
export function phaseNodeKey(phaseId: string): string {
  return `autodev|phase|${phaseId}`;
}

/** The id of the plan-phase evidence node (the editor shows its own evidence group there). */
export const PLAN_EVIDENCE_NODE = "autodev|planEvidence";
