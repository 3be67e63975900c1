/**
 * Our CLI on every snapshot of the real AutoDev run (test/fixtures/autodev-real-run/), compared with what
 * AutoDev itself answered about the same state: `autodev status` (its task table and knowledge line), its
 * ledger, plan, suspend-state, evidence and knowledge readers, and what `autodev resume` / `execute` did on
 * a copy. `check` raises no warning on this state except the hazards AutoDev's own behaviour shows.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  autodevStatusRows,
  cliInEmptyHome,
  materializeRealRun,
  RealRunAnswers,
  realRunAnswers,
  realRunSteps,
} from "../helpers/realRun";

const cli = cliInEmptyHome();

type Move = { action: string; taskId: string | null };

/** What a command did on a copy, from its recorded effects. */
function recordedMove(a: RealRunAnswers, command: string): Move {
  const c = a.on_copy[command];
  const e = c.effects;
  const started = e.ledger_entries_added.find((x) => x.op === "update_task_status" && x.status === "in_progress");
  if (started) return { action: "task", taskId: started.task_id };
  if (e.files_removed.includes(".autodev/inline-state.json")) return { action: "clear_and_stop", taskId: null };
  const before = a.recorded.suspend;
  if (before && e.suspend_after?.pending_task_id === before.pending_task_id) {
    return { action: "wait_for_response", taskId: before.pending_task_id };
  }
  return { action: "nothing", taskId: null };
}

function ourMove(m: { action: string; taskId: string | null }): Move {
  const task = ["start_task", "rerun_task", "collect_response"].includes(m.action);
  return {
    action: task ? "task" : m.action,
    taskId: m.action === "nothing" || m.action === "clear_and_stop" ? null : m.taskId,
  };
}

/** The problem codes this state should raise (and nothing else), from what AutoDev recorded about it. */
function expectedCodes(ws: string, a: RealRunAnswers): Map<string, string[]> {
  const r = a.recorded;
  const tasks = r.replay?.tasks ?? [];
  const want = new Map<string, string[]>();
  const add = (code: string, file: string) => want.set(code, [...(want.get(code) ?? []), file].sort());
  if (r.replay === null && r.config.plan_tournament_enabled && r.config.platform === "inline") {
    add("plan_tournament_inline", ".autodev/config.json");
  }
  if (r.replay !== null && r.suspend?.pending_task_id === "plan") {
    add("inline_state_stale", ".autodev/inline-state.json");
  }
  if (tasks.some((t) => ["tournamented", "complete"].includes(t.status))) {
    add("impl_tournament_inline", ".autodev/config.json");
  }
  // Waiting on the critic: the task's responses AutoDev already read are re-read when it answers.
  const s = r.suspend;
  if (s?.pending_role?.startsWith("critic")) {
    const rdir = path.join(ws, ".autodev/responses");
    for (const role of ["developer", "reviewer"]) {
      if (fs.existsSync(path.join(rdir, `${s.pending_task_id}-${role}.json`))) {
        add("inline_critic_rereads_responses", `.autodev/responses/${s.pending_task_id}-${role}.json`);
      }
    }
  }
  for (const t of tasks) {
    if (t.evidence_bundle && !fs.existsSync(path.join(ws, t.evidence_bundle))) {
      add("evidence_bundle_dangling", ".autodev/plan-ledger.jsonl");
    }
    if (t.status === "blocked") {
      const rdir = path.join(ws, ".autodev/responses");
      for (const f of fs.readdirSync(rdir).filter((n) => n.startsWith(`${t.id}-`))) {
        add("stale_response", `.autodev/responses/${f}`);
      }
    }
  }
  return want;
}

describe("the real AutoDev run: our CLI agrees with AutoDev on every snapshot @slow", function () {
  this.timeout(120_000);

  for (const step of realRunSteps()) {
    it(`${step}: status, waiting, next step, evidence, knowledge, verify and check`, async () => {
      const ws = materializeRealRun(step);
      const a = realRunAnswers(step);
      const r = a.recorded;
      const [st, text, v, c] = await Promise.all([
        cli("status", ws, "--json"),
        cli("status", ws),
        cli("verify", ws, "--json"),
        cli("check", ws, "--json"),
      ]);
      assert.equal(st.code, 0, st.err);
      const s = JSON.parse(st.out);
      const tasks = r.replay?.tasks ?? [];
      assert.deepEqual(
        s.tasks.map((t: Record<string, unknown>) => [t.id, t.status, t.retry_count, t.escalated]),
        tasks.map((t) => [t.id, t.status, t.retry_count, t.escalated]),
        "tasks as replay_ledger() replays them",
      );
      assert.deepEqual(r.load?.tasks ?? [], tasks, "AutoDev's own load() and replay agree");
      for (const t of s.tasks) {
        assert.equal(t.evidence, r.evidence[t.id].count, `task ${t.id}: evidence as list_evidence() counts it`);
        assert.deepEqual(t.evidence_kinds, r.evidence[t.id].kinds);
      }
      assert.equal(s.ledger.entries, r.ledger.count);
      assert.equal(s.ledger.present, r.ledger.count > 0);
      assert.equal(s.phase, r.replay ? "execute" : "plan");
      const { swarm, hive, rejected } = s.knowledge;
      assert.deepEqual({ swarm, hive, rejected }, r.knowledge, "KnowledgeStore's swarm / hive / rejected counts");
      assert.equal(s.knowledge.hive_origin, "default", "the hive is read from AutoDev's default under HOME");

      // Waiting: AutoDev's load_suspend_state() and has_pending_response(); stale once the plan is stored.
      const sus = r.suspend;
      if (sus === null) {
        assert.equal(s.waiting, null);
        assert.equal(s.stale_inline_state, null);
      } else if (sus.pending_task_id === "plan" && r.replay !== null) {
        assert.equal(s.waiting, null, "a plan-phase suspend state beside a stored plan is not a wait");
        assert.match(s.stale_inline_state, /still names plan\/architect, but the plan is stored/);
      } else {
        assert.deepEqual([s.waiting.task_id, s.waiting.role], [sus.pending_task_id, sus.pending_role]);
        assert.equal(s.waiting.response === "present", sus.has_pending_response);
        assert.equal(s.waiting.retry_count, sus.retry_count);
      }

      // Next step: what `autodev resume` (and `execute`, where recorded) did on a copy.
      assert.deepEqual(ourMove(s.next.resume), recordedMove(a, "resume"), `resume: ${s.next.resume.text}`);
      if (a.on_copy.execute) {
        assert.deepEqual(ourMove(s.next.execute), recordedMove(a, "execute"), `execute: ${s.next.execute.text}`);
      }
      assert.equal(s.next.plan === null, r.replay !== null, "a plan-phase next step exactly while no plan is stored");

      // `autodev status` itself: its table rows and its knowledge line.
      assert.equal(text.code, 0, text.err);
      const theirs = autodevStatusRows(a.status.stdout);
      assert.deepEqual(
        s.tasks.map((t: Record<string, unknown>) => ({
          id: t.id,
          status: t.status,
          retries: t.retry_count,
          evidence: t.evidence,
        })),
        theirs,
      );
      const knowledgeLine = a.status.stdout.split("\n").find((l) => l.startsWith("Knowledge:"));
      // AutoDev's line, then which hive file was read (ours adds it: issue 32 item 4).
      const ours = text.out.split("\n").find((l) => l.startsWith("Knowledge:"));
      assert.ok(
        knowledgeLine && (ours === knowledgeLine || ours?.startsWith(`${knowledgeLine} (`)),
        `${knowledgeLine} in\n${text.out}`,
      );
      assert.equal(text.out.startsWith("No plan yet"), a.status.stdout.startsWith("No plan yet"));

      const vj = JSON.parse(v.out);
      if (r.ledger.count === 0) {
        assert.equal(v.code, 5, "no ledger yet: neither ok nor an integrity failure");
        assert.deepEqual([vj.ok, vj.ledger], [null, false]);
      } else {
        assert.equal(v.code, 0, v.err);
        assert.deepEqual([vj.entries, vj.head.self_hash], [r.ledger.count, r.ledger.head_hash]);
      }

      assert.equal(c.code, 0, c.err);
      const problems = (
        JSON.parse(c.out) as { sources: Array<{ kind: string; problems: Array<Record<string, unknown>> }> }
      ).sources[0];
      assert.equal(problems.kind, "autodev", "detected from what AutoDev wrote, ledger or not");
      const got = new Map<string, string[]>();
      for (const p of problems.problems) {
        assert.notEqual(p.severity, "error", String(p.message));
        got.set(String(p.code), [...(got.get(String(p.code)) ?? []), String(p.file)].sort());
      }
      assert.deepEqual(got, expectedCodes(ws, a));
    });
  }
});
