/**
 * What a running AutoDev is doing, from what it has written so far: the task whose status is
 * between `in_progress` and `tournamented` and the step that status leads to (AutoDev's execute
 * loop: developer → QA gates → reviewer → test engineer → impl tournament → lessons), the pass of
 * an unfinished tournament (its `pass_NN/` folders written so far + 1) and which variants of that
 * pass have their worktree (`b-…`, `ab-…`, one each per pass); in the plan phase, the plan
 * tournament's pass; at the retry limit, the critic. For example "task 1.2 · impl tournament pass 2 ·
 * variant B made · retry 1".
 */
import type { TournamentSummary } from "../tournaments/tournamentIndex";

/** The step a task's status leads to next. */
const NEXT_STEP: Readonly<Record<string, string>> = {
  in_progress: "developer",
  coded: "QA gates",
  auto_gated: "reviewer",
  reviewed: "test engineer",
  tested: "impl tournament",
  tournamented: "recording lessons",
};

function passOf(t: TournamentSummary): string {
  const n = t.passArtifacts.length + 1;
  const wt = (t.worktrees ?? []).map((w) => w.slice("worktrees/".length));
  const b = wt.filter((w) => w.startsWith("b-")).length;
  const ab = wt.filter((w) => w.startsWith("ab-")).length;
  const made = ab >= n ? " · variants B and AB made" : b >= n ? " · variant B made" : "";
  return `${t.phase} tournament pass ${n}${made}`;
}

/** The latest unfinished tournament of `phase` (for `taskId`), preferring one whose worktrees exist. */
function unfinished(ts: readonly TournamentSummary[], phase: string, taskId: string | null): TournamentSummary | null {
  const open = ts.filter((t) => !t.finished && t.phase === phase && (taskId === null || t.taskId === taskId));
  return open.find((t) => (t.worktrees ?? []).length > 0) ?? open[open.length - 1] ?? null;
}

/** One line saying what AutoDev is doing (see the module comment). */
export function runningActivity(
  tasks: ReadonlyArray<{ readonly id: string; readonly status: string; readonly retries: number }> | null,
  tournaments: readonly TournamentSummary[],
  retryLimit: number | null,
): string {
  if (tasks === null) {
    const t = unfinished(tournaments, "plan", null);
    return t ? `plan phase · ${passOf(t)}` : "plan phase";
  }
  const task = tasks.find((t) => t.status in NEXT_STEP);
  if (!task) return "between tasks";
  const retry = task.retries > 0 ? ` · retry ${task.retries}` : "";
  // At the limit the next move is the critic, then the block (execute_phase's _try_retry_or_escalate).
  if (retryLimit !== null && task.retries >= retryLimit) return `task ${task.id} · critic_sounding_board${retry}`;
  const step = NEXT_STEP[task.status];
  if (task.status !== "tested") return `task ${task.id} · ${step}${retry}`;
  const t = unfinished(tournaments, "impl", task.id);
  return `task ${task.id} · ${t ? passOf(t) : "impl tournament starting"}${retry}`;
}
