/**
 * The one coalescing of changes into refreshes (`autodev.debounceMs`), per key (a folder's source,
 * its live files, a workspace folder's re-detection). It is a throttle, not a debounce: a spell
 * starts at the first call and ends a fixed delay later, whatever comes in it, so a writer that
 * never pauses (an agent's burst of status changes, a loop rewriting its state file every 100 ms)
 * still shows within the delay instead of only after it stops.
 *
 * - `leading` (a folder whose writer replaces files atomically): the first call of a quiet time runs
 *   at once; calls within the spell run once more at its end.
 * - otherwise: the first call's run waits for the spell's end, with every call in it.
 *
 * After a spell that ended with a run, the next spell starts without a leading run, so a steady
 * writer costs at most one refresh per delay.
 */

/** The timers this uses (tests pass a fake clock). */
export interface SpellTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** setTimeout and clearTimeout. */
export const REAL_TIMERS: SpellTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

interface Spell {
  readonly handle: unknown;
  /** A call since the spell started (or since its leading run) still has to run. */
  trailing: boolean;
  run: () => void;
}

/** Spells in progress, by key. */
export class RefreshSpells {
  private readonly spells = new Map<string, Spell>();
  private disposed = false;

  constructor(private readonly timers: SpellTimers = REAL_TIMERS) {}

  /**
   * `run` (the latest one given for `key` wins) at once when `leading` and no spell of `key` is in
   * progress, else at the end of the spell in progress or of one that starts now, `ms` long.
   */
  call(key: string, ms: number, run: () => void, leading = false): void {
    if (this.disposed) return;
    const spell = this.spells.get(key);
    if (spell) {
      spell.trailing = true;
      spell.run = run;
      return;
    }
    this.start(key, ms, run, !leading);
    if (leading) run();
  }

  /** Forgets `key`'s spell without running it. */
  cancel(key: string): void {
    const spell = this.spells.get(key);
    if (!spell) return;
    this.timers.clear(spell.handle);
    this.spells.delete(key);
  }

  /** Whether a spell of `key` is in progress. */
  has(key: string): boolean {
    return this.spells.has(key);
  }

  /** Forgets every spell; later calls do nothing. */
  dispose(): void {
    this.disposed = true;
    for (const key of [...this.spells.keys()]) this.cancel(key);
  }

  private start(key: string, ms: number, run: () => void, trailing: boolean): void {
    const handle = this.timers.set(() => {
      const ended = this.spells.get(key);
      if (!ended || ended.handle !== handle) return;
      this.spells.delete(key);
      if (!ended.trailing || this.disposed) return;
      // The run may call again (a refresh that hears its own change): those calls join the next spell.
      this.start(key, ms, ended.run, false);
      ended.run();
    }, ms);
    this.spells.set(key, { handle, trailing, run });
  }
}
