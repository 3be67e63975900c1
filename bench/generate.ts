/**
 * Deterministic generators of AutoDev ledgers for the benchmark.
 *
 * Every line is produced by the core's own writer (`buildEntry`, the function
 * `appendEntry` uses), so the file is byte-identical to what appending entry
 * after entry would give — but written sequentially into one stream, because
 * appending through the atomic full-file copy is O(N²) on a 500 MB ledger.
 * A fixed clock and a seeded PRNG make every run produce the same bytes.
 *
 * `generateShapeLedger` follows PlanManager's commit path with the parameters
 * of a {@link LedgerShape}: status changes are `update_task_status` audit
 * entries, followed (at the shape's cadence) by a `snapshot` of the whole plan;
 * retries, escalations, blocked and skipped tasks, evidence and tournament
 * entries in between; then CRLF line ends or damage when the shape asks.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { LastHead, buildEntry, isoNow } from "../src/core/sources/autodev/ledger/ledgerWriter";
import { Plan, planToPy } from "../src/core/sources/autodev/plan/schemas";
import { TASK_STATUSES } from "../src/core/sources/autodev/plan/planConstants";
import { PyObject, PyValue } from "../src/core/pyjson/pyValue";
import { SeededRandom } from "../src/core/seededRandom";
import { WORDS, benchPlan, textOf } from "./benchPlan";
import { LedgerShape } from "./ledgerShapes";
import { writePlanManagerLedger } from "./planManagerLedger";

/** What a generator wrote. */
export type Generated = {
  bytes: number;
  entries: number;
  /** Lines damaged on purpose (0 for a clean ledger). */
  damaged: number;
};

/** Writes entries with `buildEntry` into a file, sequentially, with a fixed clock. */
export class SequentialLedger {
  private head: LastHead = { seq: 0, selfHash: "", missingFinalNewline: false };
  private clockMs = Date.UTC(2026, 0, 1, 9, 0, 0);
  private pending: string[] = [];
  private pendingBytes = 0;
  bytes = 0;
  entries = 0;
  damaged = 0;
  /** Damage the next line written (see {@link damage}). */
  damageNext = false;

  constructor(
    private readonly fd: number,
    private readonly crlf = false,
  ) {}

  /** Advances the fixed clock and returns its ISO text (microseconds vary deterministically). */
  tick(r: SeededRandom): string {
    this.clockMs += 1000 + r.below(60_000) + r.below(1000) / 1000;
    return isoNow(this.clockMs);
  }

  append(op: string, payload: PyObject, session: string, timestamp: string): void {
    const { entry, line } = buildEntry(this.head, op, payload, session, timestamp);
    this.head = { seq: entry.seq, selfHash: entry.self_hash, missingFinalNewline: false };
    this.entries++;
    let text = this.crlf ? `${line.slice(0, -1)}\r\n` : line;
    if (this.damageNext) {
      text = damage(text, this.damaged++);
      this.damageNext = false;
    }
    this.pending.push(text);
    this.pendingBytes += text.length; // ASCII (ensure_ascii)
    this.bytes += text.length;
    if (this.pendingBytes > 4 << 20) this.flush();
  }

  flush(): void {
    if (this.pending.length === 0) return;
    fs.writeSync(this.fd, this.pending.join(""));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

/**
 * The `k`-th damaged line: a byte flipped inside a string (the self_hash no
 * longer matches), a line torn in half (invalid JSON; the entry is lost), or
 * a line of garbage before it (a stray write).
 */
function damage(line: string, k: number): string {
  const eol = line.endsWith("\r\n") ? "\r\n" : "\n";
  switch (k % 3) {
    case 0: {
      const at = line.indexOf('"timestamp": "') + 16;
      const c = line.charCodeAt(at);
      return line.slice(0, at) + String.fromCharCode(c === 0x39 ? 0x38 : c + 1) + line.slice(at + 1);
    }
    case 1:
      return line.slice(0, line.length >> 1) + eol;
    default:
      return `\u0000\u0001 not a ledger line {"seq": ${eol}${line}`;
  }
}

type MutableTask = Record<string, unknown>;
/** The statuses a task walks through when every move is legal. */
const LIFECYCLE = ["in_progress", "coded", "auto_gated", "reviewed", "tested", "tournamented", "complete"];

/** Opens `file`'s `.partial` sibling, runs `write` on it, then renames it into place (removed on failure). */
export function writeLedger(file: string, crlf: boolean, write: (w: SequentialLedger) => void): Generated {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.partial`;
  const fd = fs.openSync(tmp, "w");
  try {
    const w = new SequentialLedger(fd, crlf);
    write(w);
    w.flush();
    fs.closeSync(fd);
    fs.renameSync(tmp, file);
    return { bytes: w.bytes, entries: w.entries, damaged: w.damaged };
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

/** A ledger of about `targetBytes` in `shape` (see ledgerShapes.ts). */
export function generateShapeLedger(file: string, shape: LedgerShape, targetBytes: number, seed = 0xbe7c4): Generated {
  if (shape.planManager) return generatePlanManagerLedger(file, shape, targetBytes, seed);
  const r = new SeededRandom(seed);
  return writeLedger(file, shape.crlf, (w) => {
    const plan = benchPlan(r, shape.plan);
    const tasks = plan.phases.flatMap((p) => p.tasks) as unknown as MutableTask[];
    const stage = new Map<MutableTask, number>(tasks.map((t) => [t, 0]));
    const retriesLeft = new Map<MutableTask, number>();
    const exec = "sess-bench-exec";
    w.append(
      "plan_tournament_complete",
      new Map<string, PyValue>([
        ["converged", true],
        ["passes", 2],
        ["tournament_id", "plan-1"],
        ["winner", "B"],
      ]),
      "sess-bench-plan",
      w.tick(r),
    );
    let now = w.tick(r);
    let current: Plan = { ...plan, updated_at: now };
    w.append("init_plan", new Map([["plan", planToPy(current)]]), "sess-bench-plan", now);
    w.append("snapshot", new Map([["plan", planToPy(current)]]), "sess-bench-plan", now);
    const damageEvery = shape.damagedLines > 0 ? targetBytes / 3 / shape.damagedLines : 0;
    let nextDamage = targetBytes / 3;
    let changes = 0;

    const snapshot = (op: string): void => {
      current = { ...current, updated_at: now };
      w.append(op, new Map([["plan", planToPy(current)]]), exec, now);
    };
    const audit = (task: MutableTask): void => {
      const id = task.id as string;
      const note: [string, PyValue][] = shape.noteBytes > 0 ? [["note", textOf(r, shape.noteBytes)]] : [];
      const payload: [string, PyValue][] = r.chance(0.6)
        ? [["path", `.autodev/evidence/${id}-${r.pick(WORDS)}.json`], ["task_id", id], ...note]
        : [
            ["converged", r.chance(0.8)],
            ["passes", 1 + r.below(4)],
            ["task_id", id],
            ["tournament_id", `impl-${id}`],
            ["winner", r.pick(["A", "B", "AB"])],
            ...note,
          ];
      const op = payload[0][0] === "path" ? "append_evidence" : "impl_tournament_complete";
      w.append(op, new Map(payload.sort((a, b) => (a[0] < b[0] ? -1 : 1))), exec, w.tick(r));
    };
    /** PlanManager.update_task_status / mark_task_retry / mark_escalated: the audit entry, then (at the cadence) a snapshot. */
    const commit = (task: MutableTask, status: string, meta: [string, PyValue][] = []): void => {
      const payload: PyObject = new Map<string, PyValue>([
        ["task_id", task.id as string],
        ["status", status],
      ]);
      for (const [k, v] of meta) payload.set(k, v);
      task.status = status;
      for (const [k, v] of meta) task[k] = v;
      now = w.tick(r);
      if (damageEvery > 0 && w.bytes >= nextDamage && w.damaged < shape.damagedLines) {
        w.damageNext = true;
        nextDamage += damageEvery;
      }
      w.append("update_task_status", payload, exec, now);
      changes++;
      if (shape.snapshotEvery > 0 && changes % shape.snapshotEvery === 0) snapshot("snapshot");
      const audits = Math.floor(shape.auditPerChange) + (r.chance(shape.auditPerChange % 1) ? 1 : 0);
      for (let a = 0; a < audits; a++) audit(task);
    };
    /** One legal move of `task` along its lifecycle (with retries, blocks, skips, escalations). */
    const legal = (task: MutableTask): void => {
      const s = stage.get(task)!;
      const status = LIFECYCLE[s];
      if (s === 0 && r.chance(0.02)) {
        stage.set(task, LIFECYCLE.length);
        return commit(task, "skipped");
      }
      if (status === "coded" && task.status !== "coded") {
        if (!retriesLeft.has(task)) retriesLeft.set(task, r.chance(shape.retryChance) ? shape.retryLoops : 0);
      }
      if (task.status === "coded" && (retriesLeft.get(task) ?? 0) > 0) {
        retriesLeft.set(task, retriesLeft.get(task)! - 1);
        const retry = (task.retry_count as number) + 1;
        const meta: [string, PyValue][] = [["retry_count", retry]];
        if (retry === 3) meta.push(["escalated", true]);
        stage.set(task, 1);
        return commit(task, "in_progress", meta);
      }
      if (status === "in_progress" && s === 0 && r.chance(0.04)) {
        commit(task, "blocked", [
          ["blocked_reason", `Needs a decision on the ${r.pick(WORDS)} format; asked the user.`],
        ]);
        return commit(task, "in_progress", [["blocked_reason", null]]);
      }
      const meta: [string, PyValue][] =
        status === "reviewed" || status === "complete"
          ? [["evidence_bundle", `.autodev/evidence/${task.id as string}-${status}.json`]]
          : [];
      stage.set(task, s + 1);
      commit(task, status, meta);
    };

    let cursor = 0;
    while (w.bytes < targetBytes) {
      const open = tasks.filter((t) => stage.get(t)! < LIFECYCLE.length);
      if (open.length === 0) {
        // Every task done: the plan is reset (an update_plan), as a new iteration would.
        for (const t of tasks) {
          Object.assign(t, { status: "pending", retry_count: 0, escalated: false, evidence_bundle: null });
          stage.set(t, 0);
          retriesLeft.delete(t);
        }
        now = w.tick(r);
        snapshot("update_plan");
        continue;
      }
      if (r.chance(shape.illegal)) {
        const task = r.pick(tasks);
        const others = TASK_STATUSES.filter((s) => s !== task.status);
        commit(task, r.pick(others));
        continue;
      }
      if (shape.randomOrder) legal(r.pick(open));
      else {
        while (stage.get(tasks[cursor % tasks.length])! >= LIFECYCLE.length) cursor++;
        legal(tasks[cursor % tasks.length]);
      }
    }
  });
}

/** A PlanManager shape (planManagerLedger.ts): PlanManager's calls, with the bench's fixed clock. */
function generatePlanManagerLedger(file: string, shape: LedgerShape, targetBytes: number, seed: number): Generated {
  const clock = new SeededRandom(seed ^ 0xc10c);
  return writeLedger(file, shape.crlf, (w) => {
    const { failChance, retryLimit } = shape.planManager!;
    writePlanManagerLedger(
      { plan: shape.plan, illegal: shape.illegal, failChance, retryLimit },
      { plan: seed, calls: seed + 1 },
      "sess-bench-exec",
      () => w.tick(clock),
      (op, payload, session, ts) => w.append(op, payload, session, ts),
      () => w.bytes >= targetBytes,
    );
  });
}

/**
 * A ledger of `count` small entries (the timeline index benchmark): one
 * init_plan + snapshot of the 500-task plan, then status changes that cycle
 * tasks between in_progress and coded, evidence and tournament audit entries.
 */
export function generateSmallEntriesLedger(file: string, count: number, seed = 0x5a11): Generated {
  const r = new SeededRandom(seed);
  return writeLedger(file, false, (w) => {
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
  });
}
