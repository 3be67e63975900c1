/**
 * Reads `.agloop/log.json` (JSON Lines, appended by hooks and agents) as a stream: lines are cut
 * at a length cap, each is parsed and checked on its own, and the entries become timeline rows.
 * Memory stays bounded: rows and problems are capped, a giant line is skipped, not buffered.
 */
import { readFileLines } from "../../../fs/lineReader";
import type { SourceProblem, SourceTimelineRow } from "../../stateSource";
import { AGLOOP_LIMITS, LOG_FILE, openAgloopFile } from "../agloopFiles";
import { logEntrySchema } from "../checks/agloopSchemas";
import { asRecord, asString } from "../agloopText";
import { logRowOf } from "./logTimeline";
import { problemsFromIssues, type FieldCode } from "../checks/schemaProblems";
import { withoutStackTraces } from "../../../errors";
import { labelText } from "../../../text/untrustedText";

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
  // The newest entries (rows are made for these only, at the end) and their lines, in a ring.
  const cap = AGLOOP_LIMITS.timelineRows;
  const newest: Record<string, unknown>[] = [];
  const newestLines = new Float64Array(cap);
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
      const full = problems.length >= AGLOOP_LIMITS.problemsPerFile;
      // Past the cap a bad line is only counted: one that cannot be an object is not even parsed.
      if (full && !bracedLike(text)) {
        dropped++;
        return;
      }
      let value: unknown;
      try {
        value = full ? parseCounted(text) : JSON.parse(text);
      } catch (e) {
        if (full) dropped++;
        else {
          add({
            file: LOG_FILE,
            line,
            severity: "error",
            code: "invalid_json",
            message: `Line ${line} is not valid JSON (${labelText(String((e as Error).message), 100)}); each line of log.json must be one JSON object.`,
          });
        }
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
      // The schema's rules written out first (cheap); zod only for an entry they fault, to word its problems.
      if (!plainLogEntry(entry)) {
        if (problems.length < AGLOOP_LIMITS.problemsPerFile) checkEntry(entry, line, add);
        else dropped++;
      }
      newest[(entries - 1) % cap] = entry;
      newestLines[(entries - 1) % cap] = line;
    });
  } finally {
    await opened.handle.close();
  }
  const rows: SourceTimelineRow[] = [];
  for (let k = Math.max(0, entries - cap); k < entries; k++) rows.push(logRowOf(newest[k % cap], newestLines[k % cap]));
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

/** `JSON.parse` for a line whose error is only counted: no stack trace is captured for it. */
function parseCounted(text: string): unknown {
  return withoutStackTraces(() => JSON.parse(text) as unknown);
}

/** False when `text` (a line) cannot be a JSON object: after JSON's blanks, no `{` first or no `}` last. */
function bracedLike(text: string): boolean {
  let a = 0;
  let b = text.length - 1;
  while (a <= b && (text.charCodeAt(a) === 0x20 || text.charCodeAt(a) === 0x09)) a++;
  while (b >= a && (text.charCodeAt(b) === 0x20 || text.charCodeAt(b) === 0x09)) b--;
  return a < b && text.charCodeAt(a) === 0x7b && text.charCodeAt(b) === 0x7d;
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
