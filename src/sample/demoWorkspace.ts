/**
 * Generates the demo workspace with the project's own core: a realistic
 * `.autodev/` with several phases, tasks in all ten statuses, retries, an
 * escalation, a blocked task with its reason, evidence of every kind with real
 * diffs (the workspace files are the after-state), tournament audit entries and
 * a tournament folder. `node dist/makeDemo.js DIR` writes it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PlanManager } from "../core/plan/planManager";
import { validatePlan } from "../core/plan/schemas";
import { writeEvidence, writePatch } from "../core/evidence/evidenceStore";
import { validateEvidence } from "../core/evidence/evidenceSchemas";
import { PyValue } from "../core/pyjson/pyValue";
import { toPyDeep } from "./toPyDeep";
import { DEMO_FILES, DEMO_PLAN, DEMO_STEPS, DemoStep } from "./demoScript";
import { gitStyleDiff } from "./gitStyleDiff";
import { autodevRoot, tournamentsDir } from "../core/sources/autodev/paths";
import { DEMO_CONFIG } from "./demoConfig";

function evidence(raw: Record<string, unknown>) {
  const res = validateEvidence(toPyDeep(raw) as PyValue);
  if (!res.ok) throw new Error(`demo evidence invalid: ${res.error}`);
  return res.value;
}

async function runStep(pm: PlanManager, dir: string, step: DemoStep): Promise<void> {
  switch (step.kind) {
    case "status":
      await pm.updateTaskStatus(step.task, step.status, step.reason ? new Map([["blocked_reason", step.reason]]) : undefined);
      return;
    case "retry":
      await pm.markTaskRetry(step.task);
      return;
    case "escalate":
      await pm.markEscalated(step.task);
      return;
    case "audit":
      await pm.ledgerAppend(step.op, toPyDeep(step.payload) as Map<string, PyValue>);
      return;
    case "evidence":
      await writeEvidence(dir, step.task, evidence({ task_id: step.task, ...step.bundle }));
      return;
    case "patch": {
      const diff = gitStyleDiff(step.changes);
      await writePatch(dir, step.task, diff);
      return;
    }
  }
}

/** Writes the demo workspace into `dir` (which must not contain `.autodev/` yet). */
export async function createDemoWorkspace(dir: string): Promise<void> {
  if (fs.existsSync(autodevRoot(dir))) throw new Error(`${dir} already has .autodev/; choose an empty folder`);
  for (const [rel, text] of Object.entries(DEMO_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.mkdirSync(autodevRoot(dir), { recursive: true });
  fs.writeFileSync(path.join(autodevRoot(dir), "spec.md"), "# Spec: units converter CLI\n\nA small CLI that converts lengths and temperatures, with a config file and docs.\n");
  fs.writeFileSync(path.join(autodevRoot(dir), "config.json"), JSON.stringify(DEMO_CONFIG, null, 2) + "\n");
  const pm = new PlanManager(dir, { sessionId: "sess-demo-plan" });
  await pm.ledgerAppend("plan_tournament_complete", toPyDeep({ tournament_id: "plan-1", passes: 2, winner: "B", converged: true }) as Map<string, PyValue>);
  const plan = validatePlan(toPyDeep(DEMO_PLAN) as PyValue);
  if (!plan.ok) throw new Error(`demo plan invalid: ${plan.error}`);
  await pm.initPlan(plan.value);
  const exec = new PlanManager(dir, { sessionId: "sess-demo-exec" });
  for (const step of DEMO_STEPS) await runStep(exec, dir, step);
  const tdir = path.join(tournamentsDir(dir), "impl-1.2");
  fs.mkdirSync(path.join(tdir, "pass_01"), { recursive: true });
  fs.mkdirSync(path.join(tdir, "pass_02"), { recursive: true });
  fs.writeFileSync(path.join(tdir, "history.json"), JSON.stringify([{ pass: 1, winner: "A", scores: { A: 0.58, B: 0.42 } }, { pass: 2, winner: "AB", scores: { A: 0.47, AB: 0.53 } }], null, 2) + "\n");
  fs.writeFileSync(path.join(tdir, "pass_01", "result.json"), JSON.stringify({ winner: "A", judges: [{ judge: "j1", A: 7, B: 5 }, { judge: "j2", A: 6, B: 6 }] }, null, 2) + "\n");
  fs.writeFileSync(path.join(tdir, "pass_02", "result.json"), JSON.stringify({ winner: "AB", judges: [{ judge: "j1", A: 6, AB: 8 }, { judge: "j2", A: 7, AB: 7 }] }, null, 2) + "\n");
}

if (require.main === module) {
  const target = process.argv[2];
  if (!target) {
    console.error("usage: node dist/makeDemo.js DIR");
    process.exit(2);
  }
  fs.mkdirSync(target, { recursive: true });
  createDemoWorkspace(target).then(
    () => console.log(`demo workspace written to ${target}`),
    (e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    },
  );
}
