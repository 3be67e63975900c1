/**
 * One knowledge file (`knowledge.jsonl`, the hive, `rejected_lessons.jsonl`) read line by
 * line as Python's `_read_jsonl` reads it: lines split as `str.splitlines()` splits them,
 * blank and corrupt lines skipped, only objects kept, each validated like its pydantic
 * model (extra keys ignored). Streamed through the shared line reader (src/core/fs/lineReader.ts)
 * with bounded memory: the caller's {@link RowKeeper} decides which valid rows are kept,
 * skipped lines are listed up to {@link MAX_SKIPPED_LISTED} per file and counted after that,
 * a line over the line limit is skipped unread. Skipped lines are reported by number, never echoed.
 */
import type * as z from "zod";
import { readFileLines } from "../../../fs/lineReader";
import { PY_JSON_MAX_DEPTH, PyJsonError, parsePyJson } from "../../../pyjson/pyJsonParse";
import { pyToPlain } from "../evidence/tournamentPasses";
import { zodToPathErrors, formatPathError } from "../pydanticLax";
import type { StateFileOpen } from "../stateFile";
import { withoutStackTraces } from "../../../errors";
import { PROBLEMS_PER_FILE } from "../../sourceProblems";

/** One file's lines that were skipped, and why. */
export interface SkippedLine {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  /** Set on the last entry of a file with more skipped lines than are listed: how many more (from `line` on). */
  readonly more?: number;
}

/** Skipped lines listed per file (the bound every source's problems have); later ones are counted in one entry. */
export const MAX_SKIPPED_LISTED = PROBLEMS_PER_FILE;

/**
 * What AutoDev's next lesson does about a skipped line of the swarm file (checked by running
 * AutoDev 0.1.1's `KnowledgeStore.record` on such files): `record` rewrites the file from
 * `_read_jsonl`'s objects, so an unreadable line is dropped; it validates every object as a
 * `KnowledgeEntry`, so an invalid one makes every record fail (`execute` logs
 * `knowledge_record_failed` and goes on).
 */
export interface NextRecordEffect {
  readonly unreadable: string;
  readonly invalid: string;
}

/** Where the valid rows of a file go: it keeps what is shown (the highest-ranked, the newest) and drops the rest. */
export interface RowKeeper<R> {
  add(row: R): void;
  /** The rows kept, in the order they are shown. */
  kept(): R[];
}

/** How one file is read. */
export interface JsonlFileSpec<T> {
  /** The file's name in messages. */
  readonly file: string;
  readonly schema: z.ZodType<T>;
  /** Keys without which a line is invalid (counted without zod past the listing cap). */
  readonly required?: readonly string[];
  readonly nextRecord?: NextRecordEffect | null;
  /** Longest line read (longer ones are skipped unread). */
  readonly maxLineBytes: number;
  /** The file's byte limit, also while it is read (a file growing past it is refused). */
  readonly maxBytes: number;
}

/** What reading one file gave: how many valid rows it has, those kept, its skipped lines; `error` when it was not read. */
export interface JsonlFileRead<R> {
  readonly count: number;
  readonly rows: R[];
  readonly skipped: SkippedLine[];
  readonly error: string | null;
}

/** Python's `str.splitlines()` breaks other than `\n`, `\r\n` and `\r` (which the line reader splits on). */
// eslint-disable-next-line no-control-regex -- these are exactly the breaks Python splits on
const PY_EXTRA_BREAK = /[\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

const NOT_PARSED = Symbol("not parsed");

/**
 * Most non-empty lines read from one knowledge file (AutoDev keeps 100 swarm and 200 hive lessons by
 * default): a file with more is refused as one over the byte limit is, so every read is bounded in
 * time as well as memory. Empty lines are not counted (the reader skips them at memory speed).
 */
export const MAX_KNOWLEDGE_LINES = 250_000;

/**
 * Lines shorter than this are parsed by `JSON.parse` first: where it succeeds, Python's
 * `json.loads` gives the same values once ints and floats are plain numbers (`pyToPlain`),
 * a repeated key keeps its last value in both, and nesting cannot reach Python's recursion
 * limit (995 levels need twice as many characters) nor an int its 4300-digit limit. Where it
 * fails (NaN, Infinity, a torn line) the Python parser decides, and words the error.
 */
const FAST_PARSE_CHARS = 2 * PY_JSON_MAX_DEPTH;

function fastParse(s: string): unknown {
  try {
    return withoutStackTraces(() => JSON.parse(s) as unknown);
  } catch {
    return NOT_PARSED;
  }
}

/**
 * Reads the opened file `opened` (closed here) into `keeper`; never throws. A file that is
 * not UTF-8 is not read at all (Python's `read_text` raises on it), as before streaming.
 */
export async function readJsonlFile<T, R>(
  opened: StateFileOpen,
  spec: JsonlFileSpec<T>,
  keeper: RowKeeper<R>,
  toRow: (value: T, line: number) => R,
): Promise<JsonlFileRead<R>> {
  if (opened.kind === "missing") return { count: 0, rows: [], skipped: [], error: null };
  if (opened.kind === "error") return { count: 0, rows: [], skipped: [], error: opened.error };
  const { file, schema, required = [], nextRecord = null } = spec;
  const unreadable = (reason: string): string => (nextRecord ? `${reason}; ${nextRecord.unreadable}` : reason);
  const invalid = (reason: string): string => (nextRecord ? `${reason}; ${nextRecord.invalid}` : reason);
  const skipped: SkippedLine[] = [];
  let more = 0;
  let firstMore = 0;
  let count = 0;
  const skip = (line: number, reason: () => string): void => {
    if (skipped.length < MAX_SKIPPED_LISTED) skipped.push({ file, line, reason: reason() });
    else if (more++ === 0) firstMore = line;
  };
  const one = (s: string, line: number): void => {
    if (!s) return;
    // `s` is trimmed: only a line from `{` to `}` can be an object.
    const braced = s.charCodeAt(0) === 0x7b && s.charCodeAt(s.length - 1) === 0x7d;
    // Past the listing cap a skipped line is only counted: one that cannot be an object is not parsed.
    if (!braced && skipped.length >= MAX_SKIPPED_LISTED) {
      skip(line, () => "");
      return;
    }
    let v: unknown = braced && s.length < FAST_PARSE_CHARS ? fastParse(s) : NOT_PARSED;
    if (v === NOT_PARSED) {
      try {
        v = withoutStackTraces(() => pyToPlain(parsePyJson(s))); // its message is used, never its stack
      } catch (e) {
        skip(line, () => unreadable(e instanceof PyJsonError ? `corrupt JSON (${e.msg})` : "corrupt JSON"));
        return;
      }
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      skip(line, () => unreadable("not a JSON object"));
      return;
    }
    // Past the listing cap a line missing a required key is counted without building zod's issues (the costly part).
    if (skipped.length >= MAX_SKIPPED_LISTED && required.some((k) => !Object.prototype.hasOwnProperty.call(v, k))) {
      skip(line, () => "");
      return;
    }
    const r = schema.safeParse(v);
    if (r.success) {
      count++;
      keeper.add(toRow(r.data, line));
    } else skip(line, () => invalid(zodToPathErrors(r.error).map(formatPathError).join("; ")));
  };
  // Python's line number: the physical line plus the extra breaks (U+2028, \f, …) split before it.
  let extraBreaks = 0;
  let lastLineNo = 0;
  let lines = 0;
  let bytes = 0;
  let error: string | null = null;
  try {
    await readFileLines(
      opened.handle,
      (l) => {
        // Empty lines are skipped by the reader: at least a byte each, counted here by the gap in line numbers.
        bytes += l.lineNo - lastLineNo - 1 + l.byteLength + l.terminator.length;
        lastLineNo = l.lineNo;
        if (bytes > spec.maxBytes) {
          error = `${file} grew past the ${spec.maxBytes}-byte limit while being read; not read`;
          return false;
        }
        if (l.byteLength > 0 && ++lines > MAX_KNOWLEDGE_LINES) {
          error = `${file} has more than ${MAX_KNOWLEDGE_LINES} non-empty lines (line ${l.lineNo + extraBreaks}); not read`;
          return false;
        }
        if (l.notUtf8) {
          error = `${file} is not valid UTF-8`;
          return false;
        }
        const pyLine = l.lineNo + extraBreaks;
        if (l.text === null) {
          skip(pyLine, () =>
            unreadable(
              `${l.byteLength} bytes, over the ${spec.maxLineBytes}-byte limit of one line (AutoDev writes none over 65536); not read`,
            ),
          );
          return;
        }
        if (!PY_EXTRA_BREAK.test(l.text)) one(l.text.trim(), pyLine);
        else {
          const parts = l.text.split(PY_EXTRA_BREAK);
          parts.forEach((part, k) => one(part.trim(), pyLine + k));
          extraBreaks += parts.length - 1;
        }
      },
      spec.maxLineBytes,
      "strict",
      "skip",
    );
  } catch (e) {
    error = `cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  } finally {
    await opened.handle.close().catch(() => undefined);
  }
  if (error !== null) return { count: 0, rows: [], skipped: [], error };
  if (more > 0) {
    skipped.push({
      file,
      line: firstMore,
      reason: `and ${more} more line${more === 1 ? "" : "s"} from here on skipped (not listed: at most ${MAX_SKIPPED_LISTED} are listed per file)`,
      more,
    });
  }
  return { count, rows: keeper.kept(), skipped, error: null };
}
