/**
 * The registry's coalescing of changes into refreshes (`autodev.debounceMs`), on a fake clock: a
 * throttle, so a writer that never pauses still shows within the delay (a debounce that restarts
 * at every change would show nothing until the writer stopped), and at most one refresh per delay
 * after the first.
 */
import { strict as assert } from "node:assert";
import { RefreshSpells, type SpellTimers } from "../../../src/extension/watch/refreshSpells";

/** A clock moved by hand: `advance(ms)` runs every timer due by then, in time order. */
class FakeClock implements SpellTimers {
  now = 0;
  private next = 0;
  private readonly due = new Map<number, { at: number; run: () => void }>();
  set(run: () => void, ms: number): unknown {
    const id = ++this.next;
    this.due.set(id, { at: this.now + ms, run });
    return id;
  }
  clear(handle: unknown): void {
    this.due.delete(handle as number);
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const first = [...this.due.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!first) break;
      this.due.delete(first[0]);
      this.now = first[1].at;
      first[1].run();
    }
    this.now = end;
  }
  get pending(): number {
    return this.due.size;
  }
}

/** Calls `key` every `every` ms for `forMs`, recording when each run happened. */
function steadyWriter(clock: FakeClock, spells: RefreshSpells, every: number, forMs: number, leading: boolean) {
  const runs: number[] = [];
  for (let t = 0; t < forMs; t += every) {
    spells.call("k", 150, () => runs.push(clock.now), leading);
    clock.advance(every);
  }
  return runs;
}

describe("refresh spells (the one throttle of autodev.debounceMs)", () => {
  it("a leading key runs the first change at once, and the changes in the spell once at its end", () => {
    const clock = new FakeClock();
    const spells = new RefreshSpells(clock);
    const runs: number[] = [];
    spells.call("k", 150, () => runs.push(clock.now), true);
    assert.deepEqual(runs, [0]);
    clock.advance(100);
    spells.call("k", 150, () => runs.push(clock.now), true);
    clock.advance(20);
    spells.call("k", 150, () => runs.push(clock.now), true);
    // The end is the spell's start plus the delay, not the last change plus the delay (270).
    clock.advance(200);
    assert.deepEqual(runs, [0, 150]);
    assert.equal(clock.pending, 0, "a quiet spell after the trailing run ends without a timer left");
  });

  it("a leading key's lone change runs once, not again at the spell's end", () => {
    const clock = new FakeClock();
    const spells = new RefreshSpells(clock);
    let n = 0;
    spells.call("k", 150, () => n++, true);
    clock.advance(1_000);
    assert.equal(n, 1);
  });

  it("any other key runs once at the spell's end, with the latest run given", () => {
    const clock = new FakeClock();
    const spells = new RefreshSpells(clock);
    const runs: string[] = [];
    spells.call("k", 150, () => runs.push(`a@${clock.now}`));
    clock.advance(140);
    spells.call("k", 150, () => runs.push(`b@${clock.now}`));
    assert.deepEqual(runs, []);
    clock.advance(10);
    assert.deepEqual(runs, ["b@150"]);
  });

  it("a writer that never pauses is shown within the delay, at most one refresh per delay", () => {
    for (const leading of [true, false]) {
      const clock = new FakeClock();
      const runs = steadyWriter(clock, new RefreshSpells(clock), 100, 3_000, leading);
      // A debounce restarted by every change would have run only at the start (leading) or never.
      assert.ok(runs.length >= 19, `${leading}: ${runs.length} runs in 3 s of changes every 100 ms`);
      const gaps = runs.slice(1).map((t, i) => t - runs[i]);
      assert.ok(Math.max(...gaps) <= 150, `${leading}: no gap over the delay: ${gaps.join(",")}`);
      assert.ok(Math.min(...gaps) >= 150, `${leading}: no two runs within one delay: ${gaps.join(",")}`);
    }
  });

  it("keys are apart; cancel forgets a spell without running it; dispose stops everything", () => {
    const clock = new FakeClock();
    const spells = new RefreshSpells(clock);
    const runs: string[] = [];
    spells.call("a", 150, () => runs.push("a"));
    spells.call("b", 50, () => runs.push("b"));
    clock.advance(60);
    assert.deepEqual(runs, ["b"]);
    spells.cancel("a");
    assert.equal(spells.has("a"), false);
    clock.advance(200);
    assert.deepEqual(runs, ["b"]);
    spells.call("c", 150, () => runs.push("c"));
    spells.dispose();
    spells.call("d", 150, () => runs.push("d"), true);
    clock.advance(500);
    assert.deepEqual(runs, ["b"]);
    assert.equal(clock.pending, 0);
  });

  it("a run that calls again (a refresh hearing its own change) joins the next spell", () => {
    const clock = new FakeClock();
    const spells = new RefreshSpells(clock);
    const runs: number[] = [];
    const run = (): void => {
      runs.push(clock.now);
      if (runs.length < 3) spells.call("k", 150, run);
    };
    spells.call("k", 150, run);
    clock.advance(1_000);
    assert.deepEqual(runs, [150, 300, 450]);
  });
});
