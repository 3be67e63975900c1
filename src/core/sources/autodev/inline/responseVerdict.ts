/**
 * What AutoDev's execute loop makes of a response's text, as its Python code
 * reads it (`orchestrator/execute_phase.py`): the reviewer's verdict
 * (`_parse_review_verdict`: the first non-blank line naming REJECTED,
 * NEEDS_CHANGES / NEEDS CHANGES or APPROVED decides, APPROVED when none does,
 * NEEDS_CHANGES for an empty text), the test engineer's counts
 * (`_parse_test_counts`: `passed=N failed=M total=T`, zeros when absent) and
 * the developer's `success`. Used to tell, before `autodev resume` runs,
 * whether the answer will send the task round the retry loop.
 */
import type { InlineResponseFile } from "./inlineSchemas";
import { pyStrip } from "../../../pyjson/pyBuiltins";

/** Python's `str.splitlines()` line boundaries. */
// eslint-disable-next-line no-control-regex -- Python splits lines at these control characters too
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** The reviewer's verdict as `_parse_review_verdict` decides it. */
export function reviewVerdict(text: string): "APPROVED" | "NEEDS_CHANGES" | "REJECTED" {
  if (!text) return "NEEDS_CHANGES";
  for (const line of text.split(PY_LINE_BREAK)) {
    const s = pyStrip(line);
    if (!s) continue;
    const upper = s.toUpperCase();
    if (upper.includes("REJECTED")) return "REJECTED";
    if (upper.includes("NEEDS_CHANGES") || upper.includes("NEEDS CHANGES")) return "NEEDS_CHANGES";
    if (upper.includes("APPROVED")) return "APPROVED";
  }
  return "APPROVED";
}

/** `_parse_test_counts`'s pattern (it searches the whole text, case-insensitively). */
const RESULTS_RE = /passed\s*=\s*(\d+)\s+failed\s*=\s*(\d+)\s+total\s*=\s*(\d+)/i;

/** True when the text holds a line `_parse_test_counts` reads counts from (zeros included). */
export function hasResultsLine(text: string): boolean {
  return RESULTS_RE.test(text);
}

/** `passed`, `failed`, `total` as `_parse_test_counts` reads them (zeros without a RESULTS line). */
export function testCounts(text: string): { passed: number; failed: number; total: number } {
  const m = RESULTS_RE.exec(text);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), total: Number(m[3]) } : { passed: 0, failed: 0, total: 0 };
}

/**
 * Why this answer fails its step (so the loop retries), or null when it passes: a developer's
 * `success: false`, a reviewer's NEEDS_CHANGES / REJECTED, a test engineer's failures or `success: false`.
 */
export function stepFailure(role: string, r: InlineResponseFile | null): string | null {
  if (r === null) return null;
  if (role === "developer") return r.success ? null : "reports failure (success: false)";
  if (role === "reviewer") {
    const v = reviewVerdict(r.text);
    return v === "APPROVED" ? null : `asks for changes (${v})`;
  }
  if (role === "test_engineer") {
    const c = testCounts(r.text);
    if (c.failed > 0) return `reports failing tests (failed=${c.failed})`;
    return r.success ? null : "reports failure (success: false)";
  }
  return null;
}
