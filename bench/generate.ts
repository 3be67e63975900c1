/**
 * Deterministic generators of realistic AutoDev ledgers for the benchmark.
 *
 * Every line is produced by the core's own writer (`buildEntry`, the function
 * `appendEntry` uses), so the file is byte-identical to what appending entry
 * after entry would give — but written sequentially into one stream, because
 * appending through the atomic full-file copy is O(N²) on a 500 MB ledger.
 * A fixed clock and a seeded PRNG make every run produce the same bytes.
 *
 * The big ledgers follow PlanManager's commit path: every status change is an
 * `update_task_status` audit entry followed by a `snapshot` of the whole plan
 * (500 tasks in 20 phases), with retries, an escalation, blocked and skipped
 * tasks, evidence and tournament audit entries in between.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LastHead, buildEntry, isoNow } from "../src/core/sources/autodev/ledger/ledgerWriter";
import { Plan, planToPy, validatePlan } from "../src/core/sources/autodev/plan/schemas";
import { PyObject, PyValue, PyFloat } from "../src/core/pyjson/pyValue";
import { SeededRandom } from "../src/sample/seededRandom";

const WORDS = [
  "parser",
  "ledger",
  "snapshot",
  "config",
  "loader",
  "cache",
  "index",
  "timeline",
  "renderer",
  "schema",
  "validator",
  "retry",
  "budget",
  "guardrail",
  "adapter",
  "session",
  "worker",
  "queue",
  "report",
  "diff",
  "evidence",
  "reviewer",
  "tournament",
  "judge",
  "planner",
  "executor",
  "lock",
  "writer",
  "reader",
  "metrics",
];
const VERBS = ["Add", "Refactor", "Harden", "Document", "Test", "Wire up", "Split", "Speed up", "Validate", "Migrate"];
const SPICE = ["", "", "", "", " — follow-up", " (naïve version first)", " für Übersetzungen", " 日本語"];

function sentence(r: SeededRandom, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(r.pick(WORDS));
  const s = out.join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1) + ".";
}

/** The 500-task, 20-phase plan every big ledger starts from (all tasks pending). */
export function benchPlan(r: SeededRandom, phases = 20, tasksPerPhase = 25): Plan {
  const phaseList: PyValue[] = [];
  for (let p = 1; p <= phases; p++) {
    const tasks: PyValue[] = [];
    for (let t = 1; t <= tasksPerPhase; t++) {
      const id = `${p}.${t}`;
      const deps: PyValue[] = t > 1 ? [`${p}.${t - 1}`] : p > 1 ? [`${p - 1}.${tasksPerPhase}`] : [];
      if (r.chance(0.3) && t > 2) deps.push(`${p}.${1 + r.below(t - 1)}`);
      const acceptance: PyValue[] = [];
      const nAcc = 1 + r.below(3);
      for (let a = 0; a < nAcc; a++) {
        acceptance.push(
          new Map<string, PyValue>([
            ["id", `${id}-${String.fromCharCode(97 + a)}`],
            ["description", sentence(r, 6 + r.below(6))],
            ["met", false],
          ]),
        );
      }
      const metadata: PyObject = new Map<string, PyValue>([["priority", r.pick(["low", "medium", "high"])]]);
      if (r.chance(0.5)) {
        metadata.set("estimate_h", r.chance(0.5) ? 1 + r.below(8) : new PyFloat((1 + r.below(16)) / 4));
      }
      if (r.chance(0.1)) metadata.set("labels", [r.pick(WORDS), r.pick(WORDS)]);
      tasks.push(
        new Map<string, PyValue>([
          ["id", id],
          ["phase_id", String(p)],
          ["title", `${r.pick(VERBS)} the ${r.pick(WORDS)} ${r.pick(WORDS)}${r.pick(SPICE)}`],
          ["description", sentence(r, 14 + r.below(16))],
          ["status", "pending"],
          ["files", [`src/${r.pick(WORDS)}/${r.pick(WORDS)}.py`, `tests/test_${r.pick(WORDS)}.py`]],
          ["acceptance", acceptance],
          ["depends_on", deps],
          ["retry_count", 0],
          ["escalated", false],
          ["assigned_agent", r.chance(0.6) ? "developer" : null],
          ["evidence_bundle", null],
          ["blocked_reason", null],
          ["metadata", metadata],
        ]),
      );
    }
    phaseList.push(
      new Map<string, PyValue>([
        ["id", String(p)],
        ["title", `Phase ${p}: ${r.pick(WORDS)} work`],
        ["description", sentence(r, 8)],
        ["tasks", tasks],
      ]),
    );
  }
  const raw = new Map<string, PyValue>([
    ["plan_id", "plan-bench-500"],
    ["spec_hash", "5be7c0ffee15900d"],
    ["phases", phaseList],
    [
      "metadata",
      new Map<string, PyValue>([
        ["title", "Benchmark project"],
        ["owner", "bench"],
        ["platform", "claude_code"],
      ]),
    ],
    ["created_at", "2026-01-01T00:00:00+00:00"],
    ["updated_at", "2026-01-01T00:00:00+00:00"],
    ["content_hash", ""],
  ]);
  const res = validatePlan(raw);
  if (!res.ok) throw new Error(`bench plan invalid: ${res.error}`);
  return res.value;
}

/** Writes entries with `buildEntry` into a file, sequentially, with a fixed clock. */
class SequentialLedger {
  private head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  private clockMs = Date.UTC(2026, 0, 1, 9, 0, 0);
  private pending: string[] = [];
  private pendingBytes = 0;
  bytes = 0;
  entries = 0;

  constructor(private readonly fd: number) {}

  /** Advances the fixed clock and returns its ISO text (microseconds vary deterministically). */
  tick(r: SeededRandom): string {
    this.clockMs += 1000 + r.below(60_000) + r.below(1000) / 1000;
    return isoNow(this.clockMs);
  }

  append(op: string, payload: PyObject, session: string, timestamp: string): void {
    const { entry, line } = buildEntry(this.head, op, payload, session, timestamp);
    this.head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    this.pending.push(line);
    this.pendingBytes += line.length; // ASCII (ensure_ascii)
    this.bytes += line.length;
    this.entries++;
    if (this.pendingBytes > 4 << 20) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    fs.writeSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

type MutableTask = Record<string, unknown>;

/**
 * A ledger of about `targetBytes`: init, then tasks in order moving through
 * their statuses, each move an `update_task_status` entry plus a snapshot.
 */
export function generateBigLedger(
  file: string,
  targetBytes: number,
  seed = 0xbe7c4,
): { bytes: number; entries: number } {
  const r = new SeededRandom(seed);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.partial`;
  const fd = fs.openSync(tmp, "w");
  try {
    const w = new SequentialLedger(fd);
    const plan = benchPlan(r);
    const tasks = plan.phases.flatMap((p) => p.tasks) as unknown as MutableTask[];
    const planSession = "sess-bench-plan";
    const execSession = "sess-bench-exec";
    w.append(
      "plan_tournament_complete",
      new Map<string, PyValue>([
        ["converged", true],
        ["passes", 2],
        ["tournament_id", "plan-1"],
        ["winner", "B"],
      ]),
      planSession,
      w.tick(r),
    );
    let now = w.tick(r);
    let current: Plan = { ...plan, updated_at: now };
    w.append("init_plan", new Map([["plan", planToPy(current)]]), planSession, now);
    w.append("snapshot", new Map([["plan", planToPy(current)]]), planSession, now);

    /** PlanManager.updateTaskStatus / markTaskRetry / markEscalated: audit entry, then snapshot. */
    const commit = (task: MutableTask, status: string, meta: [string, PyValue][] = []): void => {
      const payload: PyObject = new Map<string, PyValue>([
        ["task_id", task.id as string],
        ["status", status],
      ]);
      for (const [k, v] of meta) payload.set(k, v);
      task.status = status;
      for (const [k, v] of meta) task[k] = v;
      now = w.tick(r);
      w.append("update_task_status", payload, execSession, now);
      current = { ...current, updated_at: now };
      w.append("snapshot", new Map([["plan", planToPy(current)]]), execSession, now);
    };
    const audit = (op: string, payload: [string, PyValue][]): void =>
      w.append(op, new Map(payload), execSession, w.tick(r));

    let i = 0;
    while (w.bytes < targetBytes) {
      const task = tasks[i % tasks.length];
      const id = task.id as string;
      i++;
      if (i > tasks.length) break; // every task done; the ledger is as big as it gets
      if (r.chance(0.02)) {
        commit(task, "skipped");
        continue;
      }
      commit(task, "in_progress");
      if (r.chance(0.04)) {
        commit(task, "blocked", [
          ["blocked_reason", `Needs a decision on the ${r.pick(WORDS)} format; asked the user.`],
        ]);
        commit(task, "in_progress", [["blocked_reason", null]]);
      }
      commit(task, "coded");
      audit("append_evidence", [
        ["path", `.autodev/evidence/${id}-developer.json`],
        ["task_id", id],
      ]);
      if (r.chance(0.2)) {
        commit(task, "in_progress");
        commit(task, "in_progress", [["retry_count", (task.retry_count as number) + 1]]);
        if (r.chance(0.2)) commit(task, "in_progress", [["escalated", true]]);
        commit(task, "coded");
      }
      commit(task, "auto_gated");
      commit(task, "reviewed", [["evidence_bundle", `.autodev/evidence/${id}-review.json`]]);
      commit(task, "tested");
      audit("impl_tournament_complete", [
        ["converged", r.chance(0.8)],
        ["passes", 1 + r.below(4)],
        ["task_id", id],
        ["tournament_id", `impl-${id}`],
        ["winner", r.pick(["A", "B", "AB"])],
      ]);
      commit(task, "tournamented");
      commit(task, "complete", [["evidence_bundle", `.autodev/evidence/${id}-tournament.json`]]);
    }
    w.flush();
    fs.closeSync(fd);
    fs.renameSync(tmp, file);
    return { bytes: w.bytes, entries: w.entries };
  } catch (e) {
    try {
      fs.closeSync(fd);
    } catch {
      /* already closed */
    }
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * A ledger of `count` small entries (the timeline index benchmark): one
 * init_plan + snapshot of the 500-task plan, then status changes that cycle
 * tasks between in_progress and coded, evidence and tournament audit entries.
 */
export function generateSmallEntriesLedger(
  file: string,
  count: number,
  seed = 0x5a11,
): { bytes: number; entries: number } {
  const r = new SeededRandom(seed);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.partial`;
  const fd = fs.openSync(tmp, "w");
  const w = new SequentialLedger(fd);
  const plan = benchPlan(r);
  const ids = plan.phases.flatMap((p) => p.tasks.map((t) => t.id));
  const state = new Map(ids.map((id) => [id, "pending"]));
  const session = "sess-bench-timeline";
  const now = w.tick(r);
  w.append("init_plan", new Map([["plan", planToPy({ ...plan, updated_at: now })]]), session, now);
  w.append("snapshot", new Map([["plan", planToPy({ ...plan, updated_at: now })]]), session, now);
  while (w.entries < count) {
    const id = ids[r.below(ids.length)];
    const roll = r.below(10);
    if (roll < 7) {
      const next = state.get(id) === "in_progress" ? "coded" : "in_progress";
      state.set(id, next);
      w.append(
        "update_task_status",
        new Map<string, PyValue>([
          ["status", next],
          ["task_id", id],
        ]),
        session,
        w.tick(r),
      );
    } else if (roll < 9) {
      w.append(
        "append_evidence",
        new Map<string, PyValue>([
          ["path", `.autodev/evidence/${id}-developer.json`],
          ["task_id", id],
        ]),
        session,
        w.tick(r),
      );
    } else {
      w.append(
        "impl_tournament_complete",
        new Map<string, PyValue>([
          ["passes", 1 + r.below(3)],
          ["task_id", id],
          ["tournament_id", `impl-${id}`],
          ["winner", "A"],
        ]),
        session,
        w.tick(r),
      );
    }
  }
  w.flush();
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  return { bytes: w.bytes, entries: w.entries };
}
