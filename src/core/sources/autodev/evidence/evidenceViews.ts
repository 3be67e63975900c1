/**
 * What the editor's evidence documents, diffs and pickers show, read in the state worker (the
 * extension host reads no file): a diff rebuilt against the workspace, a bundle with its parsed
 * diff and tournament, a `.patch` parsed, an evidence file's raw bytes, the tasks that have
 * evidence, and whether a file an explore bundle names may be opened. Every read goes through
 * evidenceStore.ts and tournamentStore.ts (confined to `.autodev/evidence/` and the workspace).
 */
import * as path from "node:path";
import { evidenceDir } from "../autodevPaths";
import { diffSourceLabel, type PatchSource } from "./evidenceNames";
import {
  confinementRefusal,
  isContainedRelPath,
  listEvidenceTasks,
  readEvidence,
  readInside,
  readPatchSource,
  readWorkspaceText,
  type EvidenceItem,
  type PatchSourceText,
} from "./evidenceStore";
import { tryParsePatch, type ParsedPatchFile } from "./patchModel";
import { reconstructPatch, type ReconstructedFile } from "./patchReconstruct";
import { diffContentHash } from "./reviewMarks";
import { readTournament, type TournamentRecord } from "./tournamentStore";

/** A diff of one source rebuilt for display, or why it could not be. */
export type RebuiltDiff =
  | {
      readonly ok: true;
      readonly label: string;
      readonly text: string;
      /** The sha256 of `text` (what a reviewed mark records). */
      readonly hash: string;
      readonly files: readonly ReconstructedFile[];
    }
  | {
      readonly ok: false;
      readonly label: string;
      readonly error: string;
      /** The sha256 of the diff's text when it was read but does not parse; null when it could not be read. */
      readonly hash: string | null;
    };

/** The diff of `source` for a task, rebuilt against the workspace's files (null when the task has none). */
export async function rebuildDiff(cwd: string, taskId: string, source: PatchSource): Promise<RebuiltDiff | null> {
  const found = await readPatchSource(cwd, taskId, source);
  if (found === null) return null;
  const label = diffSourceLabel({ source, file: found.file });
  if (!found.ok) return { ok: false, label, error: found.error, hash: null };
  const hash = diffContentHash(found.text);
  const parsed = tryParsePatch(found.text);
  if (!parsed.ok) return { ok: false, label, error: parsed.error, hash };
  return {
    ok: true,
    label,
    text: found.text,
    hash,
    files: await reconstructPatch(parsed.files, (rel) => readWorkspaceText(cwd, rel)),
  };
}

/** One bundle for its readable view: the item, its diff's files when they parse, its tournament. */
export interface BundleView {
  readonly item: EvidenceItem | null;
  /** The developer's `diff` or the tournament's `final_diff`, parsed (null: none, or it does not parse). */
  readonly diffFiles: ParsedPatchFile[] | null;
  /** The tournament a tournament bundle names (its folder read), else null. */
  readonly tournament: TournamentRecord | null;
}

/** The bundle of `kind` for a task, with what its readable view needs. */
export async function readBundleView(cwd: string, taskId: string, kind: string): Promise<BundleView> {
  const item = await readEvidence(cwd, taskId, kind);
  if (item === null || !item.ok) return { item, diffFiles: null, tournament: null };
  const e = item.evidence;
  const diffText = e.kind === "developer" ? e.diff : e.kind === "tournament" ? e.final_diff : null;
  const parsed = diffText ? tryParsePatch(diffText) : null;
  const tournament = e.kind === "tournament" ? await readTournament(cwd, e.tournament_id) : null;
  return { item, diffFiles: parsed?.ok ? parsed.files : null, tournament };
}

/** A task's `.patch` for its readable view: the text (or why not) and its files when it parses. */
export interface PatchView {
  readonly found: PatchSourceText;
  readonly files: ParsedPatchFile[] | null;
  /** Why the patch does not parse, else null. */
  readonly parseError: string | null;
}

/** The task's `.patch`, read and parsed. */
export async function readPatchView(cwd: string, taskId: string): Promise<PatchView> {
  const found = await readPatchSource(cwd, taskId, "patch");
  if (!found?.ok) return { found, files: null, parseError: null };
  const parsed = tryParsePatch(found.text);
  return parsed.ok
    ? { found, files: parsed.files, parseError: null }
    : { found, files: null, parseError: parsed.error };
}

/** An evidence file's bytes as they are (confined to `.autodev/evidence/`, size-limited), or why not. */
export async function readRawEvidence(
  cwd: string,
  file: string,
): Promise<{ readonly ok: true; readonly data: Uint8Array } | { readonly ok: false; readonly error: string }> {
  const dir = evidenceDir(cwd);
  const confined = await confinementRefusal(cwd, dir);
  if (confined !== null) return { ok: false, error: confined };
  const read = await readInside(dir, path.join(dir, file));
  return read.ok ? { ok: true, data: new Uint8Array(read.data) } : read;
}

/** Task ids that have evidence files, with their names, in name order; or why the folder was not listed. */
export async function evidenceTaskList(
  cwd: string,
): Promise<
  { readonly ok: true; readonly tasks: Array<[string, string[]]> } | { readonly ok: false; readonly error: string }
> {
  const listed = await listEvidenceTasks(cwd);
  return listed.ok ? { ok: true, tasks: [...listed.tasks] } : listed;
}

/** Null when the workspace file `rel` an explore bundle names may be opened (inside the workspace, links resolved), else why not. */
export async function referencedFileRefusal(cwd: string, rel: string): Promise<string | null> {
  if (!isContainedRelPath(rel)) return `${JSON.stringify(rel)} is absolute or leaves the workspace`;
  return confinementRefusal(cwd, path.join(cwd, rel));
}
