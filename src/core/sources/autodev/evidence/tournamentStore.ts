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
import { confinementRefusal, readInside } from "./evidenceStore";
import { decodeUtf8Strict } from "../../../text/utf8";
import { isSafeSegment, tournamentsDir } from "../autodevPaths";
import { dumpsIndent2 } from "../../../pyjson/pyJsonDump";
import { PyJsonError, parsePyJson } from "../../../pyjson/pyJsonParse";
import { PyValue, isPyObject } from "../../../pyjson/pyValue";
import { TournamentPass, describePass } from "./tournamentPasses";

/** Largest tournament file read. */
const MAX_TOURNAMENT_FILE_BYTES = 4 * 1024 * 1024;
/** Most `pass_NN` folders read. */
const MAX_TOURNAMENT_PASSES = 200;

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
  const confined = (await confinementRefusal(cwd, root)) ?? (await confinementRefusal(root, dir));
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
