/**
 * Whether the editor's *Resume Run* may run `autodev resume` now. It may not while the response
 * AutoDev waits for is missing, still the template, or fails AutoDev's own rules: recorded against
 * the real AutoDev (test/fixtures/autodev-real-run-templates/), `resume` deletes inline-state.json
 * and re-runs the task from the developer step *before* it reads the waited-for response, so a
 * response it then refuses still costs ledger entries, the suspend state and, waiting on the critic,
 * one more retry; and a template it takes (an older one with `success: true`) completes a task with
 * no test run or escalates on a verdict nobody gave. Pure.
 */
import type { InlineWaiting } from "./inlineState";

/** Why Resume Run refuses, and where to go to fix it. */
export interface ResumeRefusal {
  /** One sentence: what is wrong and what to do. */
  readonly reason: string;
  /** The workspace-relative file to open. */
  readonly file: string;
  /** Its 1-based line, when one is to blame. */
  readonly line: number | null;
}

/** What `autodev resume` does before it reads the response, said once in each refusal. */
const RESUME_FIRST =
  "autodev resume would delete inline-state.json and re-run the task from the developer step before it reads that file";

/** The same for the plan phase (`resume` does not continue it; `autodev plan` re-reads the answers). */
const RESUME_PLAN =
  "autodev resume would delete inline-state.json and stop, and the next autodev plan would fail on that file";

/** The refusal for the run's wait, or null when Resume Run may go on (no wait, a stale one, or an answer AutoDev takes). */
export function resumeRefusal(w: InlineWaiting | null, stale: boolean): ResumeRefusal | null {
  if (w === null || stale) return null;
  const r = w.response;
  const who = `the ${w.role} for ${w.taskId}`;
  if (r.state === "missing") {
    return {
      reason: `${w.responsePath} is not written yet: create the response (Create Response), fill it in as ${who}, save it, then Resume Run.`,
      file: w.delegationPath,
      line: null,
    };
  }
  const first = w.taskId === "plan" ? RESUME_PLAN : RESUME_FIRST;
  if (r.state === "unfilled") {
    return {
      reason: `${w.responsePath} is still the template (line ${r.error?.line ?? 1} holds a <replace: …> placeholder): ${first}. Replace every placeholder with the answer of ${who} (success true or false), save it, then Resume Run.`,
      file: w.responsePath,
      line: r.error?.line ?? null,
    };
  }
  if (r.state === "invalid") {
    return {
      reason: `${w.responsePath} fails AutoDev's rules (${r.error ? `line ${r.error.line}, ${r.error.path}: ${r.error.message}` : "unreadable"}), so AutoDev would refuse it, but ${first}. Fix it, save it, then Resume Run.`,
      file: w.responsePath,
      line: r.error?.line ?? null,
    };
  }
  return null;
}
