/**
 * The plan's dependency problems are remembered by the plan's dependency shape (task ids in order
 * and their `depends_on`): the remembered answer must be the analysis's own after every edit, the
 * ones that change the shape and the ones that do not.
 */
import { strict as assert } from "node:assert";
import { benchPlan } from "../../../bench/benchPlan";
import { SeededRandom } from "../../../src/core/seededRandom";
import { dependencyProblemsOf, planDependencyProblems } from "../../../src/core/sources/autodev/autodevGraph";
import type { Plan } from "../../../src/core/sources/autodev/plan/schemas";
import { editedPlan } from "../helpers/planEdits";

describe("plan dependency problems: remembered by the plan's dependency shape", () => {
  const plan0 = benchPlan(new SeededRandom(11), { phases: 3, tasksPerPhase: 6, descriptionWords: 4 });
  const ids = plan0.phases.flatMap((p) => p.tasks.map((t) => t.id));
  const same = (plan: Plan, what: string) => {
    const got = planDependencyProblems(plan);
    assert.deepStrictEqual(got, dependencyProblemsOf(plan), what);
    return got;
  };

  it("gives the analysis's answer for each edit, shape kept or changed", () => {
    const faulty = editedPlan(plan0, (t, i) => {
      if (i === 0) t.depends_on = [t.id]; // on itself
      if (i === 1) t.depends_on = ["no-such-task"];
      if (i === 2) t.depends_on = [ids[3]];
      if (i === 3) t.depends_on = [ids[2]]; // a cycle of two
      if (i === 5) t.id = ids[4]; // a duplicate id
    });
    const base = same(faulty, "a plan with every kind of fault");
    assert.deepEqual([...new Set(base.map((p) => p.code))].sort(), [
      "dependency_cycle",
      "duplicate_task_id",
      "unknown_dependency",
    ]);
    same(
      editedPlan(faulty, (t) => ((t.status = "complete"), (t.title = `${t.title}!`))),
      "statuses and titles changed",
    );
    same(
      editedPlan(faulty, (t, i) => i === 3 && (t.depends_on = [])),
      "the cycle broken",
    );
    same(
      editedPlan(faulty, (t, i) => i === 1 && (t.depends_on = [ids[0]])),
      "the dangling edge fixed",
    );
    same(
      editedPlan(faulty, (t, i) => i === 5 && (t.id = "unique")),
      "the duplicate renamed",
    );
    same(
      editedPlan(faulty, (t, i) => i === 7 && (t.depends_on = [ids[9], ids[9]])),
      "a repeated edge",
    );
    same({ ...faulty, phases: [...faulty.phases].reverse() }, "the phases reordered");
    same(plan0, "the plan before");
    same(faulty, "the faulty plan again");
  });

  it("hands out copies: changing an answer does not change the next one", () => {
    const faulty = editedPlan(plan0, (t, i) => i === 0 && (t.depends_on = ["missing"]));
    const first = planDependencyProblems(faulty);
    (first[0] as { message: string }).message = "changed";
    first.length = 0;
    same(faulty, "after the caller changed its copy");
  });
});
