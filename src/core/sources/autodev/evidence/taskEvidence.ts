/**
 * Everything known about one task's evidence, gathered in one pass for the
 * tree and the views: its bundles (valid or not), its `.patch`, the parsed
 * diffs of every diff source (patch, developer `diff`, tournament
 * `final_diff`), its tournament folders, the evidence its status implies but
 * lacks, and what its `evidence_bundle` path points to. Never throws.
 */
import { PATCH_SOURCES, PatchSource } from "./evidenceNames";
import { EvidenceItem, PatchItem, checkBundleRef, listEvidence, readPatch } from "./evidenceStore";
import type { BundleRef } from "./evidenceNames";
import { missingEvidence } from "./evidenceSummary";
import { EvidenceExpectations } from "./requiredEvidence";
import { workspaceExpectations } from "./evidenceExpectations";
import { ParsedPatchFile, tryParsePatch } from "./patchModel";
import { diffContentHash } from "./reviewMarks";
import { isSafeSegment } from "../autodevPaths";
import { TournamentRecord, readTournament } from "./tournamentStore";

/** A parsed diff of one source, or why it could not be parsed. */
type DiffInfo =
  | {
      readonly source: PatchSource;
      readonly file: string;
      /** The sha256 of the diff's text (what a reviewed mark records: reviewMarks.ts). */
      readonly hash: string;
      readonly ok: true;
      readonly files: readonly ParsedPatchFile[];
    }
  | {
      readonly source: PatchSource;
      readonly file: string;
      readonly hash: string;
      readonly ok: false;
      readonly error: string;
    };

/** Resolves an `evidence_bundle` file name against the bundle names present. */
export function resolveBundle(taskId: string, file: string, present: readonly string[]): BundleRef {
  if (present.includes(file)) return { ok: true, file, exists: true, resolved: file, note: null };
  const developer = `${taskId}-developer.json`;
  if (file === `${taskId}-coder.json` && present.includes(developer)) {
    return {
      ok: true,
      file,
      exists: false,
      resolved: developer,
      note: `evidence_bundle names ${file}, a file AutoDev never writes (its execute loop records that name but writes the developer's bundle as ${developer}); showing ${developer}`,
    };
  }
  return { ok: true, file, exists: false, resolved: null, note: null };
}

/** A task's evidence. */
export interface TaskEvidence {
  readonly taskId: string;
  /** Bundles in file-name order; invalid ones carry their error. */
  readonly items: readonly EvidenceItem[];
  readonly patch: PatchItem | null;
  /** Parsed diffs, by source (only the sources that have a diff). */
  readonly diffs: ReadonlyMap<PatchSource, DiffInfo>;
  /** Tournament folders, by the bundle file that names them. */
  readonly tournaments: ReadonlyMap<string, TournamentRecord>;
  /** Kinds the task's status implies but that have no valid bundle. */
  readonly missing: readonly string[];
  readonly bundleRef: BundleRef | null;
}

/** The diff text each source holds, from what was already read. */
function diffTexts(
  items: readonly EvidenceItem[],
  patch: PatchItem | null,
): Array<{ source: PatchSource; file: string; text: string }> {
  const out: Array<{ source: PatchSource; file: string; text: string }> = [];
  for (const source of PATCH_SOURCES) {
    if (source === "patch") {
      if (patch?.ok) out.push({ source, file: patch.file, text: patch.text });
      continue;
    }
    const item = items.find((i) => i.ok && i.kind === source);
    if (!item?.ok) continue;
    const e = item.evidence;
    const text = e.kind === "developer" ? e.diff : e.kind === "tournament" ? e.final_diff : null;
    if (text) out.push({ source, file: item.file, text });
  }
  return out;
}

/**
 * Loads a task's evidence (`status` and `evidenceBundle` come from the plan's task); without `expect`,
 * what the task should have is read from the workspace (config.json, and whether the task ran inline).
 */
export async function loadTaskEvidence(
  cwd: string,
  taskId: string,
  status: string,
  evidenceBundle: string | null,
  expectIn?: EvidenceExpectations,
): Promise<TaskEvidence> {
  const expect = expectIn ?? (await workspaceExpectations(cwd)).forTask(taskId);
  const items = await listEvidence(cwd, taskId);
  const patch = isSafeSegment(taskId) ? await readPatch(cwd, taskId) : null;
  const diffs = new Map<PatchSource, DiffInfo>();
  for (const d of diffTexts(items, patch)) {
    const parsed = tryParsePatch(d.text);
    const base = { source: d.source, file: d.file, hash: diffContentHash(d.text) };
    diffs.set(
      d.source,
      parsed.ok ? { ...base, ok: true, files: parsed.files } : { ...base, ok: false, error: parsed.error },
    );
  }
  const tournaments = new Map<string, TournamentRecord>();
  for (const i of items) {
    if (i.ok && i.evidence.kind === "tournament") {
      tournaments.set(i.file, await readTournament(cwd, i.evidence.tournament_id));
    }
  }
  const have = new Set(items.filter((i) => i.ok).map((i) => i.kind));
  let bundleRef: BundleRef | null = null;
  if (evidenceBundle !== null && evidenceBundle !== "") {
    const ref = checkBundleRef(cwd, evidenceBundle);
    const present = [...items.filter((i) => i.ok).map((i) => i.file), ...(patch ? [patch.file] : [])];
    bundleRef = ref.ok ? resolveBundle(taskId, ref.file, present) : ref;
  }
  return { taskId, items, patch, diffs, tournaments, missing: missingEvidence(status, have, expect), bundleRef };
}
