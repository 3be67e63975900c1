/**
 * The two-tier knowledge store of Python's `state/knowledge.py`, read-only:
 * swarm lessons (`.autodev/knowledge.jsonl`), the hive (config `hive.path`,
 * default `~/.local/share/autodev/shared-learnings.jsonl`) and rejected
 * lessons (`.autodev/rejected_lessons.jsonl`). Lines are read as `_read_jsonl`
 * does (blank and corrupt lines skipped, only objects kept; skipped lines are
 * reported by number, never echoed) and entries validated like pydantic's
 * `KnowledgeEntry` (extra keys ignored). Each tier is ranked as
 * `inject_block` ranks it: `confidence * recency * (1 + ln(applied + 1))`,
 * recency falling linearly from 1 to 0.5 over 30 days, highest first.
 */
import { z } from "zod";
import { PyJsonError, parsePyJson } from "../../../pyjson/pyJsonParse";
import { pyToPlain } from "../evidence/tournamentStore";
import { AUTODEV_DIR, KNOWLEDGE_FILE, REJECTED_LESSONS_FILE } from "../autodevPaths";
import { pyLaxFloat, pyLaxInt, pyStr, zodToPathErrors, formatPathError } from "../pydanticLax";
import { StateFileRead, readStateFile, readWorkspaceStateFile } from "../stateFile";
import { ConfigReport, resolveHivePath } from "../config/configReader";
import { pyIsoTimestamp } from "./pyIsoTime";

/** Largest knowledge file read (Python caps each at a few hundred 64 KB lines). */
const MAX_KNOWLEDGE_BYTES = 16 * 1024 * 1024;
const RECENCY_WINDOW_S = 30 * 86400;

const KnowledgeEntrySchema = z.object({
  id: pyStr,
  timestamp: pyStr,
  role_source: pyStr,
  tier: z.enum(["swarm", "hive"], { error: "Input should be 'swarm' or 'hive'" }),
  text: pyStr,
  confidence: pyLaxFloat.default(0.5),
  applied_count: pyLaxInt.default(0),
  succeeded_after_count: pyLaxInt.default(0),
  confirmations: pyLaxInt.default(0),
  metadata: z.record(z.string(), z.unknown()).default(() => ({})),
});
const RejectedLessonSchema = z.object({ id: pyStr, text: pyStr, reason: pyStr, rejected_at: pyStr });

/** A lesson, with its rank at the time it was read. */
export type KnowledgeEntry = z.output<typeof KnowledgeEntrySchema> & { readonly rank: number; readonly line: number };
/** A rejected lesson. */
type RejectedLesson = z.output<typeof RejectedLessonSchema> & { readonly line: number };

/** One file's lines that were skipped, and why. */
interface SkippedLine {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  /** Set on the last entry of a file with more skipped lines than are listed: how many more (from `line` on). */
  readonly more?: number;
}

/** Skipped lines listed per file; later ones are counted in one entry (a hostile file of a million bad lines). */
export const MAX_SKIPPED_LISTED = 200;
const REQUIRED_KEYS = ["id", "timestamp", "role_source", "text"] as const;

/** Everything the knowledge store holds. */
export interface KnowledgeReport {
  readonly swarm: readonly KnowledgeEntry[];
  readonly hive: readonly KnowledgeEntry[];
  readonly hivePath: string;
  readonly hiveEnabled: boolean;
  readonly rejected: readonly RejectedLesson[];
  readonly skipped: readonly SkippedLine[];
  /** Files that could not be read at all. */
  readonly errors: readonly string[];
}

/** `_recency_factor`. */
function recencyFactor(timestamp: string, nowS: number): number {
  const ts = pyIsoTimestamp(timestamp) ?? 0;
  if (ts <= 0) return 0.5;
  const age = Math.max(0, nowS - ts);
  return age >= RECENCY_WINDOW_S ? 0.5 : 1 - 0.5 * (age / RECENCY_WINDOW_S);
}

/** `_rank_with_ts`. */
export function rankLesson(e: { confidence: number; timestamp: string; applied_count: number }, nowS: number): number {
  return e.confidence * recencyFactor(e.timestamp, nowS) * (1 + Math.log(Math.max(0, e.applied_count) + 1));
}

/** Python's `str.splitlines()` line breaks. */
// eslint-disable-next-line no-control-regex -- these are exactly the breaks Python splits on
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/**
 * What AutoDev's next lesson does about a skipped line of the swarm file (checked by running
 * AutoDev 0.1.1's `KnowledgeStore.record` on such files): `record` rewrites the file from
 * `_read_jsonl`'s objects, so an unreadable line is dropped; it validates every object as a
 * `KnowledgeEntry`, so an invalid one makes every record fail (`execute` logs
 * `knowledge_record_failed` and goes on).
 */
interface NextRecordEffect {
  readonly unreadable: string;
  readonly invalid: string;
}

/** {@link NextRecordEffect} of `.autodev/knowledge.jsonl` (the other files are not rewritten by `record`). */
const SWARM_NEXT_RECORD: NextRecordEffect = {
  unreadable: "AutoDev's next recorded lesson rewrites the file without this line",
  invalid:
    "no new lesson is kept while it is here: AutoDev's KnowledgeStore.record validates every line and fails on this one (fix or remove the line)",
};

/** `_read_jsonl` + model validation: the valid rows (with their 1-based line), skipped lines reported. */
function parseJsonl<T>(
  text: string,
  file: string,
  schema: z.ZodType<T>,
  skipped: SkippedLine[],
  required: readonly string[] = [],
  nextRecord: NextRecordEffect | null = null,
): Array<T & { line: number }> {
  const unreadable = (reason: string): string => (nextRecord ? `${reason}; ${nextRecord.unreadable}` : reason);
  const invalid = (reason: string): string => (nextRecord ? `${reason}; ${nextRecord.invalid}` : reason);
  const out: Array<T & { line: number }> = [];
  let listed = 0;
  let more = 0;
  let firstMore = 0;
  const skip = (line: number, reason: () => string): void => {
    if (listed < MAX_SKIPPED_LISTED) {
      listed++;
      skipped.push({ file, line, reason: reason() });
    } else if (more++ === 0) firstMore = line;
  };
  const lines = text.split(PY_LINE_BREAK);
  for (let i = 0; i < lines.length; i++) {
    const s = lines[i].trim();
    if (!s) continue;
    let v: unknown;
    try {
      v = pyToPlain(parsePyJson(s));
    } catch (e) {
      skip(i + 1, () => unreadable(e instanceof PyJsonError ? `corrupt JSON (${e.msg})` : "corrupt JSON"));
      continue;
    }
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      skip(i + 1, () => unreadable("not a JSON object"));
      continue;
    }
    // Past the listing cap a line missing a required key is counted without building zod's issues (the costly part).
    if (listed >= MAX_SKIPPED_LISTED && required.some((k) => !Object.prototype.hasOwnProperty.call(v, k))) {
      skip(i + 1, () => "");
      continue;
    }
    const r = schema.safeParse(v);
    if (r.success) out.push({ ...r.data, line: i + 1 });
    else skip(i + 1, () => invalid(zodToPathErrors(r.error).map(formatPathError).join("; ")));
  }
  if (more > 0) {
    skipped.push({
      file,
      line: firstMore,
      reason: `and ${more} more line${more === 1 ? "" : "s"} from here on skipped (not listed: at most ${MAX_SKIPPED_LISTED} are listed per file)`,
      more,
    });
  }
  return out;
}

/** Sorted by rank, highest first; equal ranks keep file order (Python's sort is stable). */
function rankEntries(
  entries: ReadonlyArray<z.output<typeof KnowledgeEntrySchema> & { line: number }>,
  nowS: number,
): KnowledgeEntry[] {
  return entries
    .map((e, i) => ({ e: { ...e, rank: rankLesson(e, nowS) }, i }))
    .sort((a, b) => b.e.rank - a.e.rank || a.i - b.i)
    .map((x) => x.e);
}

function textOf(read: StateFileRead, errors: string[]): string {
  if (read.kind === "ok") return read.text;
  if (read.kind === "error") errors.push(read.error);
  return "";
}

/** Options of {@link readKnowledge}: the time ranks are computed at, and the home folder (tests). */
export interface KnowledgeOptions {
  readonly nowS?: number;
  readonly home?: string;
}

/** Reads the swarm, the hive and the rejected lessons; never throws. */
export async function readKnowledge(
  cwd: string,
  config: ConfigReport,
  options: KnowledgeOptions = {},
): Promise<KnowledgeReport> {
  const nowS = options.nowS ?? Date.now() / 1000;
  const skipped: SkippedLine[] = [];
  const errors: string[] = [];
  const swarmRel = `${AUTODEV_DIR}/${KNOWLEDGE_FILE}`;
  const rejectedRel = `${AUTODEV_DIR}/${REJECTED_LESSONS_FILE}`;
  const swarmRaw = parseJsonl(
    textOf(await readWorkspaceStateFile(cwd, swarmRel, MAX_KNOWLEDGE_BYTES), errors),
    swarmRel,
    KnowledgeEntrySchema,
    skipped,
    REQUIRED_KEYS,
    SWARM_NEXT_RECORD,
  );
  const rejected = parseJsonl(
    textOf(await readWorkspaceStateFile(cwd, rejectedRel, MAX_KNOWLEDGE_BYTES), errors),
    rejectedRel,
    RejectedLessonSchema,
    skipped,
  );
  const hivePath = resolveHivePath(cwd, config.hivePath, options.home);
  let hiveRaw: Array<z.output<typeof KnowledgeEntrySchema> & { line: number }> = [];
  if (config.hiveEnabled) {
    if (!hivePath.endsWith(".jsonl")) {
      errors.push(`hive.path ${JSON.stringify(hivePath)} is not a .jsonl file; not read`);
    } else {
      hiveRaw = parseJsonl(
        textOf(await readStateFile(hivePath, MAX_KNOWLEDGE_BYTES, null, hivePath), errors),
        hivePath,
        KnowledgeEntrySchema,
        skipped,
        REQUIRED_KEYS,
      );
    }
  }
  return {
    swarm: rankEntries(swarmRaw, nowS),
    hive: rankEntries(hiveRaw, nowS),
    hivePath,
    hiveEnabled: config.hiveEnabled,
    rejected,
    skipped,
    errors,
  };
}
