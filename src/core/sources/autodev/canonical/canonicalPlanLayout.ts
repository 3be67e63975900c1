/**
 * The byte layout of a plan the ledger fast path proved exact, and the
 * skeleton (task ids and statuses) handed out for it.
 */

/** What strict replay needs of a plan: its task ids and statuses, in phase-major order. */
export interface PlanSkeleton {
  /** Task ids in phase-major order (shared between skeletons of plans with the same tasks). */
  readonly ids: readonly string[];
  /** Position of the first task with each id (shared likewise). */
  readonly positions: ReadonlyMap<string, number>;
  /** Each task's status, as an index into TASK_STATUSES. */
  readonly statuses: Uint8Array;
  /**
   * Byte ranges of the metadata dicts, relative to the plan's first byte: the
   * plan's, then each task's (start, end pairs), for {@link exactPlanFromCanonical}.
   */
  readonly metadataRanges: Int32Array;
}

/** An Int32Array twice as long as `a` holding its first `n` values. */
function grown(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(Math.max(16, 2 * a.length));
  b.set(a.subarray(0, n));
  return b;
}

/**
 * The byte layout of a plan proven exact: its bytes, and where each phase and
 * task lies in them. A phase or task of a later plan whose bytes are identical
 * to one of these is proven by that alone (an exact Phase or Task is a
 * self-contained value), so consecutive snapshots — which differ in a task or
 * two — cost a memcmp per phase instead of a scan. The lists are typed arrays
 * with a count, kept from plan to plan (a snapshot after every status change
 * would otherwise grow ten arrays again for every line).
 */
export class PlanLayout {
  bytes: Buffer = Buffer.alloc(0);
  /** The plan's length in `bytes`. */
  length = 0;
  /** Phases and tasks recorded. */
  phases = 0;
  tasks = 0;
  phaseStart = new Int32Array(16);
  phaseEnd = new Int32Array(16);
  phaseFirstTask = new Int32Array(16);
  phaseTaskCount = new Int32Array(16);
  taskStart = new Int32Array(16);
  taskEnd = new Int32Array(16);
  taskId: string[] = [];
  taskStatus = new Uint8Array(16);
  metaStart = new Int32Array(16);
  metaEnd = new Int32Array(16);
  planMetaStart = 0;
  planMetaEnd = 0;

  /** Forgets every phase and task (keeps the storage). */
  clear(): void {
    this.phases = 0;
    this.tasks = 0;
  }

  /** Records a task: its range, id, status and metadata range (offsets relative to the plan). */
  pushTask(s: number, e: number, id: string, status: number, ms: number, me: number): void {
    const k = this.tasks;
    if (k === this.taskStart.length) this.grow(k);
    this.taskStart[k] = s;
    this.taskEnd[k] = e;
    this.taskId[k] = id;
    this.taskStatus[k] = status;
    this.metaStart[k] = ms;
    this.metaEnd[k] = me;
    this.tasks = k + 1;
  }

  /**
   * Records tasks [from, to) of `source` (a phase whose bytes equal the source's), their offsets
   * moved by `shift`: the typed arrays in bulk, not task by task.
   */
  copyTasks(source: PlanLayout, from: number, to: number, shift: number): void {
    const k = this.tasks;
    const n = to - from;
    while (k + n > this.taskStart.length) this.grow(k);
    const copy = (into: Int32Array, of: Int32Array) => {
      into.set(of.subarray(from, to), k);
      if (shift !== 0) for (let j = k; j < k + n; j++) into[j] += shift;
    };
    copy(this.taskStart, source.taskStart);
    copy(this.taskEnd, source.taskEnd);
    copy(this.metaStart, source.metaStart);
    copy(this.metaEnd, source.metaEnd);
    this.taskStatus.set(source.taskStatus.subarray(from, to), k);
    const ids = this.taskId;
    const theirs = source.taskId;
    for (let j = 0; j < n; j++) ids[k + j] = theirs[from + j];
    this.tasks = k + n;
  }

  /** Doubles the task arrays, keeping the first `k` tasks. */
  private grow(k: number): void {
    this.taskStart = grown(this.taskStart, k);
    this.taskEnd = grown(this.taskEnd, k);
    this.metaStart = grown(this.metaStart, k);
    this.metaEnd = grown(this.metaEnd, k);
    const st = new Uint8Array(this.taskStart.length);
    st.set(this.taskStatus.subarray(0, k));
    this.taskStatus = st;
  }

  /** Records a phase: its range and its tasks (the `count` from task `first`). */
  pushPhase(s: number, e: number, first: number, count: number): void {
    const q = this.phases;
    if (q === this.phaseStart.length) {
      this.phaseStart = grown(this.phaseStart, q);
      this.phaseEnd = grown(this.phaseEnd, q);
      this.phaseFirstTask = grown(this.phaseFirstTask, q);
      this.phaseTaskCount = grown(this.phaseTaskCount, q);
    }
    this.phaseStart[q] = s;
    this.phaseEnd[q] = e;
    this.phaseFirstTask[q] = first;
    this.phaseTaskCount[q] = count;
    this.phases = q + 1;
  }
}

/** The ids (and first positions) of the last skeleton handed out, reused while the tasks stay the same. */
let sharedIds: readonly string[] = [];
let sharedPositions: ReadonlyMap<string, number> = new Map();

/** The skeleton of a plan proven exact, from its layout; reuses the last ids while the tasks stay the same. */
export function skeletonOfLayout(proven: PlanLayout): PlanSkeleton {
  const ids = proven.taskId;
  const n = proven.tasks;
  let same = n === sharedIds.length;
  for (let k = 0; same && k < n; k++) same = ids[k] === sharedIds[k];
  if (!same) {
    sharedIds = ids.slice(0, n);
    const positions = new Map<string, number>();
    for (let k = 0; k < n; k++) if (!positions.has(ids[k])) positions.set(ids[k], k);
    sharedPositions = positions;
  }
  const ranges = new Int32Array(2 + 2 * n);
  ranges[0] = proven.planMetaStart;
  ranges[1] = proven.planMetaEnd;
  const ms = proven.metaStart;
  const me = proven.metaEnd;
  for (let k = 0; k < n; k++) {
    ranges[2 + 2 * k] = ms[k];
    ranges[3 + 2 * k] = me[k];
  }
  return {
    ids: sharedIds,
    positions: sharedPositions,
    statuses: proven.taskStatus.slice(0, n),
    metadataRanges: ranges,
  };
}
