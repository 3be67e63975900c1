/**
 * The task state machine (design §3.4), with the same edges as Python
 * AutoDev's transitions table: any in-flight state may fall back to
 * `in_progress` on retry or to `blocked` on hard failure; `skipped` is the
 * user's escape hatch from `pending`; `blocked` leaves only by an explicit resume.
 */
import { InvalidTransitionError } from "../../../errors";

/** Allowed next statuses for each status. */
export const TASK_TRANSITIONS: Readonly<Record<string, readonly string[]>> = {
  pending: ["in_progress", "skipped", "blocked"],
  in_progress: ["coded", "blocked", "in_progress"],
  coded: ["auto_gated", "in_progress", "blocked"],
  auto_gated: ["reviewed", "in_progress", "blocked"],
  reviewed: ["tested", "in_progress", "blocked"],
  tested: ["tournamented", "in_progress", "blocked"],
  tournamented: ["complete", "blocked"],
  complete: [],
  blocked: ["in_progress"],
  skipped: [],
};

/** True iff `from -> to` is an edge (self-loops only where listed: `in_progress`). */
export function canTransition(from: string, to: string): boolean {
  const allowed = Object.prototype.hasOwnProperty.call(TASK_TRANSITIONS, from) ? TASK_TRANSITIONS[from] : [];
  return allowed.includes(to);
}

/** Throws {@link InvalidTransitionError} when `from -> to` is not allowed. */
export function assertTransition(from: string, to: string): void {
  if (!canTransition(from, to)) {
    const allowed = Object.prototype.hasOwnProperty.call(TASK_TRANSITIONS, from) ? TASK_TRANSITIONS[from] : [];
    throw new InvalidTransitionError(from, to, [...allowed].sort());
  }
}
