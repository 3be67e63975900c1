/**
 * Every tournament under `.autodev/tournaments/`: `plan-<id>` and
 * `impl-<id>` folders as Python's `TournamentArtifactStore` lays them out
 * (initial_a.md, pass_NN/{version_a,critic,version_b,version_ab}.md and
 * result.json, incumbent_after_NN.md, final_output.md, history.json). Passes
 * come from history.json (a finished run) or the pass folders (a run that
 * stopped), numbered by `pass_num`. An impl tournament's task and
 * convergence come from the task's tournament evidence; otherwise
 * convergence is Python's rule over the passes; without the evidence (the
 * offline `autodev tournament --phase=impl` writes none) the task is the
 * `- task_id:` line Python writes into `initial_a.md`. A tournament finished
 * when its `history.json` and `final_output.md` are there. A `worktrees/`
 * folder beside them is what the offline impl runner leaves (its worktree
 * manager never removes them); only in a tournament that did not finish does
 * it mean a crashed run. Reads are confined to the workspace; never throws.
 */
import { AUTODEV_DIR, TOURNAMENTS_DIR } from "../autodevPaths";
import { listWorkspaceDir, readWorkspaceStateFile } from "../stateFile";
import { validateJsonText } from "../validateJson";
import * as z from "zod";
import { PassRecord, WinnerLabel, convergedAfter, toPassRecord } from "./passResult";
import { tournamentEvidenceIndex } from "./tournamentEvidence";
import { AutodevConfig } from "../config/configSchema";
import { convergenceK } from "../config/configReader";

/** `.autodev/tournaments` */
export const TOURNAMENTS_REL = `${AUTODEV_DIR}/${TOURNAMENTS_DIR}`;
/** Most tournament folders and pass folders read. */
export const MAX_TOURNAMENTS = 500;
export const MAX_PASSES = 200;
/** 4 MB, as the README says: history.json of 200 passes with every judge's raw response stays far below it. */
const MAX_TOURNAMENT_JSON = 4 * 1024 * 1024;
/** Errors listed per tournament; the rest are counted in one line. */
const MAX_ERRORS = 20;

/** The markdown files of one pass (workspace-relative; null when absent). */
export interface PassArtifacts {
  readonly pass: number;
  readonly dir: string;
  readonly versionA: string | null;
  readonly critic: string | null;
  readonly versionB: string | null;
  readonly versionAB: string | null;
}

/** One tournament. */
export interface TournamentSummary {
  readonly id: string;
  /** Workspace-relative folder. */
  readonly dir: string;
  readonly phase: "plan" | "impl";
  readonly taskId: string | null;
  readonly passes: readonly PassRecord[];
  /** The last pass's winner (Python's `winner_last`), null without passes. */
  readonly winner: WinnerLabel | null;
  readonly converged: boolean | null;
  /** True when history.json and final_output.md are there (the run finished). */
  readonly finished: boolean;
  readonly initial: string | null;
  readonly final: string | null;
  readonly incumbents: ReadonlyArray<{ readonly afterPass: number; readonly file: string }>;
  readonly passArtifacts: readonly PassArtifacts[];
  /** Every file, relative to the tournament folder. */
  readonly files: readonly string[];
  /** Entries of a `worktrees/` folder left by a tournament that did not finish (a crash), relative to its folder. */
  readonly leftoverWorktrees: readonly string[] | null;
  /** Entries of any `worktrees/` folder (also beside a finished tournament), relative to its folder. */
  readonly worktrees: readonly string[] | null;
  readonly errors: readonly string[];
}

const PASS_DIR = /^pass_(\d{2,6})$/;
const MAX_INITIAL_BYTES = 1024 * 1024;

/** The `- task_id: X` line Python's `ImplContentHandler` writes at the top of an impl bundle's markdown. */
async function taskIdOfInitial(cwd: string, rel: string): Promise<string | null> {
  const read = await readWorkspaceStateFile(cwd, rel, MAX_INITIAL_BYTES);
  if (read.kind !== "ok") return null;
  for (const line of read.text.split("\n", 40)) {
    if (line.startsWith("## ")) break;
    const m = /^- task_id: (.{1,200})$/.exec(line.trimEnd());
    if (m) return m[1];
  }
  return null;
}
const INCUMBENT = /^incumbent_after_(\d{2,6})\.md$/;

async function passesFromHistory(cwd: string, rel: string, errors: string[]): Promise<PassRecord[] | null> {
  const read = await readWorkspaceStateFile(cwd, `${rel}/history.json`, MAX_TOURNAMENT_JSON);
  if (read.kind === "missing") return null;
  if (read.kind === "error") {
    errors.push(read.error);
    return null;
  }
  const v = validateJsonText(read.text, z.array(z.unknown()));
  if (!v.ok) {
    errors.push(`history.json line ${v.errors[0].line}: ${v.errors[0].message}`);
    return null;
  }
  const out: PassRecord[] = [];
  let bad = 0;
  for (let i = 0; i < Math.min(v.value.length, MAX_PASSES); i++) {
    const p = toPassRecord(v.value[i]);
    if (p.ok) out.push(p.pass);
    else if (++bad <= MAX_ERRORS) errors.push(`history.json entry ${i + 1}: ${p.error}`);
  }
  if (bad > MAX_ERRORS) errors.push(`history.json: ${bad - MAX_ERRORS} more entries are not PassResults (not listed)`);
  if (v.value.length > MAX_PASSES) {
    errors.push(
      `history.json has ${v.value.length} entries; only the first ${MAX_PASSES} were read (AutoDev runs at most a few dozen passes)`,
    );
  }
  return out;
}

/** Reads one tournament folder (`id` must be a `plan-`/`impl-` name listed in the tournaments folder). */
async function readOne(
  cwd: string,
  id: string,
  phase: "plan" | "impl",
  ev: Map<string, { taskId: string; converged: boolean }>,
  cfg: AutodevConfig | null,
): Promise<TournamentSummary> {
  const dir = `${TOURNAMENTS_REL}/${id}`;
  const errors: string[] = [];
  const listing = await listWorkspaceDir(cwd, dir);
  const names = listing.ok ? listing.names : [];
  if (!listing.ok) errors.push(listing.error);
  const files: string[] = [];
  const passArtifacts: PassArtifacts[] = [];
  const fromResults: PassRecord[] = [];
  // A finished run's passes are in history.json: the pass folders' result.json files are then not read at all.
  const history = await passesFromHistory(cwd, dir, errors);
  const passDirs = names
    .filter((n) => PASS_DIR.test(n))
    .sort((a, b) => Number(PASS_DIR.exec(a)![1]) - Number(PASS_DIR.exec(b)![1]));
  if (passDirs.length > MAX_PASSES) {
    errors.push(`only the first ${MAX_PASSES} of ${passDirs.length} pass folders were read`);
  }
  for (const pd of passDirs.slice(0, MAX_PASSES)) {
    const n = Number(PASS_DIR.exec(pd)![1]);
    const inner = await listWorkspaceDir(cwd, `${dir}/${pd}`);
    const have = new Set(inner.ok ? inner.names : []);
    if (!inner.ok) errors.push(inner.error);
    for (const f of inner.ok ? inner.names : []) files.push(`${pd}/${f}`);
    const at = (f: string) => (have.has(f) ? `${dir}/${pd}/${f}` : null);
    passArtifacts.push({
      pass: n,
      dir: `${dir}/${pd}`,
      versionA: at("version_a.md"),
      critic: at("critic.md"),
      versionB: at("version_b.md"),
      versionAB: at("version_ab.md"),
    });
    if (history === null && have.has("result.json")) {
      const read = await readWorkspaceStateFile(cwd, `${dir}/${pd}/result.json`, MAX_TOURNAMENT_JSON);
      if (read.kind === "error") errors.push(read.error);
      else if (read.kind === "ok") {
        const v = validateJsonText(read.text, z.unknown());
        const p = v.ok ? toPassRecord(v.value) : { ok: false as const, error: v.errors[0].message };
        if (p.ok) fromResults.push(p.pass);
        else errors.push(`${pd}/result.json: ${p.error}`);
      }
    }
  }
  for (const n of names) if (!PASS_DIR.test(n) && n !== "worktrees") files.unshift(n);
  const passes = history ?? fromResults;
  const winner = passes.length ? passes[passes.length - 1].winner : null;
  const evidence = ev.get(id);
  let converged: boolean | null = null;
  if (evidence) converged = evidence.converged;
  else if (history !== null) converged = convergedAfter(history, convergenceK(cfg, phase));
  let worktrees: string[] | null = null;
  if (names.includes("worktrees")) {
    const wt = await listWorkspaceDir(cwd, `${dir}/worktrees`);
    worktrees = wt.ok ? wt.names.map((n) => `worktrees/${n}`) : ["worktrees"];
  }
  const finished = history !== null && names.includes("final_output.md");
  const taskId =
    evidence?.taskId ??
    (phase === "impl" && names.includes("initial_a.md") ? await taskIdOfInitial(cwd, `${dir}/initial_a.md`) : null);
  const incumbents = names
    .filter((n) => INCUMBENT.test(n))
    .map((n) => ({ afterPass: Number(INCUMBENT.exec(n)![1]), file: `${dir}/${n}` }))
    .sort((a, b) => a.afterPass - b.afterPass);
  return {
    id,
    dir,
    phase,
    taskId,
    passes,
    winner,
    converged,
    finished,
    initial: names.includes("initial_a.md") ? `${dir}/initial_a.md` : null,
    final: names.includes("final_output.md") ? `${dir}/final_output.md` : null,
    incumbents,
    passArtifacts,
    files: files.sort(),
    leftoverWorktrees: finished ? null : worktrees,
    worktrees,
    errors,
  };
}

/** Every `plan-*` / `impl-*` tournament of the workspace, in name order, and listing problems. */
export async function readTournaments(
  cwd: string,
  cfg: AutodevConfig | null,
): Promise<{ tournaments: TournamentSummary[]; errors: string[] }> {
  const listing = await listWorkspaceDir(cwd, TOURNAMENTS_REL);
  if (!listing.ok) return { tournaments: [], errors: [listing.error] };
  const ids = listing.names.filter((n) => /^(plan|impl)-[^/\\]{1,200}$/.test(n));
  const errors =
    ids.length > MAX_TOURNAMENTS ? [`only the first ${MAX_TOURNAMENTS} of ${ids.length} tournaments were read`] : [];
  const ev = await tournamentEvidenceIndex(cwd);
  // A few folders read side by side (each is a chain of thread-pool round trips); the results keep name order.
  const todo = ids.slice(0, MAX_TOURNAMENTS);
  const tournaments: TournamentSummary[] = new Array<TournamentSummary>(todo.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < todo.length; i = next++) {
      tournaments[i] = await readOne(cwd, todo[i], todo[i].startsWith("plan-") ? "plan" : "impl", ev, cfg);
    }
  };
  await Promise.all(Array.from({ length: Math.min(TOURNAMENT_READERS, todo.length) }, worker));
  return { tournaments, errors };
}

/** Tournament folders read at once (Node's file thread pool has 4 threads by default). */
const TOURNAMENT_READERS = 4;
