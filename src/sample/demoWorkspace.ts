/**
 * Generates the demo workspace with the project's own core: a realistic
 * `.autodev/` with several phases, tasks in all ten statuses, retries, an
 * escalation, a blocked task with its reason, evidence of every kind with real
 * diffs (the workspace files are the after-state), a plan tournament and three
 * impl tournaments as Python writes them, a spec that matches the plan's
 * `spec_hash`; beside it `.agloop/` and `engine_state/` as their real writers
 * wrote them (copied from dist/demo/, see below). What it deliberately shows is in
 * {@link DEMO_STAGED_PROBLEMS}. `node dist/makeDemo.js DIR` writes it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { PlanManager } from "../core/sources/autodev/ledger/planManager";
import { validatePlan } from "../core/sources/autodev/plan/schemas";
import { writeEvidence, writePatch } from "./demoEvidence";
import { validateEvidence } from "../core/sources/autodev/evidence/evidenceSchemas";
import { PyValue } from "../core/pyjson/pyValue";
import { toPyDeep } from "../core/pyjson/toPyDeep";
import { DEMO_FILES, DEMO_PLAN, DEMO_REVIEW_WAIT, DEMO_SPEC_INTENT, DEMO_STEPS, DemoStep } from "./demoScript";
import { gitStyleDiff } from "./gitStyleDiff";
import { autodevRoot, tournamentsDir } from "../core/sources/autodev/autodevPaths";
import { DEMO_CONFIG } from "./demoConfig";
import { DemoTournamentScript, writeDemoTournament } from "./demoTournaments";
import { IMPL_TOURNAMENTS, PLAN_TOURNAMENT } from "./demoTournamentScripts";
import { writeDemoInline } from "./demoInline";
import { demoLessons, injectLessons, writeDemoKnowledge } from "./demoKnowledge";

// The demo's two other state sources, byte for byte as their real writers wrote them: `.agloop/`
// (the hook scripts of a real agloop install, stopped at the approval gate after the critique:
// test/fixtures/agloop-lifecycle/05-critique-gate) and `engine_state/`
// (AssetOverflow's EngineStateStore: test/fixtures/engine-state-small). The build copies those two
// folders as they are to dist/demo/{agloop,engine_state}/ (esbuild.mjs), which the .vsix ships, so
// "Open Demo Workspace" finds them next to its bundle (test/ never ships); a regenerated fixture
// reaches the demo on the next build, and nothing here rewrites a byte.

/** Where each asset folder goes in the demo workspace, by its name under `dist/demo/`. */
export const DEMO_SOURCE_FOLDERS: Readonly<Record<string, string>> = {
  agloop: ".agloop",
  engine_state: "engine_state",
};

/** The fixture each asset folder is copied from at build time (relative to the repository). */
export const DEMO_SOURCE_FIXTURES: Readonly<Record<string, string>> = {
  agloop: "test/fixtures/agloop-lifecycle/05-critique-gate/.agloop",
  engine_state: "test/fixtures/engine-state-small/engine_state",
};

/**
 * `dist/demo/`: next to the bundle that runs (dist/extension.js, dist/makeDemo.js), or, for the
 * unit tests' unbundled `out/src/sample/`, the repository's dist/. Throws when the build left none.
 */
export function demoAssetsDir(from: string = __dirname): string {
  const candidates = [path.join(from, "demo"), path.join(from, "..", "..", "..", "dist", "demo")];
  const found = candidates.find((c) =>
    [...Object.keys(DEMO_SOURCE_FOLDERS), "autodev-real-run"].every((name) => fs.existsSync(path.join(c, name))),
  );
  if (!found) {
    throw new Error(
      `the demo's .agloop/, engine_state/ and recorded AutoDev files are missing (looked in ${candidates.join(", ")}); run npm run build`,
    );
  }
  return found;
}

/** Copies `src` to `dst` recursively: regular files byte for byte, folders; anything else is refused. */
function copyTree(src: string, dst: string): void {
  fs.mkdirSync(dst, { recursive: true });
  for (const entry of fs.readdirSync(src, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const from = path.join(src, entry.name);
    const to = path.join(dst, entry.name);
    if (entry.isDirectory()) copyTree(from, to);
    else if (entry.isFile()) fs.writeFileSync(to, fs.readFileSync(from), { flag: "wx" });
    else throw new Error(`demo asset ${from} is not a regular file`);
  }
}

/** Writes `.agloop/` and `engine_state/` into `dir` from `assets` (default: {@link demoAssetsDir}); refuses to overwrite. */
export function writeDemoSources(dir: string, assets: string = demoAssetsDir()): void {
  for (const [name, target] of Object.entries(DEMO_SOURCE_FOLDERS)) {
    const dst = path.join(dir, target);
    if (fs.existsSync(dst)) throw new Error(`${dir} already has ${target}/; choose an empty folder`);
    copyTree(path.join(assets, name), dst);
  }
}

/**
 * The problems `autodev-state check` reports on the demo, by source: none. Everything unusual in it
 * is state a real run goes through, not damage: a blocked task (3.3, with its reason), an escalated
 * task after two retries (3.2), a skipped task, a failed developer attempt, a tournament that did
 * not converge (2.1), engine_state's HEAD unknown when the folder is not a git repository.
 */
export const DEMO_STAGED_PROBLEMS: Readonly<Record<"autodev" | "agloop" | "engine_state", readonly string[]>> = {
  autodev: [],
  agloop: [],
  engine_state: [],
};

/** Plays a tournament into `.autodev/tournaments/<id>/`; the ledger payload `*_tournament_complete` gets, and the result. */
function tournament(dir: string, script: DemoTournamentScript) {
  const result = writeDemoTournament(path.join(tournamentsDir(dir), script.id), script);
  // Both runners: tournament_id, passes, winner_last, artifact_dir relative to the workspace.
  const payload = {
    tournament_id: script.id,
    passes: result.history.length,
    winner_last: result.winnerLast,
    artifact_dir: `.autodev/tournaments/${script.id}`,
  };
  return { result, payload };
}

function evidence(raw: Record<string, unknown>) {
  const res = validateEvidence(toPyDeep(raw) as PyValue);
  if (!res.ok) throw new Error(`demo evidence invalid: ${res.error}`);
  return res.value;
}

async function runStep(pm: PlanManager, dir: string, step: DemoStep): Promise<void> {
  switch (step.kind) {
    case "status":
      await pm.updateTaskStatus(
        step.task,
        step.status,
        step.reason ? new Map([["blocked_reason", step.reason]]) : undefined,
      );
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
    case "tournament": {
      // impl_tournament_runner: TournamentEvidence first, then the impl_tournament_complete breadcrumb.
      const { result, payload } = tournament(dir, IMPL_TOURNAMENTS[step.task]);
      const { tournament_id, passes, winner_last } = payload;
      const ev = {
        task_id: step.task,
        kind: "tournament",
        tournament_id,
        phase: "impl",
        passes,
        winner: winner_last,
        converged: result.converged,
        history: result.history,
        final_diff: result.final.diff || null,
      };
      await writeEvidence(dir, step.task, evidence(ev));
      await pm.ledgerAppend(
        "impl_tournament_complete",
        toPyDeep({ ...payload, task_id: step.task }) as Map<string, PyValue>,
      );
      return;
    }
  }
}

/** Writes the demo workspace into `dir` (which must not contain `.autodev/`, `.agloop/` or `engine_state/` yet). */
export async function createDemoWorkspace(dir: string): Promise<void> {
  for (const sub of [autodevRoot(dir), path.join(dir, ".agloop"), path.join(dir, "engine_state")]) {
    if (fs.existsSync(sub)) throw new Error(`${dir} already has ${path.basename(sub)}/; choose an empty folder`);
  }
  const assets = demoAssetsDir(); // before writing anything: a build without dist/demo/ fails here
  for (const [rel, text] of Object.entries(DEMO_FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  fs.mkdirSync(autodevRoot(dir), { recursive: true });
  // run_plan_phase: spec.md is `intent.strip() + "\n"`; the plan's spec_hash is taken over the intent.
  fs.writeFileSync(path.join(autodevRoot(dir), "spec.md"), DEMO_SPEC_INTENT.trim() + "\n");
  fs.writeFileSync(path.join(autodevRoot(dir), "config.json"), JSON.stringify(DEMO_CONFIG, null, 2) + "\n");
  const pm = new PlanManager(dir, { sessionId: "sess-demo-plan" });
  await pm.ledgerAppend(
    "plan_tournament_complete",
    toPyDeep(tournament(dir, PLAN_TOURNAMENT).payload) as Map<string, PyValue>,
  );
  const plan = validatePlan(toPyDeep(DEMO_PLAN) as PyValue);
  if (!plan.ok) throw new Error(`demo plan invalid: ${plan.error}`);
  await pm.initPlan(plan.value);
  const exec = new PlanManager(dir, { sessionId: "sess-demo-exec" });
  for (const step of DEMO_STEPS) await runStep(exec, dir, step);
  // The run is suspended at the reviewer of DEMO_REVIEW_WAIT.task: lessons injected, delegation and
  // inline-state.json written, as `autodev execute` in inline mode leaves it.
  const now = Date.now();
  const lessons = demoLessons(now);
  const injected = injectLessons(
    lessons,
    "reviewer",
    DEMO_CONFIG.knowledge as { max_inject_count: number; denylist_roles: string[] },
    now,
  );
  writeDemoKnowledge(dir, lessons, now);
  const task = DEMO_PLAN.phases.flatMap((p) => p.tasks).find((t) => t.id === DEMO_REVIEW_WAIT.task);
  if (!task) throw new Error(`the demo plan has no task ${DEMO_REVIEW_WAIT.task}`);
  writeDemoInline(dir, assets, "sess-demo-exec", {
    taskId: task.id,
    title: task.title,
    description: task.description,
    files: task.files,
    diff: gitStyleDiff(DEMO_REVIEW_WAIT.changes),
    lessons: injected,
    createdAtMs: now,
  });
  writeDemoSources(dir, assets);
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
