/**
 * One-line, human summaries of evidence bundles, for tree items and the CLI:
 * "review APPROVED with 2 issues", "tests 41/42 passed, 87.5% coverage",
 * "tournament won by AB after 3 passes, converged".
 */
import { Evidence } from "./evidenceSchemas";

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function fmtPct(x: number): string {
  return `${Math.round(x * 10) / 10}%`;
}

/** A one-line summary of a bundle. */
export function summarizeEvidence(e: Evidence): string {
  switch (e.kind) {
    case "developer":
      return `developer ${e.success ? "succeeded" : "failed"}: ${plural(e.files_changed.length, "file")} changed${e.duration_s ? ` in ${Math.round(e.duration_s * 10) / 10}s` : ""}${e.diff ? ", with diff" : ""}`;
    case "review":
      return `review ${e.verdict} with ${plural(e.issues.length, "issue")}`;
    case "critic":
      return `critic ${e.verdict} with ${plural(e.issues.length, "issue")}`;
    case "test": {
      const total = Number(e.total);
      const passed = Number(e.passed);
      const cov = e.coverage_pct === null || e.coverage_pct === undefined ? "" : `, ${fmtPct(e.coverage_pct)} coverage`;
      return `tests ${passed}/${total} passed${Number(e.failed) ? `, ${e.failed} failed` : ""}${cov}`;
    }
    case "explore":
      return `explore: ${plural(e.files_referenced.length, "file")} referenced`;
    case "domain_expert":
      return `domain expert${e.topic ? ` on ${e.topic}` : ""} (${e.confidence} confidence)`;
    case "tournament":
      return `${e.phase} tournament won by ${e.winner} after ${Number(e.passes)} pass${Number(e.passes) === 1 ? "" : "es"}, ${e.converged ? "converged" : "not converged"}`;
    default:
      return `unknown evidence kind ${(e as { kind: string }).kind}`;
  }
}
