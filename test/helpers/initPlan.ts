/**
 * A workspace whose ledger `autodev-state init` wrote from python-small's plan.json (as Python
 * AutoDev wrote it) with an edit applied — a hostile title, a cycle, a dangling dependency, a
 * duplicate id — as a user would hand such a plan to `init`. For the CLI tests that need one.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { copyFixture } from "../unit/fixtures";

/** The parts of a plan.json the tests edit. */
export interface PlanShape {
  phases: { id: string; title: string; tasks: { id: string; title: string; depends_on: string[] }[] }[];
  metadata: Record<string, unknown>;
}

/** How a test runs the CLI: the exit code and stderr. */
export type RunCli = (...args: string[]) => { code: number; err: string };

/** A copy of python-small whose ledger `init` (run by `cli`) wrote from its plan with `edit` applied. */
export function initWith(cli: RunCli, edit: (plan: PlanShape) => void): string {
  const dir = copyFixture("python-small");
  const plan = JSON.parse(fs.readFileSync(path.join(dir, ".autodev/plan.json"), "utf8")) as PlanShape;
  edit(plan);
  fs.rmSync(path.join(dir, ".autodev"), { recursive: true });
  const file = path.join(dir, "plan-in.json");
  fs.writeFileSync(file, JSON.stringify(plan));
  const r = cli("init", dir, "--plan", file);
  assert.equal(r.code, 0, r.err);
  return dir;
}

/** The task `id` of `plan` (it must be there). */
export function planTask(plan: PlanShape, id: string): PlanShape["phases"][number]["tasks"][number] {
  return plan.phases.flatMap((p) => p.tasks).find((t) => t.id === id)!;
}
