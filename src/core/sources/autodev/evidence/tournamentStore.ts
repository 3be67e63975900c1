/**
 * Reads a tournament's own folder, `.autodev/tournaments/{id}/`: its
 * `history.json` and every `pass_NN/result.json`. Their schema is not fixed,
 * so each entry is validated loosely (zod, field by field): a pass number, a
 * winner, scores, judges' scores, notes when they are recognisable, and the
 * raw JSON always, so unknown shapes are shown as they are. Reads are confined
 * like evidence reads: an unsafe id, a link out of the workspace or a file far
 * too large becomes an error, never a read outside the workspace.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as z from "zod";
import { confinedDir, readInside } from "./evidenceStore";
import { decodeUtf8Strict } from "../../../text/utf8";
import { isSafeSegment, tournamentsDir } from "../autodevPaths";
import { dumpsIndent2 } from "../../../pyjson/pyJsonDump";
import { PyJsonError, parsePyJson } from "../../../pyjson/pyJsonParse";
import { PyFloat, PyValue, isPyObject } from "../../../pyjson/pyValue";

/** Largest tournament file read. */
const MAX_TOURNAMENT_FILE_BYTES = 4 * 1024 * 1024;
/** Most `pass_NN` folders read. */
const MAX_TOURNAMENT_PASSES = 200;

/** One pass of a tournament, as far as it could be understood. */
export interface TournamentPass {
  readonly n: number | null;
  readonly winner: string | null;
  readonly converged: boolean | null;
  /** Candidate → score. */
  readonly scores: ReadonlyArray<readonly [string, number]>;
  /** Each judge's scores per candidate. */
  readonly judges: ReadonlyArray<{ readonly name: string; readonly scores: ReadonlyArray<readonly [string, number]> }>;
  readonly notes: readonly string[];
  /** True when at least a winner, scores or judges were recognised. */
  readonly known: boolean;
  /** The entry as written (indent-2 JSON). */
  readonly rawJson: string;
}

/** A file of the tournament folder: understood, or why not. */
type TournamentFile<T> =
  | { readonly ok: true; readonly value: T; readonly rawJson: string }
  | { readonly ok: false; readonly error: string; readonly rawJson?: string };

/** What `.autodev/tournaments/{id}/` holds. */
export interface TournamentRecord {
  readonly id: string;
  /** False when the folder does not exist (or was refused: see `error`). */
  readonly exists: boolean;
  readonly error: string | null;
  /** `history.json` (null when absent). */
  readonly history: TournamentFile<TournamentPass[]> | null;
  /** `pass_NN/result.json`, by pass number. */
  readonly results: ReadonlyArray<{
    readonly dir: string;
    readonly n: number;
    readonly file: TournamentFile<TournamentPass>;
  }>;
}

/** A Python JSON value as plain JS (dicts as null-prototype objects, floats as numbers). */
export function pyToPlain(v: PyValue): unknown {
  if (v instanceof PyFloat) return v.value;
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(pyToPlain);
  if (isPyObject(v)) {
    const o: Record<string, unknown> = Object.create(null);
    for (const [k, x] of v) o[k] = pyToPlain(x);
    return o;
  }
  return v;
}

const numericEntries = (o: unknown): Array<[string, number]> =>
  o && typeof o === "object" && !Array.isArray(o)
    ? Object.entries(o).filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1]))
    : [];

/** Loose schemas: every field optional, a field of the wrong type is dropped, unknown keys kept. */
const ScoresSchema = z.record(z.string(), z.unknown()).transform(numericEntries);
const JudgeSchema = z.looseObject({
  judge: z.string().optional().catch(undefined),
  name: z.string().optional().catch(undefined),
  id: z.string().optional().catch(undefined),
  scores: ScoresSchema.optional().catch(undefined),
});
const PassSchema = z.looseObject({
  pass_num: z.number().int().optional().catch(undefined),
  pass: z.number().int().optional().catch(undefined),
  round: z.number().int().optional().catch(undefined),
  pass_number: z.number().int().optional().catch(undefined),
  winner: z.string().optional().catch(undefined),
  converged: z.boolean().optional().catch(undefined),
  scores: ScoresSchema.optional().catch(undefined),
  judges: z
    .union([z.array(z.unknown()), z.record(z.string(), z.unknown())])
    .optional()
    .catch(undefined),
  notes: z
    .union([z.array(z.unknown()), z.string()])
    .optional()
    .catch(undefined),
});
const NAME_KEYS = new Set(["judge", "name", "id", "scores"]);

function judgesOf(raw: unknown): Array<{ name: string; scores: Array<[string, number]> }> {
  const out: Array<{ name: string; scores: Array<[string, number]> }> = [];
  const one = (fallback: string, j: unknown) => {
    const p = JudgeSchema.safeParse(j);
    if (!p.success) return;
    const scores = p.data.scores ?? numericEntries(j).filter(([k]) => !NAME_KEYS.has(k));
    out.push({ name: p.data.judge ?? p.data.name ?? p.data.id ?? fallback, scores });
  };
  if (Array.isArray(raw)) raw.forEach((j, i) => one(`judge ${i + 1}`, j));
  else if (raw && typeof raw === "object") for (const [k, j] of Object.entries(raw)) one(k, j);
  return out;
}

/** Understands one pass entry (of history.json, a result.json, or the evidence's `history`) as far as possible. */
export function describePass(raw: PyValue, fallbackN: number | null): TournamentPass {
  const rawJson = dumpsIndent2(raw);
  const plain = pyToPlain(raw);
  const p = PassSchema.safeParse(plain);
  if (!p.success) {
    return { n: fallbackN, winner: null, converged: null, scores: [], judges: [], notes: [], known: false, rawJson };
  }
  const d = p.data;
  const judges = judgesOf(d.judges);
  const notes =
    d.notes === undefined
      ? []
      : (Array.isArray(d.notes) ? d.notes : [d.notes]).map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
  const scores = d.scores ?? [];
  return {
    n: d.pass_num ?? d.pass ?? d.round ?? d.pass_number ?? fallbackN,
    winner: d.winner ?? null,
    converged: d.converged ?? null,
    scores,
    judges,
    notes,
    known: d.winner !== undefined || scores.length > 0 || judges.length > 0,
    rawJson,
  };
}

/** The pass entries of a history value: a list, or a dict holding one under `passes`/`history`/`rounds`. */
function historyEntries(v: PyValue): PyValue[] | null {
  if (Array.isArray(v)) return v;
  if (isPyObject(v)) {
    for (const key of ["passes", "history", "rounds"]) if (Array.isArray(v.get(key))) return v.get(key) as PyValue[];
  }
  return null;
}

async function readJsonFile(
  root: string,
  file: string,
): Promise<{ ok: true; value: PyValue; rawJson: string } | { ok: false; error: string }> {
  const read = await readInside(root, file, MAX_TOURNAMENT_FILE_BYTES);
  if (!read.ok) return read;
  const text = decodeUtf8Strict(read.data);
  if (text === null) return { ok: false, error: `${path.basename(file)} is not valid UTF-8` };
  try {
    const value = parsePyJson(text);
    return { ok: true, value, rawJson: dumpsIndent2(value) };
  } catch (e) {
    return {
      ok: false,
      error: `${path.basename(file)}: invalid JSON: ${e instanceof PyJsonError ? e.message : String(e)}`,
    };
  }
}

async function exists(p: string): Promise<boolean> {
  return fs.promises.lstat(p).then(
    () => true,
    () => false,
  );
}

/** Reads `.autodev/tournaments/{id}/` (history.json, pass_NN/result.json); never throws. */
export async function readTournament(cwd: string, id: string): Promise<TournamentRecord> {
  const none = (error: string | null): TournamentRecord => ({ id, exists: false, error, history: null, results: [] });
  if (!isSafeSegment(id)) return none(`tournament id ${JSON.stringify(id)} is not a safe folder name; not read`);
  const root = tournamentsDir(cwd);
  const dir = path.join(root, id);
  if (!(await exists(dir))) return none(null);
  const confined = (await confinedDir(cwd, root)) ?? (await confinedDir(root, dir));
  if (confined !== null) return none(confined);
  let history: TournamentFile<TournamentPass[]> | null = null;
  const historyFile = path.join(dir, "history.json");
  if (await exists(historyFile)) {
    const r = await readJsonFile(root, historyFile);
    if (!r.ok) history = r;
    else {
      const entries = historyEntries(r.value);
      history =
        entries === null
          ? { ok: false, error: "history.json is not a list of passes; shown raw", rawJson: r.rawJson }
          : { ok: true, value: entries.map((e, i) => describePass(e, i + 1)), rawJson: r.rawJson };
    }
  }
  let names: string[];
  try {
    names = (await fs.promises.readdir(dir)).filter((n) => /^pass_\d{1,6}$/.test(n));
  } catch (e) {
    return {
      id,
      exists: true,
      error: `cannot list ${id}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      history,
      results: [],
    };
  }
  names.sort((a, b) => Number(a.slice(5)) - Number(b.slice(5)));
  const results: Array<{ dir: string; n: number; file: TournamentFile<TournamentPass> }> = [];
  for (const name of names.slice(0, MAX_TOURNAMENT_PASSES)) {
    const n = Number(name.slice(5));
    const file = path.join(dir, name, "result.json");
    if (!(await exists(file))) continue;
    const r = await readJsonFile(root, file);
    results.push({ dir: name, n, file: r.ok ? { ok: true, value: describePass(r.value, n), rawJson: r.rawJson } : r });
  }
  const error =
    names.length > MAX_TOURNAMENT_PASSES
      ? `only the first ${MAX_TOURNAMENT_PASSES} of ${names.length} passes were read`
      : null;
  return { id, exists: true, error, history, results };
}

/** "A 0.61 · B 0.39" */
export function formatScores(scores: ReadonlyArray<readonly [string, number]>): string {
  return scores.map(([k, v]) => `${k} ${Math.round(v * 1000) / 1000}`).join(" · ");
}

/** "pass 2: AB won (A 0.5 · AB 0.5), converged" */
export function passSummary(p: TournamentPass): string {
  const head = p.n === null ? "pass" : `pass ${p.n}`;
  if (!p.known) return `${head}: unrecognised entry`;
  const parts = [p.winner ? `${p.winner} won` : "no winner recorded"];
  if (p.scores.length) parts[0] += ` (${formatScores(p.scores)})`;
  if (p.judges.length) parts.push(`${p.judges.length} judge${p.judges.length === 1 ? "" : "s"}`);
  if (p.converged) parts.push("converged");
  return `${head}: ${parts.join(", ")}`;
}
