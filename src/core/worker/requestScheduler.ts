/**
 * The order the state worker serves requests in. Requests run one at a time per lane (a workspace
 * folder's requests, or its heavy views: the graph, the report, the tools), lanes interleave. In a
 * lane the most urgent waiting request goes first, first come first served among equals:
 *
 * - `live`: what the editor shows a change with (a refresh, a detection, the watcher's looks);
 * - `normal`: what a user's click or a small panel waits on (evidence, an action, a timeline page);
 * - `background`: the heavy panels (the graph, the report).
 *
 * A `background` request also does not start, in any lane, while a `live` one waits or runs (one
 * thread serves every lane, so a graph's layout would stretch a refresh), unless it has waited
 * {@link BACKGROUND_HOLD_MS} already: a writer that never pauses cannot starve the panels.
 */

/** How soon a request is served (see the module comment). */
export type RequestPriority = "live" | "normal" | "background";

const RANK: Readonly<Record<RequestPriority, number>> = { live: 0, normal: 1, background: 2 };

/** The longest a `background` request waits for `live` ones in other lanes (ms). */
export const BACKGROUND_HOLD_MS = 1000;

interface Job {
  readonly priority: RequestPriority;
  readonly queuedAt: number;
  readonly seq: number;
  readonly run: (queuedAt: number) => Promise<void>;
}

/** What the scheduler uses of time (tests pass their own). */
export interface SchedulerClock {
  now(): number;
  /** Calls `wake` after `ms` (once). */
  later(wake: () => void, ms: number): void;
}

const REAL_CLOCK: SchedulerClock = {
  now: () => performance.now(),
  later: (wake, ms) => setTimeout(wake, ms).unref?.(),
};

/** Lanes of waiting requests and the one running in each. */
export class RequestScheduler {
  private readonly waiting = new Map<string, Job[]>();
  private readonly busy = new Set<string>();
  private liveRunning = 0;
  private liveWaiting = 0;
  private seq = 0;
  private wakeAt = Infinity;

  constructor(
    private readonly holdMs = BACKGROUND_HOLD_MS,
    private readonly clock: SchedulerClock = REAL_CLOCK,
  ) {}

  /** Queues `run` in `lane`; it is called with the time it was queued at, and its end lets the next one start. */
  submit(lane: string, priority: RequestPriority, run: (queuedAt: number) => Promise<void>): void {
    const jobs = this.waiting.get(lane) ?? [];
    jobs.push({ priority, queuedAt: this.clock.now(), seq: this.seq++, run });
    this.waiting.set(lane, jobs);
    if (priority === "live") this.liveWaiting++;
    this.pump();
  }

  /** Requests waiting (not running), all lanes. */
  get queued(): number {
    let n = 0;
    for (const jobs of this.waiting.values()) n += jobs.length;
    return n;
  }

  /** Starts the best waiting request of every idle lane that may start one now. */
  private pump(): void {
    for (const [lane, jobs] of this.waiting) {
      if (this.busy.has(lane)) continue;
      const job = this.pick(jobs);
      if (!job) continue;
      jobs.splice(jobs.indexOf(job), 1);
      if (jobs.length === 0) this.waiting.delete(lane);
      this.start(lane, job);
    }
  }

  /** The most urgent, oldest job of a lane that may start now (a held background job may not). */
  private pick(jobs: readonly Job[]): Job | undefined {
    let best: Job | undefined;
    for (const j of jobs) {
      if (!best || RANK[j.priority] < RANK[best.priority] || (j.priority === best.priority && j.seq < best.seq)) {
        best = j;
      }
    }
    if (best?.priority !== "background" || this.liveRunning + this.liveWaiting === 0) return best;
    const release = best.queuedAt + this.holdMs;
    if (this.clock.now() >= release) return best;
    this.wakeBy(release);
    return undefined;
  }

  /** Pumps again at `at` at the latest (a held background job's release). */
  private wakeBy(at: number): void {
    if (at >= this.wakeAt) return;
    this.wakeAt = at;
    this.clock.later(
      () => {
        this.wakeAt = Infinity;
        this.pump();
      },
      Math.max(0, at - this.clock.now()),
    );
  }

  private start(lane: string, job: Job): void {
    this.busy.add(lane);
    const live = job.priority === "live";
    if (live) {
      this.liveWaiting--;
      this.liveRunning++;
    }
    void job
      .run(job.queuedAt)
      .catch(() => undefined)
      .finally(() => {
        this.busy.delete(lane);
        if (live) this.liveRunning--;
        this.pump();
      });
  }
}
