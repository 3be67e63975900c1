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
import * as path from "node:path";
import * as z from "zod";
import { getMaxLineBytes } from "../../../fs/lineLimit";
import { AUTODEV_DIR, KNOWLEDGE_FILE, REJECTED_LESSONS_FILE } from "../autodevPaths";
import { pyLaxFloat, pyLaxInt, pyStr } from "../pydanticLax";
import { openStateFile } from "../stateFile";
import { ConfigReport, resolveHivePath } from "../config/configReader";
import { pyIsoTimestamp } from "./pyIsoTime";
import {
  readJsonlFile,
  type JsonlFileSpec,
  type NextRecordEffect,
  type RowKeeper,
  type SkippedLine,
} from "./knowledgeLines";

/**
 * Largest knowledge file read, streamed (AutoDev keeps `swarm_max_entries` lessons, 100 by default,
 * of at most 64 KB a line; a bigger file is a user's): about a million lessons, a few seconds.
 */
export const MAX_KNOWLEDGE_BYTES = 256 * 1024 * 1024;
/** Longest line read: no longer than the process's line limit, and 16 MiB (AutoDev writes none over 64 KB). */
const MAX_KNOWLEDGE_LINE_BYTES = 16 * 1024 * 1024;
/** Lessons listed per tier (the highest-ranked) and rejected lessons listed (the newest); all are counted. */
export const MAX_LESSONS_LISTED = 1000;
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

const REQUIRED_KEYS = ["id", "timestamp", "role_source", "text"] as const;

/** Everything the knowledge store holds. */
export interface KnowledgeReport {
  /** The {@link MAX_LESSONS_LISTED} highest-ranked lessons, highest first (`swarmCount` counts them all). */
  readonly swarm: readonly KnowledgeEntry[];
  readonly swarmCount: number;
  readonly hive: readonly KnowledgeEntry[];
  readonly hiveCount: number;
  readonly hivePath: string;
  /** Where `hivePath` comes from: AutoDev's default under the home folder, or the user (`--hive`). */
  readonly hiveOrigin: HiveOrigin;
  /** config.json's `hive.path` when it names another file, which is not read (the repository does not choose it). */
  readonly hiveIgnored: string | null;
  readonly hiveEnabled: boolean;
  /** The newest {@link MAX_LESSONS_LISTED} rejected lessons, in file order. */
  readonly rejected: readonly RejectedLesson[];
  readonly rejectedCount: number;
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

/** {@link NextRecordEffect} of `.autodev/knowledge.jsonl` (the other files are not rewritten by `record`). */
const SWARM_NEXT_RECORD: NextRecordEffect = {
  unreadable: "AutoDev's next recorded lesson rewrites the file without this line",
  invalid:
    "no new lesson is kept while it is here: AutoDev's KnowledgeStore.record validates every line and fails on this one (fix or remove the line)",
};

type RawEntry = z.output<typeof KnowledgeEntrySchema>;

/** Highest rank first; equal ranks keep file order (Python's sort is stable). */
const byRank = (a: KnowledgeEntry, b: KnowledgeEntry): number => b.rank - a.rank || a.line - b.line;

/**
 * Keeps the `cap` highest-ranked lessons: sorted and cut each time four times as many are held;
 * after the first cut a lesson ranked no higher than the last one kept is not held at all.
 */
function topRanked(cap: number): RowKeeper<KnowledgeEntry> {
  let held: KnowledgeEntry[] = [];
  let floor = -Infinity;
  const cut = (): void => {
    held.sort(byRank);
    if (held.length > cap) {
      held = held.slice(0, cap);
      floor = held[cap - 1].rank;
    }
  };
  return {
    add(e) {
      // Lessons come in file order: one of equal rank sorts after every lesson held.
      if (e.rank <= floor) return;
      held.push(e);
      if (held.length >= 4 * cap) cut();
    },
    kept() {
      cut();
      return held;
    },
  };
}

/** Keeps the last `cap` rows in file order (the newest of an appended file). */
function newest<R>(cap: number): RowKeeper<R> {
  const ring: R[] = [];
  let next = 0;
  return {
    add(r) {
      if (ring.length < cap) ring.push(r);
      else ring[next] = r;
      next = (next + 1) % cap;
    },
    kept() {
      return ring.length < cap ? ring : [...ring.slice(next), ...ring.slice(0, next)];
    },
  };
}

/** Options of {@link readKnowledge}: the time ranks are computed at, the home folder (tests), the user's hive file. */
export interface KnowledgeOptions {
  readonly nowS?: number;
  readonly home?: string;
  /** The hive file the user named (CLI `--hive FILE`), read instead of AutoDev's default. */
  readonly hive?: string;
}

/** Who chose the hive file that is read. */
export type HiveOrigin = "default" | "user";

/**
 * The hive file to read: the user's (`--hive`), else AutoDev's default under the home folder. The
 * repository's config.json never chooses it — its `hive.path` could name any file on the machine
 * (`../other/.autodev/knowledge.jsonl`, `/etc/…jsonl`), and the workspace's state is untrusted —
 * so a `hive.path` naming another file is returned as `ignored`, to be said, not read.
 */
export function hiveLocation(
  cwd: string,
  config: ConfigReport,
  options: KnowledgeOptions,
): { path: string; origin: HiveOrigin; ignored: string | null } {
  const fallback = resolveHivePath(cwd, null, options.home);
  const chosen = options.hive !== undefined ? path.resolve(options.hive) : fallback;
  const configured = config.hivePath === null ? null : resolveHivePath(cwd, config.hivePath, options.home);
  return {
    path: chosen,
    origin: options.hive !== undefined ? "user" : "default",
    ignored: configured !== null && configured !== chosen ? config.hivePath : null,
  };
}

/** What to do about a knowledge file over {@link MAX_KNOWLEDGE_BYTES} (appended to the refusal). */
const TOO_BIG_HINT =
  " (AutoDev keeps knowledge.swarm_max_entries lessons, 100 by default, well under 10 MB: trim the file or move it aside)";

const entrySpec = (file: string, nextRecord: NextRecordEffect | null): JsonlFileSpec<RawEntry> => ({
  file,
  schema: KnowledgeEntrySchema,
  required: REQUIRED_KEYS,
  nextRecord,
  maxLineBytes: Math.min(getMaxLineBytes(), MAX_KNOWLEDGE_LINE_BYTES),
  maxBytes: MAX_KNOWLEDGE_BYTES,
});

/** Where the hive was read from, in words: "~/…/shared-learnings.jsonl, AutoDev's default" or "FILE, from --hive". */
export function hiveSaid(k: Pick<KnowledgeReport, "hivePath" | "hiveOrigin">): string {
  return `${k.hivePath}, ${k.hiveOrigin === "user" ? "from --hive" : "AutoDev's default"}`;
}

/** What to say about a config.json `hive.path` that was not read. */
export function hiveIgnoredNote(configured: string): string {
  return `config.json sets hive.path to ${JSON.stringify(configured)}; it is not read (the repository's config does not choose files outside it). To read that hive, pass --hive FILE to the CLI; the editor reads AutoDev's default.`;
}

/** Reads the swarm, the hive and the rejected lessons, streamed with bounded memory; never throws. */
export async function readKnowledge(
  cwd: string,
  config: ConfigReport,
  options: KnowledgeOptions = {},
): Promise<KnowledgeReport> {
  const nowS = options.nowS ?? Date.now() / 1000;
  const skipped: SkippedLine[] = [];
  const errors: string[] = [];
  const note = <R>(read: { skipped: SkippedLine[]; error: string | null; rows: R[] }): R[] => {
    skipped.push(...read.skipped);
    if (read.error === null) return read.rows;
    errors.push(/over the \d+-byte limit; not read$/.test(read.error) ? read.error + TOO_BIG_HINT : read.error);
    return read.rows;
  };
  // The validated object is zod's own copy: the line and rank are added to it, not to a second copy.
  const ranked = (e: RawEntry, line: number): KnowledgeEntry => Object.assign(e, { line, rank: rankLesson(e, nowS) });
  const open = (rel: string) => openStateFile(path.join(cwd, ...rel.split("/")), MAX_KNOWLEDGE_BYTES, cwd, rel);
  const swarmRel = `${AUTODEV_DIR}/${KNOWLEDGE_FILE}`;
  const rejectedRel = `${AUTODEV_DIR}/${REJECTED_LESSONS_FILE}`;
  const swarmRead = await readJsonlFile(
    await open(swarmRel),
    entrySpec(swarmRel, SWARM_NEXT_RECORD),
    topRanked(MAX_LESSONS_LISTED),
    ranked,
  );
  const swarm = note(swarmRead);
  const rejectedRead = await readJsonlFile(
    await open(rejectedRel),
    { ...entrySpec(rejectedRel, null), schema: RejectedLessonSchema, required: [] },
    newest<RejectedLesson>(MAX_LESSONS_LISTED),
    (r, line) => ({ ...r, line }),
  );
  const rejected = note(rejectedRead);
  const hive = hiveLocation(cwd, config, options);
  const hivePath = hive.path;
  let hiveRows: KnowledgeEntry[] = [];
  let hiveCount = 0;
  if (config.hiveEnabled) {
    if (!hivePath.endsWith(".jsonl")) {
      errors.push(`the hive ${JSON.stringify(hivePath)} is not a .jsonl file; not read`);
    } else {
      const hiveRead = await readJsonlFile(
        await openStateFile(hivePath, MAX_KNOWLEDGE_BYTES, null, hivePath),
        entrySpec(hivePath, null),
        topRanked(MAX_LESSONS_LISTED),
        ranked,
      );
      hiveRows = note(hiveRead);
      hiveCount = hiveRead.count;
    }
  }
  return {
    swarm,
    swarmCount: swarmRead.count,
    hive: hiveRows,
    hiveCount,
    hivePath,
    hiveOrigin: hive.origin,
    hiveIgnored: hive.ignored,
    hiveEnabled: config.hiveEnabled,
    rejected,
    rejectedCount: rejectedRead.count,
    skipped,
    errors,
  };
}
