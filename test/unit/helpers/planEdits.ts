/**
 * Edits of a plan for the tests of what is remembered between plans (task nodes, dependency
 * problems): every task a fresh deep copy, as a new snapshot's decoded plan is, with an edit
 * applied where the test asks.
 */
import type { Plan, Task } from "../../../src/core/sources/autodev/plan/schemas";

/** A task whose fields a test may set. */
export type MutableTask = { -readonly [K in keyof Task]: Task[K] };

/** A fresh copy of `plan` with `edit` applied to every task (`i`: its index over the whole plan). */
export function editedPlan(plan: Plan, edit: (t: MutableTask, i: number) => void): Plan {
  let i = 0;
  return {
    ...plan,
    phases: plan.phases.map((p) => ({
      ...p,
      tasks: p.tasks.map((t) => {
        const copy = structuredClone(t) as MutableTask;
        edit(copy, i++);
        return copy as Task;
      }),
    })),
  };
}

/** A fresh copy of `plan` with `edit` applied to the task `id` only. */
export function withTask(plan: Plan, id: string, edit: (t: MutableTask) => void): Plan {
  return editedPlan(plan, (t) => {
    if (t.id === id) edit(t);
  });
}
