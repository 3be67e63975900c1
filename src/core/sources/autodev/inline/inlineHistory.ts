/**
 * Every delegation and response of inline mode, per task, with what AutoDev
 * will do with it — read from how Python's orchestrator uses these files
 * (`orchestrator/execute_phase.py` `delegate`, `Orchestrator.resume`,
 * `cli/commands/resume.py`):
 * - a step is *waiting* while inline-state.json names it and its response is
 *   not written, *answered* once the response is there (the next resume reads it);
 * - any other response file has been *read* already — AutoDev writes one
 *   delegation at a time and reads its response on the next run — but it stays
 *   in `responses/`, and AutoDev reads it again whenever that step comes round:
 *   `resume` re-runs an in-flight task from its developer step (so it needs the
 *   earlier answers), every retry of the loop takes the same files again, and
 *   `execute --task` on a blocked task re-reads them all;
 * - such a response is *stale* (a hazard, warned) when reading it again does
 *   harm: every response of a blocked task (`execute --task` would block it
 *   again at once, asking no one), of a task not started yet (`execute` would
 *   take it without a delegation), and the answer a failing step will be
 *   retried with (a reviewer's NEEDS_CHANGES in inline mode never reaches the
 *   developer: the same developer and reviewer responses are read on every
 *   retry until AutoDev escalates), and, while the run waits on the critic,
 *   the task's other responses: once the critic answers, `resume` re-runs the
 *   task from the developer step on them, counts one more retry, reads the
 *   critic's answer and blocks the task (seen in the real run: retry 3 → 4);
 * - a response still holding the template's placeholder is not an answer: the
 *   waiting step stays *waiting* and no verdict is read from it;
 * - inline-state.json itself is *stale* when it names the plan phase after the
 *   plan is stored (Python's `autodev plan` never clears it) or a task that is
 *   already done.
 * Pure: it works on what {@link readInlineState} read.
 */
import type { InlineReport, ResponseCheck } from "./inlineState";
import { delegationRel, responseRel } from "./inlinePaths";
import { stepFailure } from "./responseVerdict";

/** Where a step stands. */
export type InlineStepState = "waiting" | "answered" | "read" | "stale" | "unanswered";

/** One delegation/response pair (either may be missing). */
export interface InlineStep {
  readonly taskId: string;
  readonly role: string;
  /** Workspace-relative delegation file, or null when there is none. */
  readonly delegation: string | null;
  readonly response: ResponseCheck | null;
  readonly state: InlineStepState;
  /** One sentence: what AutoDev does with it. */
  readonly note: string;
}

/** A task's status as the history needs it. */
export interface HistoryTask {
  readonly id: string;
  readonly status: string;
}

/** A hazard: the response files it is about, and what to say (with what to do). */
interface InlineHazard {
  readonly code: "stale_response" | "inline_retry_reuses_response" | "inline_critic_rereads_responses";
  readonly taskId: string;
  readonly files: readonly string[];
  readonly message: string;
}

/** The whole inline history of a workspace. */
export interface InlineHistory {
  /** In task order (plan first, then the plan's order, then unknown ids), roles in pipeline order. */
  readonly steps: readonly InlineStep[];
  /** Why inline-state.json no longer means "waiting", or null. */
  readonly staleWaiting: string | null;
  readonly hazards: readonly InlineHazard[];
}

/** Roles in the order a task meets them. */
const ROLE_ORDER: readonly string[] = [
  "explorer",
  "domain_expert",
  "architect",
  "developer",
  "reviewer",
  "test_engineer",
  "critic_sounding_board",
];

const DONE = ["complete", "skipped"];
const CRITIC = "critic_sounding_board";

/**
 * The warning while the run waits on the critic and the task's earlier answers are still there:
 * what the next resume does with them (AutoDev's `resume` re-runs the in-flight task from the
 * developer step; the retry limit is already reached, so the first failing step calls the critic,
 * whose answer is then there, and the task is escalated and blocked) and how to avoid it.
 */
function criticHazard(taskId: string, files: readonly string[]): InlineHazard {
  const names = files.map((f) => f.slice(f.lastIndexOf("/") + 1)).join(", ");
  return {
    code: "inline_critic_rereads_responses",
    taskId,
    files,
    message: `task ${taskId} waits on ${CRITIC}, but its answers AutoDev already read are still in .autodev/responses/ (${names}): once the critic answers, \`autodev resume\` re-runs task ${taskId} from the developer step on them, counts one more retry, reads the critic's answer, marks the task escalated and blocks it. To have the task done again instead, move ${files.length === 1 ? "it" : "them"} out of .autodev/responses/ before you resume: AutoDev then writes a new developer delegation.`,
  };
}

/** `{task}-{role}` of a delegation or response file name (a known role's suffix first, else the last `-`). */
export function splitStepName(base: string): { taskId: string; role: string } | null {
  for (const role of ROLE_ORDER) {
    if (base.endsWith(`-${role}`) && base.length > role.length + 1) {
      return { taskId: base.slice(0, -role.length - 1), role };
    }
  }
  const at = base.lastIndexOf("-");
  return at > 0 && at < base.length - 1 ? { taskId: base.slice(0, at), role: base.slice(at + 1) } : null;
}

/** Why inline-state.json is stale, or null when it still means the run waits. */
function staleReason(report: InlineReport, tasks: readonly HistoryTask[] | null): string | null {
  const w = report.waiting;
  if (!w) return null;
  const who = `${w.taskId}/${w.role}`;
  const missing = w.response.state === "missing";
  const resumeDoes = missing
    ? "its response is missing, so `autodev resume` would wait for it forever: delete .autodev/inline-state.json or run `autodev execute`"
    : "the next `autodev resume` deletes it and goes on with the plan; `autodev execute` overwrites it";
  if (w.taskId === "plan") {
    return tasks === null ? null : `inline-state.json still names ${who}, but the plan is stored: ${resumeDoes}`;
  }
  if (tasks === null) return null;
  const task = tasks.find((t) => t.id === w.taskId);
  if (!task) return `inline-state.json names ${who}, but the plan has no task ${w.taskId}: ${resumeDoes}`;
  if (DONE.includes(task.status)) {
    return `inline-state.json names ${who}, but task ${w.taskId} is already '${task.status}': ${resumeDoes}`;
  }
  return null;
}

/** Builds the history from the inline files and the plan's tasks (null = no plan stored yet). */
export function inlineHistory(
  report: InlineReport,
  tasks: readonly HistoryTask[] | null,
  qaRetryLimit: number | null,
): InlineHistory {
  const staleWaiting = staleReason(report, tasks);
  const w = staleWaiting === null ? report.waiting : null;
  const byKey = new Map<
    string,
    { taskId: string; role: string; delegation: boolean; response: ResponseCheck | null }
  >();
  const at = (taskId: string, role: string) => {
    const key = `${taskId}\u0000${role}`;
    let s = byKey.get(key);
    if (!s) byKey.set(key, (s = { taskId, role, delegation: false, response: null }));
    return s;
  };
  for (const d of report.delegations) {
    const id = splitStepName(d.replace(/\.md$/, ""));
    if (id) at(id.taskId, id.role).delegation = true;
  }
  for (const r of report.responses) {
    const id = splitStepName(r.file.slice(r.file.lastIndexOf("/") + 1).replace(/\.json$/, ""));
    if (id) at(id.taskId, id.role).response = r;
  }
  if (w) {
    const s = at(w.taskId, w.role);
    s.delegation = s.delegation || w.delegationExists;
    s.response = w.response.state === "missing" ? null : w.response;
  }
  const status = new Map((tasks ?? []).map((t) => [t.id, t.status]));
  const unfilled = w?.response.state === "unfilled";
  const failing = w && !unfilled ? stepFailure(w.role, w.response.response) : null;
  const onCritic = w !== null && w.role === CRITIC;
  const hazards: InlineHazard[] = [];
  const staleFiles = new Map<string, string[]>();
  const steps: InlineStep[] = [];
  const criticFiles: string[] = [];
  for (const s of byKey.values()) {
    const delegation = s.delegation ? delegationRel(s.taskId, s.role) : null;
    const isWaiting = w !== null && w.taskId === s.taskId && w.role === s.role;
    const st = status.get(s.taskId);
    let state: InlineStepState;
    let note: string;
    if (isWaiting) {
      state = s.response && !unfilled ? "answered" : "waiting";
      note = unfilled
        ? `${responseRel(s.taskId, s.role)} is still the template, not filled in: AutoDev waits for the answer`
        : s.response
          ? "answered: the next `autodev resume` reads it"
          : `AutoDev waits for ${responseRel(s.taskId, s.role)}`;
    } else if (!s.response) {
      state = "unanswered";
      note = "no response file (answered and moved away, or never answered); AutoDev is not waiting on it";
    } else if (st === "blocked" || st === "pending") {
      state = "stale";
      note =
        st === "blocked"
          ? `already read; \`autodev execute --task ${s.taskId}\` would read it again instead of asking the agent`
          : `task ${s.taskId} has not started: \`autodev execute\` would take this answer without writing a delegation`;
      staleFiles.set(s.taskId, [...(staleFiles.get(s.taskId) ?? []), s.response.file]);
    } else if (failing && w && s.taskId === w.taskId && s.role === "developer") {
      state = "stale";
      note = "already read; every retry of the failing step takes this same answer again";
    } else if (onCritic && w && s.taskId === w.taskId) {
      state = "stale";
      note = `already read; once the critic answers, \`autodev resume\` re-runs task ${s.taskId} on it and blocks the task`;
      criticFiles.push(s.response.file);
    } else {
      state = "read";
      note =
        st !== undefined && !DONE.includes(st)
          ? "already read; `autodev resume` reads it again when it re-runs the task from the developer step"
          : "already read";
    }
    steps.push({ taskId: s.taskId, role: s.role, delegation, response: s.response, state, note });
  }
  for (const [taskId, files] of staleFiles) {
    const st = status.get(taskId);
    hazards.push({
      code: "stale_response",
      taskId,
      files,
      message:
        st === "blocked"
          ? `task ${taskId} is blocked and ${files.length === 1 ? "this response was" : `${files.length} of its responses were`} already read (${files.map((f) => f.slice(f.lastIndexOf("/") + 1)).join(", ")}): \`autodev execute --task ${taskId}\` would read them again and block it again at once without asking the agent. Move them out of .autodev/responses/ before re-running the task.`
          : `task ${taskId} has not started, but .autodev/responses/ already holds ${files.map((f) => f.slice(f.lastIndexOf("/") + 1)).join(", ")}: \`autodev execute\` would take ${files.length === 1 ? "it" : "them"} as the agent's answer without writing a delegation. Move ${files.length === 1 ? "it" : "them"} away unless that is meant.`,
    });
  }
  if (w && failing) {
    const dev = byKey.get(`${w.taskId}\u0000developer`)?.response;
    const retries =
      qaRetryLimit === null
        ? ""
        : ` (retry ${w.retryCount} of ${qaRetryLimit}: ${Math.max(0, qaRetryLimit - w.retryCount - 1)} more)`;
    hazards.push({
      code: "inline_retry_reuses_response",
      taskId: w.taskId,
      files: [w.responsePath, ...(dev && w.role !== "developer" ? [dev.file] : [])],
      message: `the ${w.role} response ${failing}, but in inline mode that cannot reach the developer: \`autodev resume\` reads the same ${w.role === "developer" ? "developer response" : "developer and " + w.role + " responses"} again on every retry${retries} and then escalates task ${w.taskId} to critic_sounding_board. To have the change made, fix the code, rewrite ${responseRel(w.taskId, "developer")} and answer this step again; or let it escalate, then move task ${w.taskId}'s responses away and run \`autodev execute --task ${w.taskId}\`.`,
    });
  }
  if (w && onCritic && criticFiles.length > 0) hazards.push(criticHazard(w.taskId, criticFiles));
  const order = new Map((tasks ?? []).map((t, i) => [t.id, i + 1]));
  const rank = (id: string) => (id === "plan" ? 0 : (order.get(id) ?? Number.MAX_SAFE_INTEGER));
  const roleRank = (r: string) => (ROLE_ORDER.includes(r) ? ROLE_ORDER.indexOf(r) : ROLE_ORDER.length);
  steps.sort(
    (a, b) =>
      rank(a.taskId) - rank(b.taskId) ||
      a.taskId.localeCompare(b.taskId) ||
      roleRank(a.role) - roleRank(b.role) ||
      a.role.localeCompare(b.role),
  );
  return { steps, staleWaiting, hazards };
}
