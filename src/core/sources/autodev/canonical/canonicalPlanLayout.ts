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

/**
 * The byte layout of a plan proven exact: its bytes, and where each phase and
 * task lies in them. A phase or task of a later plan whose bytes are identical
 * to one of these is proven by that alone (an exact Phase or Task is a
 * self-contained value), so consecutive snapshots — which differ in a task or
 * two — cost a memcmp per phase instead of a scan.
 */
export class PlanLayout {
  bytes: Buffer = Buffer.alloc(0);
  phaseStart: number[] = [];
  phaseEnd: number[] = [];
  phaseFirstTask: number[] = [];
  phaseTaskCount: number[] = [];
  taskStart: number[] = [];
  taskEnd: number[] = [];
  taskId: string[] = [];
  taskStatus: number[] = [];
  metaStart: number[] = [];
  metaEnd: number[] = [];
  planMetaStart = 0;
  planMetaEnd = 0;

  /** Empties every list (keeps `bytes`, reused as a buffer). */
  clear(): void {
    this.metaStart.length = 0;
    this.metaEnd.length = 0;
    this.phaseStart.length = 0;
    this.phaseEnd.length = 0;
    this.phaseFirstTask.length = 0;
    this.phaseTaskCount.length = 0;
    this.taskStart.length = 0;
    this.taskEnd.length = 0;
    this.taskId.length = 0;
    this.taskStatus.length = 0;
  }
}

/** The ids (and first positions) of the last skeleton handed out, reused while the tasks stay the same. */
let sharedIds: readonly string[] = [];
let sharedPositions: ReadonlyMap<string, number> = new Map();

/** The skeleton of a plan proven exact, from its layout; reuses the last ids while the tasks stay the same. */
export function skeletonOfLayout(proven: PlanLayout): PlanSkeleton {
  const ids = proven.taskId;
  let same = ids.length === sharedIds.length;
  for (let k = 0; same && k < ids.length; k++) same = ids[k] === sharedIds[k];
  if (!same) {
    sharedIds = ids.slice();
    const positions = new Map<string, number>();
    for (let k = 0; k < ids.length; k++) if (!positions.has(ids[k])) positions.set(ids[k], k);
    sharedPositions = positions;
  }
  const n = ids.length;
  const ranges = new Int32Array(2 + 2 * n);
  ranges[0] = proven.planMetaStart;
  ranges[1] = proven.planMetaEnd;
  for (let k = 0; k < n; k++) {
    ranges[2 + 2 * k] = proven.metaStart[k];
    ranges[3 + 2 * k] = proven.metaEnd[k];
  }
  return {
    ids: sharedIds,
    positions: sharedPositions,
    statuses: Uint8Array.from(proven.taskStatus),
    metadataRanges: ranges,
  };
}
