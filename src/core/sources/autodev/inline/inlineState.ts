/**
 * Inline mode: when `.autodev/inline-state.json` exists the run is suspended,
 * waiting for an agent to answer a delegation (Python's
 * `orchestrator/inline_state.py`, `adapters/inline.py`). Reads the suspend
 * state, the pending delegation and response (missing / present / invalid
 * against `InlineResponseFile`, with the error's line, and a response for
 * another task or role is invalid as `collect_response` says), and every
 * answered response of earlier steps. Paths are rebuilt from the task and
 * role, never taken from the file. Never throws.
 */
import { isSafeSegment } from "../autodevPaths";
import { isPlainWorkspaceFile, listWorkspaceDir, readWorkspaceStateFile } from "../stateFile";
import { LocatedError, validateJsonText } from "../validateJson";
import { InlineResponseFile, InlineResponseFileSchema, InlineSuspendStateSchema } from "./inlineSchemas";
import { DELEGATIONS_REL, INLINE_STATE_REL, RESPONSES_REL, delegationRel, responseRel } from "./inlinePaths";
import { placeholderLines } from "./responseFile";

/**
 * How a response file stands: `unfilled` while it still holds a template placeholder (whether
 * pydantic takes it or not: our template's `success` placeholder makes AutoDev refuse it; an older
 * template it would take as an answer nobody gave).
 */
type ResponseState = "missing" | "present" | "invalid" | "unfilled";

/** One response file read. */
export interface ResponseCheck {
  readonly file: string;
  readonly state: ResponseState;
  /** Why it is invalid or unfilled (with the line of the first placeholder), null otherwise. */
  readonly error: LocatedError | null;
  readonly response: InlineResponseFile | null;
}

/** The suspended step. */
export interface InlineWaiting {
  readonly taskId: string;
  readonly role: string;
  readonly step: string;
  readonly retryCount: number;
  readonly lastIssues: readonly string[];
  readonly sessionId: string;
  readonly suspendedAt: string;
  /** `.autodev/delegations/{task}-{role}.md` (workspace-relative). */
  readonly delegationPath: string;
  readonly delegationExists: boolean;
  readonly responsePath: string;
  readonly response: ResponseCheck;
  /** Set when the file's own paths differ from the ones Python derives (they are not followed). */
  readonly pathNote: string | null;
}

/** What inline mode looks like on disk. */
export interface InlineReport {
  /** null when there is no inline-state.json (not suspended). */
  readonly waiting: InlineWaiting | null;
  /** Problems with inline-state.json itself (invalid, unreadable, unsafe ids). */
  readonly errors: readonly LocatedError[];
  /** Every response file (answered steps included), by file name. */
  readonly responses: readonly ResponseCheck[];
  /** Every delegation file name. */
  readonly delegations: readonly string[];
  /** Listing problems of delegations/ or responses/. */
  readonly listErrors: readonly string[];
}

/** Reads and checks one response file against the task and role it should answer (null = any). */
async function checkResponse(
  cwd: string,
  rel: string,
  expect: { taskId: string; role: string } | null,
): Promise<ResponseCheck> {
  const read = await readWorkspaceStateFile(cwd, rel);
  if (read.kind === "missing") return { file: rel, state: "missing", error: null, response: null };
  if (read.kind === "error") {
    return { file: rel, state: "invalid", error: { path: "(file)", message: read.error, line: 1 }, response: null };
  }
  const v = validateJsonText(read.text, InlineResponseFileSchema);
  const held = placeholderLines(read.text);
  if (held.length > 0) {
    const message = v.ok
      ? "not filled in: a template placeholder is still there, and AutoDev would take the file as the answer"
      : `not filled in: a template placeholder is still there, and AutoDev refuses the file (${v.errors[0].path}: ${v.errors[0].message})`;
    return {
      file: rel,
      state: "unfilled",
      error: { path: "(template)", message, line: held[0] },
      response: v.ok ? v.value : null,
    };
  }
  if (!v.ok) return { file: rel, state: "invalid", error: v.errors[0], response: null };
  const r = v.value;
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  const want = expect ?? { taskId: r.task_id, role: r.role };
  if (r.task_id !== want.taskId || r.role !== want.role || name !== `${r.task_id}-${r.role}.json`) {
    const line = v.lines.exactLineOf(["task_id"]) ?? 1;
    return {
      file: rel,
      state: "invalid",
      error: {
        path: "task_id",
        message: `response mismatch: expected ${want.taskId}/${want.role} (file ${name}), got ${r.task_id}/${r.role}`,
        line,
      },
      response: r,
    };
  }
  return { file: rel, state: "present", error: null, response: r };
}

/** Reads inline mode's files under `cwd/.autodev/`. */
export async function readInlineState(cwd: string): Promise<InlineReport> {
  const listErrors: string[] = [];
  const dels = await listWorkspaceDir(cwd, DELEGATIONS_REL);
  if (!dels.ok) listErrors.push(dels.error);
  const delegations = dels.ok ? dels.names.filter((n) => n.endsWith(".md")) : [];
  const resp = await listWorkspaceDir(cwd, RESPONSES_REL);
  if (!resp.ok) listErrors.push(resp.error);
  const responses: ResponseCheck[] = [];
  for (const name of resp.ok ? resp.names.filter((n) => n.endsWith(".json")).slice(0, 500) : []) {
    responses.push(await checkResponse(cwd, `${RESPONSES_REL}/${name}`, null));
  }
  const read = await readWorkspaceStateFile(cwd, INLINE_STATE_REL);
  if (read.kind === "missing") return { waiting: null, errors: [], responses, delegations, listErrors };
  if (read.kind === "error") {
    return {
      waiting: null,
      errors: [{ path: "(file)", message: read.error, line: 1 }],
      responses,
      delegations,
      listErrors,
    };
  }
  const v = validateJsonText(read.text, InlineSuspendStateSchema);
  if (!v.ok) return { waiting: null, errors: v.errors, responses, delegations, listErrors };
  const s = v.value;
  if (!isSafeSegment(`${s.pending_task_id}-${s.pending_role}.json`) || !isSafeSegment(s.pending_task_id)) {
    const line = v.lines.exactLineOf(["pending_task_id"]) ?? 1;
    return {
      waiting: null,
      errors: [
        {
          path: "pending_task_id",
          message: `task ${JSON.stringify(s.pending_task_id)} / role ${JSON.stringify(s.pending_role)} do not make a safe file name; not followed`,
          line,
        },
      ],
      responses,
      delegations,
      listErrors,
    };
  }
  const delegationPath = delegationRel(s.pending_task_id, s.pending_role);
  const responsePath = responseRel(s.pending_task_id, s.pending_role);
  const norm = (p: string) => p.replace(/\\/g, "/").replace(/^\.\//, "");
  const odd = [
    norm(s.delegation_path) !== delegationPath ? `delegation_path ${JSON.stringify(s.delegation_path)}` : null,
    norm(s.response_path) !== responsePath ? `response_path ${JSON.stringify(s.response_path)}` : null,
  ].filter((x) => x !== null);
  return {
    waiting: {
      taskId: s.pending_task_id,
      role: s.pending_role,
      step: s.orchestrator_step,
      retryCount: s.retry_count,
      lastIssues: s.last_issues,
      sessionId: s.session_id,
      suspendedAt: s.suspended_at,
      delegationPath,
      delegationExists: await isPlainWorkspaceFile(cwd, delegationPath),
      responsePath,
      response: await checkResponse(cwd, responsePath, { taskId: s.pending_task_id, role: s.pending_role }),
      pathNote: odd.length
        ? `${odd.join(" and ")} differ from where autodev resume looks (${delegationPath}, ${responsePath}); those are shown instead`
        : null,
    },
    errors: [],
    responses,
    delegations,
    listErrors,
  };
}

/** "Waiting on reviewer for 2.3 (retry 2)" or "(retry 2/3)" when the limit is known. */
export function waitingLabel(w: InlineWaiting, retryLimit: number | null = null): string {
  const retry = w.retryCount > 0 ? ` (retry ${w.retryCount}${retryLimit !== null ? `/${retryLimit}` : ""})` : "";
  return `Waiting on ${w.role} for ${w.taskId}${retry}`;
}
