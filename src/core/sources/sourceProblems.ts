/**
 * Small helpers over {@link SourceProblem} lists shared by every source, the
 * CLI and the extension: ordering and counting.
 */
import { ProblemSeverity, SourceProblem } from "./stateSource";

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
