/**
 * A plain {@link SourceTreeNode} tree of an AutoDev plan (phases → tasks →
 * criteria, dependencies, files) for hosts without the extension's richer
 * AutoDev adapter (time travel, evidence).
 */
import { Plan, Task } from "./plan/schemas";
import { SourceTreeNode } from "../stateSource";
import { isDoneStatus, taskStatusIcon, taskStatusLabel } from "../taskStatusIcons";

/** Extra children a host hangs under a task (its inline delegations). */
export type TaskExtras = (taskId: string) => readonly SourceTreeNode[];

function taskNode(task: Task, known: ReadonlySet<string>, extras: TaskExtras): SourceTreeNode {
  const id = `autodev|task|${task.id}`;
  const status = String(task.status);
  const children: SourceTreeNode[] = [
    ...task.acceptance.map((c, i) => ({
      id: `${id}|ac|${i}`,
      label: c.description || c.id,
      description: c.met ? "met" : "not met",
      icon: c.met ? { id: "check", color: "testing.iconPassed" } : { id: "circle-large-outline" },
    })),
    ...task.depends_on.map((dep) => ({
      id: `${id}|dep|${dep}`,
      label: `depends on ${dep}`,
      description: known.has(dep) ? undefined : "not in the plan",
      icon: known.has(dep) ? { id: "link" } : { id: "warning", color: "problemsWarningIcon.foreground" },
      target: known.has(dep) ? { kind: "reveal" as const, nodeId: `autodev|task|${dep}` } : undefined,
    })),
    ...task.files.map((f) => ({
      id: `${id}|file|${f}`,
      label: f,
      icon: { id: "file" },
      target: { kind: "file" as const, file: f },
    })),
    ...extras(task.id),
  ];
  return {
    id,
    label: `${task.id} ${task.title}`,
    description: taskStatusLabel(status),
    icon: taskStatusIcon(status),
    children,
    contextValue: `autodevTask.${status}`,
  };
}

/** The tree of `plan` (an info leaf when there is none); `planFile` is what a phase click opens. */
export function autodevTree(plan: Plan | null, planFile: string, extras: TaskExtras = () => []): SourceTreeNode[] {
  if (!plan) return [{ id: "autodev|empty", label: "No plan yet: the ledger is empty", icon: { id: "info" } }];
  const known = new Set(plan.phases.flatMap((p) => p.tasks.map((t) => t.id)));
  return plan.phases.map((phase) => {
    const done = phase.tasks.filter((t) => isDoneStatus(String(t.status))).length;
    return {
      id: `autodev|phase|${phase.id}`,
      label: `Phase ${phase.id}: ${phase.title}`,
      description: `${done}/${phase.tasks.length}`,
      icon: { id: done === phase.tasks.length && phase.tasks.length > 0 ? "pass" : "folder-library" },
      expanded: true,
      target: { kind: "file", file: planFile },
      children: phase.tasks.map((t) => taskNode(t, known, extras)),
    };
  });
}
