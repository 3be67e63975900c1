/**
 * Strict replay inside the ledger scanner (ledgerScanner.ts), as Python's
 * `replay_ledger` does it, reporting the first replay error and FSM warnings.
 *
 * Replay runs on a plan that is either a full Plan or, after a plan-carrying
 * entry the fast path proved valid, a skeleton of it (task ids and statuses,
 * which is all strict replay reads; see `skeletonPlan`). The full Plan is
 * only built when {@link ScannerReplay.plan} is read — from the canonical
 * bytes of the latest plan payload, plus what replay did to the skeleton's
 * tasks since — and is kept in step from then on, so it is the object full
 * replay would hold.
 */
import { RawLine } from "./read/ledgerLineReader";
import { parsePyJson } from "../../../pyjson/pyJsonParse";
import { LedgerEntry, Plan, validatePlan } from "../plan/schemas";
import {
  AUDIT_OPS,
  PLAN_OPS,
  REPLAY_PAYLOAD_KEYS,
  ReplayError,
  TaskChange,
  applyStrict,
  skeletonPlan,
  skeletonTouched,
} from "./replay";
import { canTransition } from "../plan/taskFsm";
import { VerifyFinding, VerifyWarning } from "./verifyTypes";
import { NOT_PLAIN, applyPlain } from "./scannerFastReplay";
import {
  FastLine,
  PlanSkeleton,
  exactPlanFromCanonical,
  exactPlanModel,
  pinProvenPlan,
} from "../canonical/fastCanonical";

type Latin1 = { latin1Slice(start: number, end: number): string };

/** The task fields replay assigns besides `status`. */
const REPLAYED_FIELDS = ["blocked_reason", "retry_count", "escalated", "evidence_bundle"] as const;

/** Applies `entry` to a full plan, ignoring the error replay already reported for it. */
function applyQuietly(plan: Plan, entry: LedgerEntry): void {
  try {
    applyStrict(plan, entry);
  } catch (e) {
    if (!(e instanceof ReplayError)) throw e;
  }
}

/** The replay state of one scan: the plan being replayed and the first replay error. */
export class ScannerReplay {
  /** The first replay error (what Python raises), or null. */
  private replayError: VerifyFinding | null = null;
  /** What strict replay applies entries to: a full Plan or a skeleton (null before any plan). */
  private replayPlan: Plan | null = null;
  /** The full plan, in step with `replayPlan` (the same object when that is full); null until built. */
  private fullPlan: Plan | null = null;
  /** Canonical bytes of the payload.plan `replayPlan` is a skeleton of (the proof's pinned copy). */
  private planBytes: Buffer | null = null;
  /** Releases the pin of `planBytes` (null: nothing pinned). */
  private release: (() => void) | null = null;
  /** Supplies `planBytes` on demand when the plan was proven in another thread (null otherwise). */
  private planSource: (() => Buffer) | null = null;
  /** What the fast path proved about `planBytes`. */
  private planSkeleton: PlanSkeleton | null = null;
  private replayBroken = false;

  /** `warn` receives FSM warnings; `record` every replay error after the first. */
  constructor(
    private readonly warn: (w: VerifyWarning) => void,
    private readonly record: (f: VerifyFinding) => void,
  ) {}

  /** The first replay error, or null. */
  get error(): VerifyFinding | null {
    return this.replayError;
  }

  /** Strict replay of a fast-path line: a plan payload proved valid needs no parse at all. */
  fast(raw: RawLine, fast: FastLine, planBytes: (() => Buffer) | null): TaskChange | null {
    const isPlanOp = PLAN_OPS.has(fast.op);
    if (this.replayBroken && !isPlanOp) return null;
    if (isPlanOp && fast.skeleton !== null) {
      if (planBytes !== null) {
        this.unpin();
        this.planBytes = null;
        this.planSource = planBytes;
      } else {
        // The proof's own copy of the plan, pinned (no second copy of every snapshot): the skeleton
        // comes from the proof of this line's plan, the last proof this thread made (a copy if not).
        this.unpin();
        const len = fast.planEnd - fast.planStart;
        const pin = pinProvenPlan();
        if (pin.bytes.length === len && pin.bytes[0] === 0x7b && pin.bytes[len - 1] === 0x7d) {
          this.release = pin.release;
          this.planBytes = pin.bytes;
        } else {
          pin.release();
          this.planBytes = Buffer.from(raw.bytes.subarray(fast.planStart, fast.planEnd));
        }
        this.planSource = null;
      }
      const { ids, positions, statuses } = fast.skeleton;
      this.planSkeleton = fast.skeleton;
      this.replayPlan = skeletonPlan(ids, positions, statuses);
      this.fullPlan = null;
      this.replayBroken = false;
      return null;
    }
    if (AUDIT_OPS.has(fast.op)) {
      this.replayBroken = false;
      return null;
    }
    if (!isPlanOp) {
      const mirror = this.fullPlan !== null && this.fullPlan !== this.replayPlan ? this.fullPlan : null;
      const change = applyPlain(this.replayPlan, mirror, fast);
      if (change !== NOT_PLAIN) {
        this.replayBroken = false;
        if (change !== null) this.checkTransition(change, fast.seq, raw.lineNo);
        return change;
      }
    }
    return this.full(fast.entryWith(REPLAY_PAYLOAD_KEYS), raw.lineNo);
  }

  /** Warns when a change is one the task state machine does not allow. */
  private checkTransition(c: TaskChange, seq: number | bigint, line: number): void {
    if (c.from !== null && c.from !== c.to && !canTransition(c.from, c.to)) {
      this.warn({
        atLine: line,
        seq,
        kind: "fsm_violation",
        message: `entry seq=${seq} moved task ${c.taskId} from '${c.from}' to '${c.to}', which the task state machine does not allow`,
      });
    }
  }

  /** Strict replay of a parsed entry (at line `line`). */
  full(entry: LedgerEntry, line: number): TaskChange | null {
    const isPlanOp = PLAN_OPS.has(entry.op);
    if (this.replayBroken && !isPlanOp) return null;
    try {
      const applied = applyStrict(this.replayPlan, entry);
      if (isPlanOp) this.setFullPlan(applied.plan);
      else this.mirror(entry);
      this.replayBroken = false;
      const c = applied.change;
      if (c) this.checkTransition(c, entry.seq, line);
      return c;
    } catch (e) {
      if (!(e instanceof ReplayError)) throw e;
      // A failed status update may have changed the task before it threw (as in Python): keep the full plan in step.
      if (!isPlanOp) this.mirror(entry);
      const finding: VerifyFinding = { line: null, seq: e.seq, kind: e.kind, message: e.message, atLine: line };
      if (this.replayError === null) this.replayError = finding;
      else this.record(finding);
      this.replayBroken = true;
      return null;
    }
  }

  /** Lets later proofs reuse the buffer of `planBytes`. */
  private unpin(): void {
    this.release?.();
    this.release = null;
  }

  private setFullPlan(plan: Plan | null): void {
    this.replayPlan = plan;
    this.fullPlan = plan;
    this.unpin();
    this.planBytes = null;
    this.planSource = null;
    this.planSkeleton = null;
  }

  /** Applies to the full plan (if built and separate) an entry just applied to the skeleton. */
  private mirror(entry: LedgerEntry): void {
    if (this.fullPlan !== null && this.fullPlan !== this.replayPlan && !AUDIT_OPS.has(entry.op)) {
      applyQuietly(this.fullPlan, entry);
    }
  }

  /**
   * Builds the full plan from the latest plan payload's bytes, then carries
   * over what replay changed since: replay only ever assigns `status`,
   * `blocked_reason`, `retry_count`, `escalated` and `evidence_bundle` of a
   * task, and the skeleton's tasks (same ids, same order) hold exactly the
   * fields assigned so far, with their latest values.
   */
  private materialize(): void {
    const bytes = this.planBytes ?? this.planSource!();
    const text = (bytes as unknown as Latin1).latin1Slice(0, bytes.length);
    let plan = exactPlanFromCanonical(text, this.planSkeleton!);
    if (plan === null) {
      const raw = parsePyJson(text);
      plan = exactPlanModel(raw, true);
      if (plan === null) {
        const res = validatePlan(raw);
        if (!res.ok) throw new Error(`internal error: a plan the fast path accepted failed validation: ${res.error}`);
        plan = res.value;
      }
    }
    const touched = skeletonTouched(this.replayPlan!)!;
    if (touched.size > 0) {
      let position = 0;
      for (const phase of plan.phases) {
        for (const task of phase.tasks) {
          const from = touched.get(position++) as unknown as Record<string, unknown> | undefined;
          if (from === undefined) continue;
          const to = task as unknown as Record<string, unknown>;
          to.status = from.status;
          for (const field of REPLAYED_FIELDS) if (field in from) to[field] = from[field];
        }
      }
    }
    this.fullPlan = plan;
    this.unpin();
    this.planBytes = null;
    this.planSource = null;
    this.planSkeleton = null;
  }

  /** The plan as replayed so far (null before any plan op). */
  get plan(): Plan | null {
    if (this.fullPlan === null && (this.planBytes !== null || this.planSource !== null)) this.materialize();
    return this.fullPlan;
  }
}
