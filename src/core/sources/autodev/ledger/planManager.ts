/**
 * The PlanManager facade (design §3.6): every read and write of the plan goes
 * through here. Every mutation goes through {@link PlanManager.commit}, which
 * holds `.autodev/.lock` (the OS lock Python's filelock takes) across the whole
 * read → check → append → snapshot sequence, appends exactly one audit entry,
 * then the snapshot. Nothing else writes the ledger.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { acquireFileLock } from "../lock/fileLock";
import { removeStaleTemps } from "../../../fs/confinedReplace";
import type { ConfinedDir } from "../../../fs/confinedDir";
import { openAutodevForWrite, readFrom } from "../autodevWriteDir";
import { appendEntry, isoNow, snapshotPlan } from "./ledgerWriter";
import { loadPlan, verifyLedger } from "./ledgerReader";
import { LedgerEntry, Plan, Task, planToPy } from "../plan/schemas";
import { PyObject, PyValue } from "../../../pyjson/pyValue";
import { assertTransition } from "../plan/taskFsm";
import { AUDIT_OPS, PLAN_OPS, findTask } from "./replay";
import {
  LedgerCorruptError,
  PartialCommitError,
  PlanConcurrentModificationError,
  WriteRefusedError,
} from "../../../errors";
import { autodevRoot, ledgerPath, lockPath, planPath } from "../autodevPaths";
import { pyIntCall, pyTruthy } from "../../../pyjson/pyBuiltins";
import { isInside } from "../../../fs/pathInside";
import { errorText } from "../../../text/errorText";

/** How a PlanManager may write. */
export interface PlanManagerOptions {
  /** Written into every entry's `session_id`. */
  readonly sessionId: string;
  /** Seconds to wait for `.autodev/.lock` (default 30, as Python). */
  readonly lockTimeoutS?: number;
  /** Refuse every write (untrusted workspace). */
  readonly readOnly?: boolean;
}

/** What one mutation decides, given the current plan. */
export interface Mutation<T> {
  /** The one audit entry to append (omit for a refusal that throws instead). */
  readonly audit: { readonly op: string; readonly payload: PyObject };
  /** The plan to snapshot after the audit entry; omit for audit-only ops (as Python's `ledger_append`). */
  readonly snapshot?: Plan;
  readonly result: T;
}

/** Stateless facade over `.autodev/` of one workspace folder. */
export class PlanManager {
  constructor(
    readonly cwd: string,
    private readonly options: PlanManagerOptions,
  ) {}

  /** Current plan: latest snapshot plus later entries (`PlanManager.load`); null for a clean slate. */
  async load(): Promise<Plan | null> {
    return (await loadPlan(this.cwd)).plan;
  }

  /** All entries, validated (throws `LedgerCorruptError` on the first problem, as `read_entries`). */
  async readLedger(): Promise<LedgerEntry[]> {
    const out: LedgerEntry[] = [];
    const res = await verifyLedger(this.cwd, { replay: false, maxFindings: 1, onEntry: (_s, e) => e && out.push(e) });
    const first = res.report.errors[0];
    if (first) throw new LedgerCorruptError(first.message, first);
    return out;
  }

  /** A task by id, or null. */
  async getTask(taskId: string): Promise<Task | null> {
    const plan = await this.load();
    return plan ? (findTask(plan, taskId) ?? null) : null;
  }

  /** First task with status `pending`, phase-major. */
  async nextPendingTask(): Promise<Task | null> {
    const plan = await this.load();
    for (const phase of plan?.phases ?? []) for (const task of phase.tasks) if (task.status === "pending") return task;
    return null;
  }

  /** `init_plan`: refuses when a plan exists; appends `init_plan` then the snapshot. */
  async initPlan(plan: Plan): Promise<Plan> {
    return this.commit((current) => {
      if (current !== null) {
        throw new PlanConcurrentModificationError("plan already initialized; call save() or update_task_status()");
      }
      const now = isoNow();
      const stamped: Plan = { ...plan, updated_at: now, created_at: plan.created_at || now };
      return { audit: { op: "init_plan", payload: planPayload(stamped) }, snapshot: stamped, result: stamped };
    });
  }

  /** `save`: replaces the plan wholesale (`update_plan` then snapshot). */
  async save(plan: Plan): Promise<Plan> {
    return this.commit(() => {
      const stamped: Plan = { ...plan, updated_at: isoNow() };
      return { audit: { op: "update_plan", payload: planPayload(stamped) }, snapshot: stamped, result: stamped };
    });
  }

  /** `update_task_status`: checks the FSM edge, appends the change, snapshots. */
  async updateTaskStatus(taskId: string, status: string, meta?: PyObject): Promise<Task> {
    return this.commit((plan) => {
      const task = requireTask(plan, taskId);
      assertTransition(String(task.status), status);
      const payload: PyObject = new Map<string, PyValue>([
        ["task_id", taskId],
        ["status", status],
      ]);
      for (const [k, v] of meta ?? []) payload.set(k, v);
      const t = task as unknown as Record<string, unknown>;
      t.status = status;
      if (meta?.has("blocked_reason")) t.blocked_reason = meta.get("blocked_reason");
      if (meta?.has("retry_count")) t.retry_count = pyIntCall(meta.get("retry_count")!);
      if (meta?.has("escalated")) t.escalated = pyTruthy(meta.get("escalated")!);
      if (meta?.has("evidence_bundle")) t.evidence_bundle = meta.get("evidence_bundle");
      const next: Plan = { ...plan!, updated_at: isoNow() };
      return { audit: { op: "update_task_status", payload }, snapshot: next, result: task };
    });
  }

  /** `mark_task_retry`: increments retry_count without changing status; returns the new count. */
  async markTaskRetry(taskId: string): Promise<number | bigint> {
    return this.commit((plan) => {
      const task = requireTask(plan, taskId);
      const count = typeof task.retry_count === "bigint" ? task.retry_count + 1n : (task.retry_count as number) + 1;
      (task as unknown as Record<string, unknown>).retry_count = count;
      const payload: PyObject = new Map<string, PyValue>([
        ["task_id", taskId],
        ["status", task.status as string],
        ["retry_count", count],
      ]);
      return { audit: { op: "update_task_status", payload }, snapshot: plan!, result: count };
    });
  }

  /** `mark_escalated`: flags the task as escalated. */
  async markEscalated(taskId: string): Promise<void> {
    return this.commit((plan) => {
      const task = requireTask(plan, taskId);
      (task as unknown as Record<string, unknown>).escalated = true;
      const payload: PyObject = new Map<string, PyValue>([
        ["task_id", taskId],
        ["status", task.status as string],
        ["escalated", true],
      ]);
      return { audit: { op: "update_task_status", payload }, snapshot: plan!, result: undefined };
    });
  }

  /** `ledger_append`: one audit-only entry (no snapshot, as Python). */
  async ledgerAppend(op: string, payload: PyObject = new Map()): Promise<LedgerEntry> {
    let written: LedgerEntry | undefined;
    await this.commit(
      () => ({ audit: { op, payload }, result: undefined }),
      (e) => (written = e),
    );
    return written!;
  }

  /**
   * The one write path: lock, verify and load, decide, append the audit entry,
   * snapshot, unlock. `decide` may throw to refuse; nothing is written then.
   */
  async commit<T>(decide: (plan: Plan | null) => Mutation<T>, onAudit?: (e: LedgerEntry) => void): Promise<T> {
    await this.assertWritable();
    // Every write below (the lock file, temp files, the ledger, plan.json) goes through this one
    // checked descriptor of .autodev/: a folder swapped for a link cannot redirect any of them.
    const dir = await openAutodevForWrite(this.cwd);
    try {
      const lock = await acquireFileLock(lockPath(this.cwd), {
        timeoutMs: (this.options.lockTimeoutS ?? 30) * 1000,
        within: dir,
      });
      try {
        await removeStaleTemps(dir, [".ledger.", ".plan."]);
        const { plan, lastOp } = await readFrom(dir, () => loadPlan(this.cwd));
        const m = decide(plan);
        lock.assertHeld();
        if (plan && lastOp !== undefined && !PLAN_OPS.has(lastOp) && !AUDIT_OPS.has(lastOp)) {
          // The last write changed the plan but stopped before its snapshot (disk full, killed): complete it first.
          await snapshotPlan(this.cwd, plan, this.options.sessionId, undefined, dir);
        }
        const entry = await appendEntry(this.cwd, m.audit.op, m.audit.payload, this.options.sessionId, dir);
        onAudit?.(entry);
        if (m.snapshot) await this.snapshotAfter(dir, entry, m.snapshot);
        return m.result;
      } finally {
        await lock.release();
      }
    } finally {
      dir.close();
    }
  }

  /** Writes plan.json and the snapshot entry after `audit`; a failure says exactly what was written. */
  private async snapshotAfter(dir: ConfinedDir, audit: LedgerEntry, plan: Plan): Promise<void> {
    let planJson = false;
    try {
      await snapshotPlan(this.cwd, plan, this.options.sessionId, () => (planJson = true), dir);
    } catch (e) {
      const cause = errorText(e);
      throw new PartialCommitError(
        `partial write: the ${audit.op} entry (seq ${audit.seq}) was appended to the ledger` +
          (planJson
            ? " and plan.json was rewritten, but the snapshot entry was not written"
            : ", but plan.json was not rewritten and the snapshot entry was not written") +
          ` (${cause}). The ledger is valid and holds the change` +
          (planJson ? "." : "; plan.json is one change behind it.") +
          " Free the cause (e.g. disk space) and make any write: AutoDev State's next write completes the missing snapshot first.",
        audit.seq,
        planJson,
      );
    }
  }

  /** Refuses writes when read-only, or when `.autodev/` or its files resolve outside the workspace. */
  async assertWritable(): Promise<void> {
    if (this.options.readOnly) {
      throw new WriteRefusedError(
        "this workspace is not trusted, so AutoDev State is read-only here. Trust the workspace to allow writes.",
      );
    }
    const root = await fs.promises.realpath(this.cwd);
    for (const p of [autodevRoot(this.cwd), ledgerPath(this.cwd), planPath(this.cwd), lockPath(this.cwd)]) {
      let real: string;
      try {
        real = await fs.promises.realpath(p);
      } catch (e) {
        const exists = await fs.promises.lstat(p).then(
          () => true,
          () => false,
        );
        if (!exists) continue; // does not exist yet; its folder was checked
        throw new WriteRefusedError(
          `${path.relative(this.cwd, p)} cannot be resolved (${(e as NodeJS.ErrnoException).code ?? String(e)}: a dangling or looping link?). Nothing was written; replace it with a real file or remove it.`,
        );
      }
      if (!isInside(root, real)) {
        throw new WriteRefusedError(
          `${path.relative(this.cwd, p)} resolves to ${real}, outside the workspace. AutoDev State neither reads nor writes through a link that leaves the workspace; replace the link with the real file or folder.`,
        );
      }
    }
  }
}

function requireTask(plan: Plan | null, taskId: string): Task {
  if (plan === null) throw new PlanConcurrentModificationError("no plan initialized; call init_plan first");
  const task = findTask(plan, taskId);
  if (!task) throw new PlanConcurrentModificationError(`task_id='${taskId}' not found in current plan`);
  return task;
}

function planPayload(plan: Plan): PyObject {
  return new Map([["plan", planToPy(plan)]]);
}
