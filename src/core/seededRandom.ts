/**
 * sfc32: a small, fast, seedable 32-bit PRNG, so generated corpora, benchmark ledgers and the demo
 * are the same on every run. The one seeded generator of the repository: the benchmark generator,
 * the differential and property tests and the demo all draw from it.
 */
export class SeededRandom {
  private a = 0x9e3779b9;
  private b = 0x243f6a88;
  private c = 0xb7e15162;
  private d: number;

  constructor(seed: number) {
    this.d = seed | 0;
    for (let i = 0; i < 20; i++) this.next();
  }

  /** The next uint32. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) + t;
    this.c |= 0;
    return t >>> 0;
  }

  /** A number in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor((this.next() / 4294967296) * n);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() / 4294967296 < p;
  }

  /** A uniformly chosen item. */
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }
}
