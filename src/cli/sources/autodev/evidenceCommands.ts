/**
 * `autodev-state evidence` and `autodev-state diff`: list and validate a
 * task's evidence bundles (and its tournament folder); summarise its patch per
 * file, saying whether each file's before/after could be rebuilt from the
 * workspace or only from the hunks.
 */
import { ParsedArgs, withOptionalDir } from "../../cliArgs";
import { eprintln, printJson, println } from "../../cliOutput";
import { livePlan, requireAutodevState, requireLedger, requireTask } from "./cliPreflight";
import { PATCH_SOURCES } from "../../../core/sources/autodev/evidence/evidenceNames";
import {
  listEvidence,
  readPatch,
  readPatchSource,
  readWorkspaceText,
} from "../../../core/sources/autodev/evidence/evidenceStore";
import { summarizeEvidence } from "../../../core/sources/autodev/evidence/evidenceSummary";
import {
  describePaths,
  ParsedPatchFile,
  patchStats,
  tryParsePatch,
} from "../../../core/sources/autodev/evidence/patchModel";
import { reconstructPatch } from "../../../core/sources/autodev/evidence/patchReconstruct";
import { readTournament, TournamentRecord } from "../../../core/sources/autodev/evidence/tournamentStore";
import { passSummary } from "../../../core/sources/autodev/evidence/tournamentPasses";

/** Pass lines and problems (where, why) of a tournament folder. */
function tournamentLines(rec: TournamentRecord): { lines: string[]; problems: Array<[string, string]> } {
  const lines: string[] = [];
  const problems: Array<[string, string]> = [];
  const base = `tournaments/${rec.id}/`;
  if (rec.error) problems.push([base, rec.error]);
  if (!rec.exists) return { lines, problems };
  if (rec.history?.ok) for (const p of rec.history.value) lines.push(`  ${base}history.json ${passSummary(p)}`);
  else if (rec.history) problems.push([`${base}history.json`, rec.history.error]);
  for (const r of rec.results) {
    if (r.file.ok) lines.push(`  ${base}${r.dir}/result.json ${passSummary(r.file.value)}`);
    else problems.push([`${base}${r.dir}/result.json`, r.file.error]);
  }
  return { lines, problems };
}

/** Exit 2 naming the plan's tasks when the live plan has no task `task` (any id passes when there is no plan to ask). */
async function requireTaskInPlan(dir: string, task: string): Promise<void> {
  const plan = await livePlan(dir);
  if (plan) requireTask(plan, task);
}

/** `evidence [DIR] TASK [--json]`: exit 1 when any bundle, the patch or a tournament file is invalid. */
export async function cmdEvidence(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK"]);
  const stage = await requireAutodevState(dir);
  const task = values[0];
  const items = await listEvidence(dir, task);
  const patch = await readPatch(dir, task);
  if (items.length === 0 && !patch && stage === "ledger") await requireTaskInPlan(dir, task);
  const parsedPatch = patch?.ok ? tryParsePatch(patch.text) : null;
  const tournaments = new Map<string, TournamentRecord>();
  for (const i of items) {
    if (i.ok && i.evidence.kind === "tournament") {
      tournaments.set(i.file, await readTournament(dir, i.evidence.tournament_id));
    }
  }
  const tProblems = [...tournaments.values()].flatMap((t) => tournamentLines(t).problems);
  const brokenSections = parsedPatch?.ok ? parsedPatch.files.filter((f) => f.error) : [];
  const bad =
    items.filter((i) => !i.ok).length +
    (patch && !patch.ok ? 1 : 0) +
    (parsedPatch && !parsedPatch.ok ? 1 : 0) +
    brokenSections.length +
    tProblems.length;
  if (args.switches.has("json")) {
    printJson({
      task_id: task,
      ok: bad === 0,
      bundles: items.map((i) => {
        if (!i.ok) return { file: i.file, kind: i.kind, ok: false, error: i.error };
        const t = tournaments.get(i.file);
        const tournament = t
          ? {
              id: t.id,
              folder: t.exists,
              error: t.error,
              history_passes: t.history?.ok ? t.history.value.length : null,
              results: t.results.map((r) => ({
                dir: r.dir,
                ok: r.file.ok,
                ...(r.file.ok ? { summary: passSummary(r.file.value) } : { error: r.file.error }),
              })),
            }
          : undefined;
        return {
          file: i.file,
          kind: i.kind,
          ok: true,
          summary: summarizeEvidence(i.evidence),
          ...(tournament ? { tournament } : {}),
        };
      }),
      patch:
        patch === null
          ? null
          : !patch.ok
            ? { file: patch.file, ok: false, error: patch.error }
            : parsedPatch && !parsedPatch.ok
              ? { file: patch.file, ok: false, error: parsedPatch.error }
              : {
                  file: patch.file,
                  ok: brokenSections.length === 0,
                  files: parsedPatch?.ok ? parsedPatch.files.length : 0,
                  errors: brokenSections.map((f) => ({ path: describePaths(f), error: f.error })),
                },
    });
  } else {
    if (items.length === 0 && !patch) println(`no evidence for task ${task}`);
    for (const i of items) {
      if (!i.ok) {
        eprintln(`${i.file}: INVALID — ${i.error}`);
        continue;
      }
      println(`${i.file}: ${summarizeEvidence(i.evidence)}`);
      const t = tournaments.get(i.file);
      if (t) for (const l of tournamentLines(t).lines) println(l);
    }
    for (const [where, why] of tProblems) eprintln(`${where}: INVALID — ${why}`);
    if (patch) {
      if (!patch.ok) eprintln(`${patch.file}: INVALID — ${patch.error}`);
      else if (parsedPatch && !parsedPatch.ok) eprintln(`${patch.file}: INVALID — ${parsedPatch.error}`);
      else if (parsedPatch?.ok) {
        println(`${patch.file}: patch, ${patchStats(parsedPatch.files)}`);
        for (const f of brokenSections) eprintln(`${patch.file}: INVALID — ${describePaths(f)}: ${f.error}`);
      }
    }
  }
  return bad === 0 ? 0 : 1;
}

function fileLine(f: ParsedPatchFile, sides: string): string {
  return `${f.change.padEnd(8)} +${f.added} -${f.removed}  ${describePaths(f)}${f.noNewlineAtEnd ? "  (no newline at end)" : ""}${f.binary ? "  (binary)" : ""}  [${sides}]`;
}

/** `diff [DIR] TASK [--json]`: one line per file of the task's patch (or, without one, its developer or tournament diff). */
export async function cmdDiff(args: ParsedArgs): Promise<number> {
  const { dir, values } = withOptionalDir(args.positionals, ["TASK"]);
  requireLedger(dir);
  const task = values[0];
  await requireTaskInPlan(dir, task);
  let found = null;
  for (const source of PATCH_SOURCES) {
    found = await readPatchSource(dir, task, source);
    if (found) break;
  }
  if (found === null) {
    eprintln(`task ${task} has no patch (.autodev/evidence/${task}.patch), developer diff or tournament final_diff`);
    return 2;
  }
  if (!found.ok) {
    eprintln(`${found.file}: ${found.error}`);
    return 1;
  }
  const parsed = tryParsePatch(found.text);
  if (!parsed.ok) {
    eprintln(`${found.file}: ${parsed.error}`);
    return 1;
  }
  const rebuilt = await reconstructPatch(parsed.files, (rel) => readWorkspaceText(dir, rel));
  const broken = parsed.files.filter((f) => f.error);
  if (args.switches.has("json")) {
    printJson({
      task_id: task,
      source: found.file,
      files: rebuilt.map(({ file: f, source, complete, note }) => ({
        old_path: f.oldPath,
        new_path: f.newPath,
        change: f.change,
        added: f.added,
        removed: f.removed,
        no_newline_at_end: f.noNewlineAtEnd,
        binary: f.binary,
        sides: source,
        complete,
        note,
        ...(f.error ? { error: f.error } : {}),
      })),
    });
  } else {
    println(`${found.file}: ${patchStats(parsed.files)}`);
    for (const r of rebuilt) {
      const sides =
        r.source === "workspace"
          ? "sides from the workspace"
          : r.source === "hunks"
            ? `from hunks only: ${r.note}`
            : r.note;
      if (r.file.error) eprintln(`INVALID  ${describePaths(r.file)}: ${r.file.error}`);
      else println(fileLine(r.file, sides));
    }
  }
  return broken.length ? 1 : 0;
}
