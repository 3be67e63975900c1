/**
 * `.agloop/state.json`: the read (hooks rewrite it in place with writeFile, no rename, so a read
 * can catch it half-written: a parse failure is retried after a short delay before it is reported
 * as `invalid_json`) and its checks: the schema (strict, with the protocol's codes) and the rules
 * across fields (unique task ids, known dependencies and current task, no cycles, one task in
 * progress, phase history in order, stop_hook_active not left on).
 */
import type { SourceProblem } from "../../stateSource";
import { AGLOOP_LIMITS, STATE_FILE, delay, readAgloopFile } from "../agloopFiles";
import { stateSchema } from "./agloopSchemas";
import { asArray, asRecord, asString, quoteForMessage } from "../agloopText";
import { findCycles } from "./dependencyGraph";
import { lineAtPath, lineOfKey, parsePositionedJson, type PositionedJson } from "../jsonPositions";
import { problemsFromIssues, type FieldCode, type ValueLocator } from "./schemaProblems";
import { pushAll } from "../../sourceProblems";

/** How long to wait before re-reading a state.json that did not parse, and how many re-reads. */
export const STATE_RETRY: RetryPolicy = { delayMs: 150, retries: 2 };

/** A re-read policy for files caught mid-write. */
export interface RetryPolicy {
  readonly delayMs: number;
  readonly retries: number;
  /** Called before each wait (tests use it to finish the "write in progress"). */
  readonly onRetry?: (attempt: number) => void | Promise<void>;
}

/** The state file as read. */
export type StateRead =
  | { readonly kind: "missing" }
  | { readonly kind: "refused"; readonly problem: SourceProblem }
  | { readonly kind: "invalid"; readonly problem: SourceProblem; readonly text: string }
  | { readonly kind: "ok"; readonly json: PositionedJson; readonly text: string };

/** Reads and parses state.json, retrying a parse failure (a write in progress) before reporting it. */
export async function readStateFile(workspace: string, retry = STATE_RETRY): Promise<StateRead> {
  for (let attempt = 0; ; attempt++) {
    const read = await readAgloopFile(workspace, STATE_FILE, AGLOOP_LIMITS.stateBytes);
    if (read.kind !== "ok") return read;
    const parsed = parsePositionedJson(read.text);
    if (parsed.ok) return { kind: "ok", json: parsed.json, text: read.text };
    if (attempt >= retry.retries) {
      const { line, column, message } = parsed.error;
      return {
        kind: "invalid",
        text: read.text,
        problem: {
          file: STATE_FILE,
          line,
          column,
          severity: "error",
          code: "invalid_json",
          message: `state.json is not valid JSON at line ${line}, column ${column} (${message}); still so after ${retry.retries} re-reads ${retry.delayMs} ms apart. Recover it from a checkpoint (agloop: Recover from Checkpoint…) or fix the file.`,
        },
      };
    }
    await retry.onRetry?.(attempt + 1);
    await delay(retry.delayMs);
  }
}

/** A locator over a parsed JSON file. */
export function jsonLocator(file: string, json: PositionedJson): ValueLocator {
  return {
    file,
    lineAt: (path) => lineAtPath(json, path),
    lineOfKey: (path, key) => lineOfKey(json, path, key),
  };
}

/** The protocol's code for a schema issue on a state.json field. */
const stateFieldCode: FieldCode = (path, issue, missing) => {
  const [top, index, field] = path;
  if (top === "$schema") return missing ? "missing_field" : "schema_version";
  if (missing) return "missing_field";
  if (top === "iteration") return "iteration_range";
  if (top === "feature_name" && issue.code === "too_big") return "feature_name_too_long";
  if (top === "retry_count" && path.length >= 2) return "retry_count_invalid";
  if (top === "tasks" && typeof index === "number") {
    if (field === "id" && path.length === 3) return "task_id_format";
    if (field === "acceptance_criteria" && issue.code === "too_small") return "missing_acceptance_criteria";
  }
  return undefined;
};

/** Every problem of a parsed state.json. */
export function checkState(state: unknown, where: ValueLocator): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const parsed = stateSchema.safeParse(state);
  if (!parsed.success) pushAll(problems, problemsFromIssues(parsed.error.issues, state, where, stateFieldCode));
  const root = asRecord(state);
  if (!root) return problems;
  pushAll(problems, checkTaskGraph(root, where));
  pushAll(problems, checkCurrentWork(root, where));
  pushAll(problems, checkPhaseHistory(root, where));
  if (root.stop_hook_active === true) {
    problems.push({
      file: where.file,
      line: where.lineAt(["stop_hook_active"]),
      severity: "warning",
      code: "stop_hook_active",
      message:
        "stop_hook_active is true: the stop hook blocked a stop and the flag was left on. The next stop will be let through (escape hatch); a new session resets it.",
    });
  }
  return problems;
}

/** Duplicate ids, unknown dependencies and dependency cycles. */
function checkTaskGraph(root: Record<string, unknown>, where: ValueLocator): SourceProblem[] {
  const out: SourceProblem[] = [];
  const tasks = asArray(root.tasks);
  const firstIndex = new Map<string, number>();
  tasks.forEach((t, i) => {
    const id = asString(asRecord(t)?.id);
    if (id === undefined) return;
    const first = firstIndex.get(id);
    if (first === undefined) {
      firstIndex.set(id, i);
      return;
    }
    out.push({
      file: where.file,
      line: where.lineAt(["tasks", i, "id"]),
      severity: "error",
      code: "duplicate_task_id",
      message: `tasks[${i}].id ${quoteForMessage(id)} is also the id of tasks[${first}]; task ids must be unique. Renumber one of them.`,
    });
  });
  const edges: { from: string; to: string; path: (string | number)[] }[] = [];
  tasks.forEach((t, i) => {
    const task = asRecord(t);
    const id = asString(task?.id);
    asArray(task?.depends_on).forEach((dep, j) => {
      if (typeof dep !== "string") return;
      if (!firstIndex.has(dep)) {
        out.push({
          file: where.file,
          line: where.lineAt(["tasks", i, "depends_on", j]),
          severity: "error",
          code: "unknown_dependency",
          message: `tasks[${i}] (${quoteForMessage(id ?? "?")}) depends on ${quoteForMessage(dep)}, which is not a task of this state. Remove the dependency or add the task.`,
        });
      } else if (id !== undefined) edges.push({ from: id, to: dep, path: ["tasks", i, "depends_on", j] });
    });
  });
  for (const cycle of findCycles(edges)) {
    out.push({
      file: where.file,
      line: where.lineAt(cycle.closing.path),
      severity: "error",
      code: "dependency_cycle",
      message: `Tasks depend on each other in a cycle: ${cycle.ids.join(" → ")}. No task of the cycle can ever start; remove one dependency.`,
    });
  }
  return out;
}

/** current_task_id must name a task; a task in progress should be the current one. */
function checkCurrentWork(root: Record<string, unknown>, where: ValueLocator): SourceProblem[] {
  const out: SourceProblem[] = [];
  const tasks = asArray(root.tasks).map(asRecord);
  const ids = new Set(tasks.map((t) => asString(t?.id)).filter((id): id is string => id !== undefined));
  const current = root.current_task_id;
  if (typeof current === "string" && !ids.has(current)) {
    out.push({
      file: where.file,
      line: where.lineAt(["current_task_id"]),
      severity: "error",
      code: "unknown_current_task",
      message: `current_task_id ${quoteForMessage(current)} is not a task of this state; expected one of the task ids or null.`,
    });
  }
  tasks.forEach((task, i) => {
    if (task?.status === "in_progress" && task.id !== current) {
      out.push({
        file: where.file,
        line: where.lineAt(["tasks", i, "status"]),
        severity: "warning",
        code: "stray_in_progress",
        message: `tasks[${i}] (${quoteForMessage(task.id ?? "?")}) is in_progress but the current task is ${quoteForMessage(current ?? null)}; only the current task should be in progress.`,
      });
    }
  });
  return out;
}

/** phase_history must be in chronological order of entered_at. */
function checkPhaseHistory(root: Record<string, unknown>, where: ValueLocator): SourceProblem[] {
  const out: SourceProblem[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  asArray(root.phase_history).forEach((entry, i) => {
    const at = Date.parse(asString(asRecord(entry)?.entered_at) ?? "");
    if (Number.isNaN(at)) return;
    if (at < previous) {
      out.push({
        file: where.file,
        line: where.lineAt(["phase_history", i, "entered_at"]),
        severity: "warning",
        code: "phase_history_order",
        message: `phase_history[${i}].entered_at is earlier than the entry before it; phase_history is append-only and must be in chronological order.`,
      });
    }
    previous = Math.max(previous, at);
  });
  return out;
}
