/**
 * Small helpers over {@link SourceProblem} lists shared by every source, the
 * CLI and the extension: ordering and counting.
 */
import { ProblemSeverity, SourceProblem } from "./stateSource";
import { detachedString } from "../text/displayText";

/** Problems in file, then line order (whole-file problems first); stable, so a source's own order decides ties. */
export function sortProblems(problems: readonly SourceProblem[]): SourceProblem[] {
  return [...problems].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0)));
}

/** How many problems of each severity. */
export function countProblems(problems: readonly SourceProblem[]): Record<ProblemSeverity, number> {
  const out: Record<ProblemSeverity, number> = { error: 0, warning: 0, info: 0 };
  for (const p of problems) out[p.severity]++;
  return out;
}

/** True when no problem is an error. */
export function problemsOk(problems: readonly SourceProblem[]): boolean {
  return !problems.some((p) => p.severity === "error");
}

/** Where a reader puts its problems: an array, or a {@link ProblemCollector} that caps them per file. */
export interface ProblemSink {
  push(...problems: SourceProblem[]): unknown;
}

/** Most problems listed per file; the rest are counted in one "N more like this" problem per code. */
export const PROBLEMS_PER_FILE = 200;

/** Appends every item of `items` to `out` one by one (never `out.push(...items)`: a long list overflows the call stack). */
export function pushAll<T>(out: { push(item: T): unknown }, items: Iterable<T>): void {
  for (const item of items) out.push(item);
}

const SEVERITY_RANK: Record<ProblemSeverity, number> = { info: 0, warning: 1, error: 2 };

/** The summaries {@link ProblemCollector.result} made, with how many problems each stands for (a second collector adds them up). */
const SUMMARIZED = new WeakMap<SourceProblem, number>();

/**
 * Marks `p` as the summary of `n` problems a reader already counted (a file's "and N more lines
 * skipped"), so a {@link ProblemCollector} adds `n` to its count, not 1; returns `p`.
 */
export function standsFor(p: SourceProblem, n: number): SourceProblem {
  SUMMARIZED.set(p, n);
  return p;
}

/** `p` with `extra` fields added, still standing for as many problems as `p` ({@link standsFor}). */
export function extendProblem<T extends SourceProblem>(p: SourceProblem, extra: Omit<T, keyof SourceProblem>): T {
  const q = { ...p, ...extra } as T;
  const n = SUMMARIZED.get(p);
  if (n !== undefined) SUMMARIZED.set(q, n);
  return q;
}

interface Overflow {
  file: string;
  code: string;
  severity: ProblemSeverity;
  count: number;
  firstLine: number | null;
}

/**
 * Collects problems with a cap per file, so a hostile file with a million bad
 * lines costs a million counts, not a million messages: the first
 * {@link PROBLEMS_PER_FILE} of a file are kept, later ones only counted per
 * code and summarised (with the worst severity among them, so an error stays
 * an error) by {@link ProblemCollector.result}. `push` takes one or several
 * problems, so it stands in for an array where a reader pushes.
 */
export class ProblemCollector {
  private readonly kept: SourceProblem[] = [];
  private readonly perFile = new Map<string, number>();
  private readonly over = new Map<string, Overflow>();

  constructor(private readonly cap = PROBLEMS_PER_FILE) {}

  /** Adds problems (a few at a time: the arguments are not a list to spread). */
  push(...problems: SourceProblem[]): number {
    for (const p of problems) this.add(p);
    return this.kept.length;
  }

  /** Adds one problem. */
  add(p: SourceProblem): void {
    const stands = SUMMARIZED.get(p);
    if (stands !== undefined) {
      this.count(p, stands); // a summary of an earlier collector: its count joins this one's
      return;
    }
    const n = this.perFile.get(p.file) ?? 0;
    if (n < this.cap) {
      this.perFile.set(p.file, n + 1);
      // Its own copy of the message: one built from a slice of a line would keep the whole line.
      this.kept.push({ ...p, message: detachedString(p.message) });
      return;
    }
    this.count(p, 1);
  }

  /** Counts `n` problems like `p` without listing them. */
  private count(p: SourceProblem, n: number): void {
    const key = `${p.file}\0${p.code}`;
    const o = this.over.get(key);
    if (o === undefined) {
      this.over.set(key, { file: p.file, code: p.code, severity: p.severity, count: n, firstLine: p.line });
      return;
    }
    o.count += n;
    if (o.firstLine === null || (p.line !== null && p.line < o.firstLine)) o.firstLine = p.line;
    if (SEVERITY_RANK[p.severity] > SEVERITY_RANK[o.severity]) o.severity = p.severity;
  }

  /** Adds every problem of `problems`. */
  addAll(problems: Iterable<SourceProblem>): void {
    for (const p of problems) this.add(p);
  }

  /** True once `file` has its cap (a reader may then count instead of building messages). */
  full(file: string): boolean {
    return (this.perFile.get(file) ?? 0) >= this.cap;
  }

  /** How many problems were counted but not kept. */
  get omitted(): number {
    let n = 0;
    for (const o of this.over.values()) n += o.count;
    return n;
  }

  /** The kept problems, then one summary per file and code of those only counted. */
  result(): SourceProblem[] {
    const out = this.kept.slice();
    for (const o of this.over.values()) {
      const summary: SourceProblem = {
        file: o.file,
        line: o.firstLine,
        severity: o.severity,
        code: o.code,
        message: `${o.count} more like this (${o.code}) in ${o.file}${o.firstLine !== null ? `, the first at line ${o.firstLine}` : ""}; not listed (at most ${this.cap} problems are listed per file). Fix the ones listed and check again.`,
      };
      SUMMARIZED.set(summary, o.count);
      out.push(summary);
    }
    return out;
  }
}

/** `problems` with at most `cap` per file, the rest summarised per code (see {@link ProblemCollector}). */
export function capProblems(problems: Iterable<SourceProblem>, cap = PROBLEMS_PER_FILE): SourceProblem[] {
  const c = new ProblemCollector(cap);
  c.addAll(problems);
  return c.result();
}

/** `{ unreadable: [...] }` for a `sources` summary when some present file was not read (then `sources` exits 1), else nothing. */
export function unreadableKey(refused: readonly SourceProblem[]): { unreadable?: string[] } {
  return refused.length === 0 ? {} : { unreadable: refused.map((p) => `${p.file}: ${p.message}`) };
}
