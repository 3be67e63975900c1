/**
 * Reads `.agloop/log.json` (JSON Lines, appended by hooks and agents) as a stream: lines are cut
 * at a length cap, each is parsed and checked on its own, and the entries become timeline rows.
 * Memory stays bounded: rows and problems are capped, a giant line is skipped, not buffered.
 */
import { readFileLines } from "../../fs/lineReader";
import type { SourceProblem, SourceTimelineRow } from "../stateSource";
import { AGLOOP_LIMITS, LOG_FILE, openAgloopFile } from "./agloopFiles";
import { logEntrySchema } from "./agloopSchemas";
import { asRecord, asString, oneLine, stripControl } from "./agloopText";
import { problemsFromIssues, type FieldCode } from "./schemaProblems";

/** The log as read. */
export interface LogRead {
  readonly present: boolean;
  /** Lines that held a JSON object. */
  readonly entries: number;
  readonly rows: readonly SourceTimelineRow[];
  readonly problems: readonly SourceProblem[];
  /** False when the file does not end with a newline (an append in progress or a torn tail). */
  readonly endsWithNewline: boolean;
  /** The entries the phase contract reads (transitions, approvals, recoveries, completion), oldest first. */
  readonly events: readonly LogEvent[];
}

/** One log entry the phase contract reads (raw values; text is cut to 200 characters). */
export interface LogEvent {
  readonly line: number;
  readonly time: string | null;
  readonly agent: string | null;
  readonly action: string;
  readonly phase: string | null;
}

/** Actions the phase contract reads: phase transitions, recoveries, completion and approvals. */
const EVENT_ACTION = /^(phase_transition|state_recovered|loop_complete)$|approv/i;
/** How many events are kept (the newest). */
const MAX_EVENTS = 10_000;

function eventOf(entry: Record<string, unknown>, line: number): LogEvent | null {
  const action = asString(entry.action);
  if (action === undefined || !EVENT_ACTION.test(action)) return null;
  const cut = (key: string): string | null => {
    const v = asString(entry[key]);
    return v === undefined ? null : v.slice(0, 200);
  };
  return { line, time: cut("timestamp"), agent: cut("agent"), action: action.slice(0, 200), phase: cut("phase") };
}

const logFieldCode: FieldCode = (_path, issue, missing) => {
  if (missing || issue.code === "invalid_type") return "log_field_missing";
  return undefined;
};

/**
 * Calls `onLine(text | null, lineNo)` for each line (null: longer than `maxLine` bytes; invalid
 * UTF-8 is replaced, as JSON.parse readers see it); returns whether the file ends with a newline.
 */
async function forEachLine(
  handle: import("node:fs").promises.FileHandle,
  maxLine: number,
  onLine: (text: string | null, lineNo: number) => void,
): Promise<boolean> {
  let endsWithNewline = true;
  await readFileLines(
    handle,
    (line) => {
      endsWithNewline = line.terminator !== "";
      onLine(line.text, line.lineNo);
    },
    maxLine,
    "replace",
  );
  return endsWithNewline;
}

/** Reads, checks and lists log.json. */
export async function readLogFile(workspace: string): Promise<LogRead> {
  const opened = await openAgloopFile(workspace, LOG_FILE, Number.MAX_SAFE_INTEGER);
  if (opened.kind === "missing") {
    return { present: false, entries: 0, rows: [], problems: [], endsWithNewline: true, events: [] };
  }
  if (opened.kind === "refused") {
    return { present: true, entries: 0, rows: [], problems: [opened.problem], endsWithNewline: true, events: [] };
  }
  const events: LogEvent[] = [];
  const problems: SourceProblem[] = [];
  const rows: SourceTimelineRow[] = [];
  let entries = 0;
  let dropped = 0;
  const add = (p: SourceProblem): void => {
    if (problems.length < AGLOOP_LIMITS.problemsPerFile) problems.push(p);
    else dropped++;
  };
  let endsWithNewline: boolean;
  try {
    endsWithNewline = await forEachLine(opened.handle, AGLOOP_LIMITS.logLineBytes, (text, line) => {
      if (text === null) {
        add({
          file: LOG_FILE,
          line,
          severity: "error",
          code: "invalid_json",
          message: `Line ${line} is longer than ${AGLOOP_LIMITS.logLineBytes} bytes; it was skipped unread. A log entry is one short JSON object per line.`,
        });
        return;
      }
      if (text.trim().length === 0) return;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        add({
          file: LOG_FILE,
          line,
          severity: "error",
          code: "invalid_json",
          message: `Line ${line} is not valid JSON (${oneLine(String((e as Error).message), 100)}); each line of log.json must be one JSON object.`,
        });
        return;
      }
      const entry = asRecord(value);
      if (!entry) {
        add({
          file: LOG_FILE,
          line,
          severity: "error",
          code: "invalid_json",
          message: `Line ${line} is JSON but not an object; each line of log.json must be one JSON object.`,
        });
        return;
      }
      entries++;
      const event = eventOf(entry, line);
      if (event) events.push(event);
      if (events.length >= 2 * MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
      if (problems.length < AGLOOP_LIMITS.problemsPerFile) checkEntry(entry, line, add);
      else if (!plainLogEntry(entry)) dropped++; // past the cap: counted by a cheap test, no zod issues built
      rows.push(rowOf(entry, line));
      if (rows.length >= 2 * AGLOOP_LIMITS.timelineRows) rows.splice(0, rows.length - AGLOOP_LIMITS.timelineRows);
    });
  } finally {
    await opened.handle.close();
  }
  if (rows.length > AGLOOP_LIMITS.timelineRows) rows.splice(0, rows.length - AGLOOP_LIMITS.timelineRows);
  if (dropped > 0) {
    problems.push({
      file: LOG_FILE,
      line: null,
      severity: "warning",
      code: "invalid_json",
      message: `${dropped} more problem(s) in log.json were not listed.`,
    });
  }
  if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
  return { present: true, entries, rows, problems, endsWithNewline, events };
}

const LOG_KEYS = new Set(Object.keys(logEntrySchema.shape));
const LOG_STATUS_SET = new Set<unknown>(logEntrySchema.shape.status.options);

/** True when `entry` passes {@link checkEntry} without a problem (the schema's rules, written out: a cheap test). */
export function plainLogEntry(entry: Record<string, unknown>): boolean {
  for (const key of Object.keys(entry)) if (!LOG_KEYS.has(key)) return false;
  for (const key of ["timestamp", "agent", "action", "phase", "input_summary", "output_summary"]) {
    const v = entry[key];
    if (typeof v !== "string") return false;
    if ((key === "input_summary" || key === "output_summary") && v.length > 500) return false;
  }
  if (entry.task_id !== null && typeof entry.task_id !== "string") return false;
  if (!LOG_STATUS_SET.has(entry.status)) return false;
  const meta = entry.metadata;
  return meta === undefined || (meta !== null && typeof meta === "object" && !Array.isArray(meta));
}

/** Schema and length checks of one entry. */
function checkEntry(entry: Record<string, unknown>, line: number, add: (p: SourceProblem) => void): void {
  const parsed = logEntrySchema.safeParse(entry);
  const where = { file: LOG_FILE, lineAt: () => line, lineOfKey: () => line };
  if (!parsed.success) for (const p of problemsFromIssues(parsed.error.issues, entry, where, logFieldCode)) add(p);
  for (const key of ["input_summary", "output_summary"] as const) {
    const text = asString(entry[key]);
    if (text !== undefined && text.length > 500) {
      add({
        file: LOG_FILE,
        line,
        severity: "warning",
        code: "summary_too_long",
        message: `${key} on line ${line} has ${text.length} characters; the protocol's limit is 500 (truncate before appending).`,
      });
    }
  }
}

/** Longest metadata shown in a row's details (the whole line opens in the editor). */
const MAX_METADATA_CHARS = 4000;

/** The timeline row of one entry: agent, action, task, status, "phase · summary", and every field for the details. */
function rowOf(entry: Record<string, unknown>, line: number): SourceTimelineRow {
  const text = (key: string): string | null => {
    const v = asString(entry[key]);
    return v === undefined ? null : stripControl(v);
  };
  const summary = text("output_summary") || text("input_summary") || "";
  const phase = text("phase");
  const fields: { name: string; value: string }[] = [];
  const add = (name: string, value: string | null) => {
    if (value) fields.push({ name, value });
  };
  add("time", text("timestamp"));
  add("agent", text("agent"));
  add("action", text("action"));
  add("phase", phase);
  add("task", text("task_id"));
  add("status", text("status"));
  add("input", text("input_summary"));
  add("output", text("output_summary"));
  const metadata = asRecord(entry.metadata);
  if (metadata && Object.keys(metadata).length > 0) {
    const json = stripControl(JSON.stringify(metadata, null, 2));
    add("metadata", json.length > MAX_METADATA_CHARS ? `${json.slice(0, MAX_METADATA_CHARS - 1)}…` : json);
  }
  return {
    index: line,
    time: text("timestamp"),
    actor: text("agent"),
    action: text("action") ?? "(no action)",
    taskId: text("task_id"),
    status: text("status"),
    summary: oneLine(phase ? `${phase} · ${summary}` : summary, 500),
    file: LOG_FILE,
    line,
    fields,
  };
}
