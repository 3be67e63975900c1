/**
 * Start-up work the state tree's first paint does not need (the file watchers, the context keys,
 * the providers behind a source's commands): it waits until the tree first answered with roots,
 * and then runs in a task of its own, after VS Code has the answer. When no view asks (the view is
 * closed, no source was found), it runs {@link FALLBACK_MS} after the first detection ended
 * ({@link AfterFirstPaint.detected}) all the same: never before the tree could have its roots.
 */
import { errorText } from "../core/text/errorText";

/** How long start-up work waits, after the first detection, for a tree that never asks (a closed view), in ms. */
export const FALLBACK_MS = 1_000;

/** The queue of work for after the first paint; it runs once, in order. */
export class AfterFirstPaint {
  private queue: Array<() => void> | null = [];
  private scheduled = false;
  private timer: NodeJS.Timeout | undefined;
  private ended!: () => void;
  /** Settles once the queued work ran (the tree answered, or the fallback came). */
  readonly done = new Promise<void>((resolve) => (this.ended = resolve));

  /** `onError`: a piece of queued work threw (the rest still runs). */
  constructor(
    private readonly onError: (message: string) => void,
    private readonly fallbackMs = FALLBACK_MS,
  ) {}

  /** The first detection ended: the queued work runs {@link FALLBACK_MS} from now if no tree answered by then. */
  detected(): void {
    if (this.queue === null || this.timer !== undefined) return;
    this.timer = setTimeout(() => this.run(), this.fallbackMs);
    this.timer.unref?.();
  }

  /** True once the queued work ran: work handed in now runs at once. */
  get passed(): boolean {
    return this.queue === null;
  }

  /** Runs `work` after the first paint (at once when it is past). */
  later(work: () => void): void {
    if (this.queue) this.queue.push(work);
    else work();
  }

  /** The tree answered with roots: the queued work runs in the next task (the answer goes out first). */
  painted(): void {
    if (this.queue === null || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.run());
  }

  /** Runs what is queued now (a command needs it before the first paint), then stops waiting. */
  run(): void {
    clearTimeout(this.timer);
    const queue = this.queue;
    if (queue === null) return;
    this.queue = null;
    for (const work of queue) {
      try {
        work();
      } catch (e) {
        this.onError(errorText(e));
      }
    }
    this.ended();
  }

  /** Stops the fallback (the extension ends before the first paint); queued work never runs. */
  dispose(): void {
    clearTimeout(this.timer);
    this.queue = null;
    this.ended();
  }
}
