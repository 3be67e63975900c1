/**
 * Checks one checkpoint JSONL file line by line, streaming: every non-blank line is a record
 * the writer's loader reads (`read_text().splitlines()`, blank lines skipped, `json.loads`),
 * and it must be byte-identical to what the writer would write for it (ADR-0146's round-trip
 * invariant). Keeps a bounded number of entries for the tree, each as the tree shows it (a few
 * short strings), never the parsed record: a string sliced out of a line keeps the whole line.
 */
import { pyStrip } from "../../pyjson/pyBuiltins";
import type { PyValue } from "../../pyjson/pyValue";
import type { ProblemSeverity, SourceProblem } from "../stateSource";
import { judgeLine, splitlinesBreakColumn } from "./canonicalJsonLine";
import { detachedString, displayValue } from "../../text/displayText";
import { readFileLines, type FileLine } from "../../fs/lineReader";
import { getMaxLineBytes } from "../../fs/lineLimit";
import { openGuarded } from "../../fs/guardedOpen";
import { refusalReason } from "./refusalReason";
import type { RecordView, RecordVisitor } from "./recordViews";
import { pushAll, type ProblemSink } from "../sourceProblems";

/** Most line entries kept per file for the tree; counts go on past it. */
const MAX_TREE_ENTRIES = 500;

/** One record as the tree shows it. */
export interface LineEntry {
  readonly lineNo: number;
  /** The record as the tree shows it (made when read), or null when the line does not parse or no view was asked for. */
  readonly view: RecordView | null;
  /** The worst problem on the line, if any. */
  readonly severity: ProblemSeverity | null;
  /** The first problem's short text ("not canonical: expected … at column 12"). */
  readonly problem: string | null;
}

/** A JSONL file as read. */
export interface JsonlFileModel {
  readonly state: "missing" | "read" | "refused";
  /** Records: non-blank lines (what the loader would try to load). */
  readonly records: number;
  readonly entries: readonly LineEntry[];
  /** Records not kept in `entries` (past {@link MAX_TREE_ENTRIES}). */
  readonly omitted: number;
}

/**
 * The longest engine_state line read (64 MiB, far above any record the writer makes), or the
 * process's limit (`autodev.maxLineMB`, `--max-line-mb`) when that is lower.
 */
export const ENGINE_STATE_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** What {@link checkJsonlFile} does besides the line checks. */
export interface JsonlCheckOptions {
  /** Checks across lines (duplicate ids). */
  readonly visit?: RecordVisitor;
  /** How the tree shows a record; without it entries carry no view. */
  readonly view?: (value: PyValue) => RecordView;
  /** The longest line read (default: {@link ENGINE_STATE_MAX_LINE_BYTES}, or the process's limit if lower). */
  readonly maxLineBytes?: number;
}

/** Reads and checks `file` (absolute); problems are reported against `rel`. */
export async function checkJsonlFile(
  file: string,
  rel: string,
  workspace: string,
  problems: ProblemSink,
  options: JsonlCheckOptions = {},
): Promise<JsonlFileModel> {
  const { visit, view, maxLineBytes = Math.min(getMaxLineBytes(), ENGINE_STATE_MAX_LINE_BYTES) } = options;
  const opened = await openGuarded(file, { root: workspace, notDirIsMissing: true });
  if (opened.kind === "missing") return { state: "missing", records: 0, entries: [], omitted: 0 };
  if (opened.kind === "refused") {
    problems.push({
      file: rel,
      line: null,
      severity: "error",
      code: "unreadable_file",
      message: `${rel} ${refusalReason(opened.refusal)}; expected a regular file inside the workspace folder. Nothing in it was read.`,
    });
    return { state: "refused", records: 0, entries: [], omitted: 0 };
  }
  const entries: LineEntry[] = [];
  let records = 0;
  let omitted = 0;
  try {
    await readFileLines(
      opened.handle,
      (line) => {
        const found: SourceProblem[] = [];
        const value = checkLine(line, rel, found, visit, maxLineBytes);
        const isRecord = line.text === null || pyStrip(line.text) !== "";
        if (isRecord) records++;
        pushAll(problems, found);
        if (!isRecord && found.length === 0) return; // a blank line is not a record; with a problem it still shows
        if (entries.length < MAX_TREE_ENTRIES) {
          const worst = found.some((p) => p.severity === "error") ? "error" : found.length > 0 ? "warning" : null;
          const shown = value === null || view === undefined ? null : detachedView(view(value));
          const problem = found.length > 0 ? detachedString(found[0].message) : null;
          entries.push({ lineNo: line.lineNo, view: shown, severity: worst, problem });
        } else omitted++;
      },
      maxLineBytes,
    );
  } finally {
    await opened.handle.close();
  }
  return { state: "read", records, entries, omitted };
}

/** `view` holding only strings of its own (not slices of the line, which would keep the line). */
function detachedView(view: RecordView): RecordView {
  return {
    label: detachedString(view.label),
    description: detachedString(view.description),
    details: view.details.map(detachedString),
  };
}

/** Checks one line; pushes its problems and returns its value when it parses. */
function checkLine(
  line: FileLine,
  rel: string,
  out: SourceProblem[],
  visit: RecordVisitor | undefined,
  maxLineBytes: number,
): PyValue | null {
  const at = (severity: ProblemSeverity, code: string, message: string, column?: number): void => {
    out.push({ file: rel, line: line.lineNo, ...(column ? { column } : {}), severity, code, message });
  };
  const where = `${rel} line ${line.lineNo}`;
  let value: PyValue | null = null;
  if (line.tooLong) {
    at(
      "error",
      "line_too_long",
      `${where} is ${line.byteLength} bytes, longer than the ${maxLineBytes}-byte limit; it was not read. Expected one JSON record of ordinary size.`,
    );
  } else if (line.notUtf8 || line.text === null) {
    at(
      "error",
      "invalid_json",
      `${where} is not valid UTF-8: the writer's loader (read_text) raises UnicodeDecodeError for the whole file.`,
    );
  } else if (pyStrip(line.text) === "") {
    at(
      "error",
      "non_canonical_line",
      `${where} is blank: the loader skips it and re-saving drops it, so the file does not round-trip. Remove the line.`,
    );
  } else {
    const breakAt = splitlinesBreakColumn(line.text);
    const verdict = judgeLine(line.text);
    if (verdict.kind === "invalid_json") {
      at(
        "error",
        "invalid_json",
        `${where} is not valid JSON (${verdict.message}); json.loads refuses it, so the checkpoint does not load.`,
        verdict.column,
      );
    } else {
      value = verdict.value;
      if (breakAt > 0) {
        const char = line.text
          .charCodeAt(breakAt - 1)
          .toString(16)
          .toUpperCase()
          .padStart(4, "0");
        at(
          "error",
          "unloadable_line",
          `${where} holds a raw U+${char} at column ${breakAt}: the loader splits lines with str.splitlines(), which breaks there, so json.loads fails. Write it escaped (ensure_ascii=True writes \\u${char.toLowerCase()}).`,
          breakAt,
        );
      } else if (verdict.kind === "non_canonical") {
        const expected = displayValue(
          verdict.expected.slice(Math.max(0, verdict.column - 21), verdict.column + 40),
          80,
        );
        const found = displayValue(line.text.slice(Math.max(0, verdict.column - 21), verdict.column + 40), 80);
        at(
          "error",
          "non_canonical_line",
          `${where} does not re-serialize to the same bytes (column ${verdict.column}): the writer's json.dumps(sort_keys=True, separators=(",", ":")) gives …${expected}… where the line has …${found}…. Re-save the checkpoint with the writer.`,
          verdict.column,
        );
      } else if (line.terminator === "\r\n" || line.terminator === "\r") {
        at(
          "error",
          "non_canonical_line",
          `${where} ends with ${line.terminator === "\r" ? "CR" : "CRLF"}; the writer ends every line with LF ("\\n"), so the file does not round-trip.`,
        );
      }
      if (visit !== undefined) for (const p of visit(value, line.lineNo)) out.push({ file: rel, ...p });
    }
  }
  if (line.terminator === "") {
    at(
      "warning",
      "missing_final_newline",
      `${where} is the last line and has no final newline; the writer ends the file with "\\n" (a torn or hand-edited write?).`,
    );
  }
  return value;
}
